"""A deal's result along the forced line: ``play_out(deal, variant)``.

This is the engine's own forced line, nothing else: ``Position.deal(deal, variant)``
played to its end by ``Position.play_forced`` (the same code as ``Position.apply``,
without the movement lists an interface needs), so ``play_out`` is the rules
(R2–R11, V1–V3, docs/rules.md) by construction. It is the same line ``Game.autoplay``
walks move by move, and the one the fast forced line (``firstlast.odds.fastline``) is
proven equal to (``position``'s docstring).
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
