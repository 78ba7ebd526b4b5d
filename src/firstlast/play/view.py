"""The one view model of the table: what every face shows of a game, made once.

``table_view`` reads the engine's ``Position`` (the cards, the active pile and the rank
it needs, R4–R11), the controls' moves (``play.table.controls``) and the play layer's
policy (``leaving``) into a frozen ``TableView``. The web's answer (``web.shapes``) and
the terminal's table and side bar (``tui.table``, ``tui.widgets``) both render from it,
so neither derives what to show on its own (tests/test_faces_agree.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from ..engine import Card, Game, Move, Place, Position, Status, Variant, rank_char
from ..store import StoredGame
from .service import leaving
from .table import Controls, controls


@dataclass(frozen=True)
class TableView:
    """A game's table at one position, as the faces show it.

    ``position``: the engine's position itself, for what is said in words of it
    (``i18n.table``) and for the engine's refusals. ``stock_decks``: the backs of the
    stock's cards only — their order of faces stays secret (R1). ``privileged``: the
    privileged card on F8 (R8), if any. ``controls.pressable``: the places a press
    answers (``playable``: those a legal move plays from). ``hint``: the first legal
    move (the forced line's next). ``moves``: the moves made (0 for the deal as dealt
    in a replay). ``dealt``/``leaving``: the start kind and what becomes of the game
    when another takes the table (``play.leaving``), where the game is a stored one.
    ``comes_out``: the game is under way and known to come out (``known_to_come_out``):
    a face says so in place of a chance estimate."""

    position: Position
    deal: int
    variant: Variant
    status: Status
    score: int
    passes: int
    redeals_used: int
    redeals_left: int | None
    first: tuple[Card | None, ...]
    reserve: tuple[Card | None, ...]
    piles: tuple[tuple[Card, ...], ...]
    stock_count: int
    stock_decks: tuple[int, ...]
    waste: tuple[Card, ...]
    active: int | None
    need: int | None
    need_char: str | None
    need_card: Card | None
    privileged: Card | None
    legal: tuple[Move, ...]
    controls: Controls
    hint: Move | None
    moves: int
    can_undo: bool
    can_redo: bool
    dealt: str | None = None
    leaving: Literal["abandon", "delete", "keep"] | None = None
    comes_out: bool = False

    @cached_property
    def playable(self) -> frozenset[Place]:
        """The places a legal move plays from (worked out when a face asks: the web's
        answer does not)."""
        return frozenset(mv.source for mv in self.legal if mv.kind == "play" and mv.source is not None)

    @property
    def stock_live(self) -> bool:
        """Whether the stock's control (turn, or redeal once it is empty: R9, R10) is legal now."""
        return self.controls.stock in self.legal


def table_view(game: Game, at: Position | None = None, stored: StoredGame | None = None) -> TableView:
    """The view of ``game`` at its position, or at ``at`` (a past position shown in a
    replay: no undo or redo, no moves made); ``stored``: the stored game it is, for its
    start kind and ``leaving``. Built once per answer: the legal moves are worked out once."""
    past = at is not None
    pos = game.position if at is None else at
    moves = pos.legal_moves()
    legal = tuple(moves)
    need = pos.need
    return TableView(
        position=pos, deal=game.deal, variant=game.variant, status=pos.status, score=pos.score,
        passes=pos.passes, redeals_used=pos.redeals_used, redeals_left=pos.redeals_left,
        first=pos.first, reserve=pos.reserve, piles=pos.piles,
        stock_count=len(pos.stock), stock_decks=tuple(c.deck for c in pos.stock), waste=pos.waste,
        active=pos.active, need=need, need_char=None if need is None else rank_char(need),
        need_card=pos.need_card, privileged=pos.privileged,
        legal=legal, controls=controls(pos, moves),
        hint=legal[0] if legal else None,
        moves=0 if past else len(game), can_undo=game.can_undo and not past, can_redo=game.can_redo and not past,
        dealt=None if stored is None else stored.dealt,
        leaving=None if stored is None else leaving(stored),
        comes_out=not past and stored is not None and known_to_come_out(stored.dealt, pos.status),
    )


def known_to_come_out(dealt: str | None, status: str) -> bool:
    """Whether a game under way is known to come out: it was dealt because it does
    (``dealt`` ``winnable``, docs/play.md) and play is forced (docs/rules.md §2: the deal
    and its redeals decide), so it comes out whatever the order of moves. The chance
    estimate, made over the cards not yet seen, would give it the chance of any deal that
    looks like it: every face says "this deal comes out" instead."""
    return dealt == "winnable" and status == "playing"
