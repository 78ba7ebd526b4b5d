"""A deal's result along the forced line: the engine's own (``Position.play_forced``), so
the rules (R2–R11, V1–V3) by construction; the compiled forced line is proven equal to it.
"""

from __future__ import annotations

from typing import NamedTuple

from .position import Position
from .variant import CANONICAL, Variant


class Outcome(NamedTuple):
    """A finished forced line (R11)."""

    won: bool
    score: int  # cards on the piles, 104 when won (R11)
    passes: int  # passes through the stock used: 1 + redeals (R11)


def play_out(deal: int, variant: Variant = CANONICAL) -> Outcome:
    """Deal ``deal`` (R2, §4.5) and play the forced line to its end (R9–R11)."""
    end = Position.deal(deal, variant).play_forced()
    return Outcome(end.status == "won", end.score, end.passes)
