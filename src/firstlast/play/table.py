"""What the table's controls ask for, so that no face needs to know a rule to wire them.

A click on the stock, the base key and a drop on a pile all name a move; which move that
is depends on the position (the rules), so it is decided here, once, for every face.
Whether the move is then legal is the engine's decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import REDEAL, TURN, Move, Place, Position, places


@dataclass(frozen=True)
class Controls:
    """``stock``: the move a click on the stock (or the turn key) asks for — turn, or
    redeal once the stock is empty (R9, R10). ``base``: the move of the base key — the
    active pile's own first-row card (R5), ``None`` when no pile is active. ``target``:
    the one pile that takes cards, where drops go (R3), ``None`` at the end."""

    stock: Move
    base: Move | None
    target: Place | None


def controls(pos: Position) -> Controls:
    k = pos.active
    return Controls(
        stock=TURN if pos.stock else REDEAL,
        base=None if k is None else Move("play", places.first(k)),
        target=None if k is None else places.pile(k),
    )
