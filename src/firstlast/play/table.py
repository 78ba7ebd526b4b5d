"""What the table's controls ask for, so that no face needs to know a rule to wire them.

A click on the stock, the base key and a drop on a pile all name a move; which move that
is depends on the position (the rules), so it is decided here, once, for every face.
Which cards answer a press is decided here too. Whether a move is then legal is the
engine's decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import REDEAL, TURN, Move, Place, Position, places


@dataclass(frozen=True)
class Controls:
    """``stock``: the move a click on the stock (or the turn key) asks for — turn, or
    redeal once the stock is empty (R9, R10). ``base``: the move of the base key — the
    active pile's own first-row card (R5), ``None`` when no pile is active. ``target``:
    the one pile that takes cards, where drops go (R3), ``None`` at the end.
    ``pressable``: the places whose card answers a press, in ``places.PLACES`` order —
    it plays, or its refusal is worth saying: a card whose play is legal, any reserve
    card (R4 tells what the pile needs), the privileged card (R8) and the waste's top
    where it is a source (V2). Other first-row cards never move (R8), so a press on them
    says nothing; nothing is pressable once the game is over (R11)."""

    stock: Move
    base: Move | None
    target: Place | None
    pressable: tuple[Place, ...] = ()


def controls(pos: Position, legal: list[Move] | None = None) -> Controls:
    """The controls of ``pos``; ``legal``: its legal moves, when already at hand."""
    k = pos.active
    legal = pos.legal_moves() if legal is None else legal
    playable = {mv.source for mv in legal if mv.source is not None}
    pressable = () if not legal else tuple(
        p for p in places.PLACES
        if pos.card_at(p) is not None and (
            p in playable or places.kind(p) == "reserve" or (p == places.FIRST[-1] and pos.privileged is not None)
            or (p == places.WASTE and pos.variant.waste_playable)))
    return Controls(
        stock=TURN if pos.stock else REDEAL,
        base=None if k is None else Move("play", places.first(k)),
        target=None if k is None else places.pile(k),
        pressable=pressable,
    )
