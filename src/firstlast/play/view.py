"""The one view model of the table: what every face shows of a game, declared and made
once (``TableView``; docs/play.md says who renders from it, tests/test_faces_agree.py
holds them to it).
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ..engine import REDEAL, TURN, Card, Game, Move, Place, Position, Status, Variant, places, rank_char
from ..engine.position import PILE_SIZE
from ..store import StoredGame
from .fields import DealText


class TableFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What the engine says of a position (a replay's step too: ``table_facts``).
    ``privileged``: F8 holds the privileged card (R8)."""

    status: Status
    score: int
    passes: int
    redeals_used: int
    redeals_left: Annotated[int | None, Meta(description="null: unlimited")]
    active: Annotated[int, Meta(ge=0, le=7)] | None
    need: Annotated[int, Meta(ge=1, le=13)] | None
    need_char: str | None
    need_card: Annotated[Card | None, Meta(description="the one card the active pile takes: its own base (R5)")]
    privileged: Literal["F8"] | None

    @property
    def passes_allowed(self) -> int | None:
        """The passes through the stock the game allows: this one and one per redeal
        left (R9, R10); ``None``: unlimited."""
        return None if self.redeals_left is None else self.passes + self.redeals_left


class TableView(TableFacts, frozen=True, kw_only=True, dict=True):
    """A game's table at one position, as the faces show it: everything but the stock's
    order (R1: ``stock_decks``, the backs only). What the controls ask for (``stock_move``,
    ``base_move``, ``drop_target``, ``pressable``) is decided here, so that no face needs
    a rule to wire them; whether a move is then legal is the engine's decision."""

    deal: DealText
    variant: Variant
    first: Annotated[tuple[Card | None, ...], Meta(min_length=8, max_length=8)]
    reserve: Annotated[tuple[Card | None, ...], Meta(min_length=8, max_length=8)]
    piles: Annotated[tuple[tuple[Card, ...], ...], Meta(min_length=8, max_length=8)]
    stock_count: int
    stock_decks: Annotated[tuple[Literal[1, 2], ...], Meta(description="backs only, next card first")]
    waste: Annotated[tuple[Card, ...], Meta(description="bottom to top")]
    legal_moves: tuple[Move, ...]
    stock_move: Annotated[Move, Meta(description="turn, or redeal once the stock is empty")]
    base_move: Annotated[Move | None, Meta(description="F1…F8: the active pile's own base")]
    drop_target: Annotated[Place | None, Meta(description="P1…P8: the one pile that takes cards")]
    pressable: Annotated[tuple[Place, ...], Meta(description=(
        "the places whose card answers a press: it plays, or its refusal is said (play.view.TableView)"))]
    hint: Move | None
    can_undo: bool
    can_redo: bool
    moves: int
    comes_out: Annotated[bool, Meta(description=(
        "under way and known to come out (dealt as winnable: play is forced; play.view.table_view): "
        "the page says so instead of asking for the chance"))] = False

    @cached_property
    def playable(self) -> frozenset[Place]:
        """The places a legal move plays from (worked out when a face asks: the web's
        answer does not)."""
        return frozenset(mv.source for mv in self.legal_moves if mv.kind == "play" and mv.source is not None)

    def pile_complete(self, k: int) -> bool:
        """Whether pile ``k`` (0-based) holds all its cards (R5)."""
        return len(self.piles[k]) == PILE_SIZE

    @property
    def stock_live(self) -> bool:
        """Whether the stock's control (turn, or redeal once it is empty: R9, R10) is legal now."""
        return self.stock_move in self.legal_moves


def table_facts(pos: Position) -> TableFacts:
    """What the engine says of ``pos`` (the view's first fields)."""
    need = pos.need
    return TableFacts(status=pos.status, score=pos.score, passes=pos.passes, redeals_used=pos.redeals_used,
                      redeals_left=pos.redeals_left, active=pos.active, need=need,
                      need_char=None if need is None else rank_char(need), need_card=pos.need_card,
                      privileged=None if pos.privileged is None else "F8")


def table_view(game: Game, at: Position | None = None, stored: StoredGame | None = None) -> TableView:
    """The view of ``game`` at its position, or at ``at`` (a past position shown in a
    replay: no undo or redo, no moves made); ``stored``: the stored game it is, for its
    start kind."""
    past = at is not None
    pos = game.position if at is None else at
    legal = tuple(pos.legal_moves())
    sources = {mv.source for mv in legal}
    k = pos.active
    return TableView(
        **msgspec.structs.asdict(table_facts(pos)), deal=str(game.deal), variant=game.variant,
        first=pos.first, reserve=pos.reserve, piles=pos.piles, stock_count=len(pos.stock),
        stock_decks=tuple(c.deck for c in pos.stock), waste=pos.waste,  # type: ignore[misc]  # decks are 1 or 2
        legal_moves=legal, stock_move=TURN if pos.stock else REDEAL,
        base_move=None if k is None else Move("play", places.FIRST[k]),
        drop_target=None if k is None else places.PILES[k],
        # A card whose play is legal, any reserve card (R4 tells what the pile needs), the
        # privileged card (R8), the waste's top where it is a source (V2); other first-row
        # cards never move (R8), and nothing answers a press once the game is over (R11).
        pressable=() if not legal else tuple(
            p for p in places.PLACES
            if pos.card_at(p) is not None and (
                p in sources or places.kind(p) == "reserve" or (p == places.FIRST[-1] and pos.privileged is not None)
                or (p == places.WASTE and pos.variant.waste_playable))),
        hint=legal[0] if legal else None,
        moves=0 if past else len(game), can_undo=game.can_undo and not past, can_redo=game.can_redo and not past,
        # Dealt as winnable and play is forced: known to come out (docs/play.md, "Deal numbers").
        comes_out=not past and stored is not None and stored.dealt == "winnable" and pos.status == "playing",
    )
