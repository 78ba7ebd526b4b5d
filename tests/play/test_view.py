"""The play layer's one view model of the table (``play.view``): what every face shows
of a position, read from the engine, the controls (``play.table``) and ``leaving``."""

from __future__ import annotations

import dataclasses

import pytest

from firstlast.engine import Game, Variant, rank_char
from firstlast.engine.places import PILES
from firstlast.play import StoredGame
from firstlast.play.table import controls
from firstlast.play.view import TableView, table_view


def positions() -> list[Game]:
    """Several games at several points: dealt, mid-play, after a redeal, at the end."""
    out = []
    for deal, token in ((1, "r2"), (5, "r0n"), (7, "r1w"), (42, "ru")):
        for steps in (0, 1, 30, 500):
            g = Game(deal, Variant.from_token(token))
            for _ in range(steps):
                if g.position.status != "playing":
                    break
                g.step()
            out.append(g)
    return out


@pytest.mark.parametrize("game", positions(), ids=lambda g: f"{g.deal}-{g.variant.token}-{len(g)}")
def test_the_view_is_the_position_its_controls_and_its_legal_moves(game: Game) -> None:
    pos = game.position
    v = table_view(game)
    legal = pos.legal_moves()
    assert v.position is pos
    assert (v.deal, v.variant, v.status, v.score, v.passes) == (game.deal, game.variant, pos.status, pos.score,
                                                                pos.passes)
    assert (v.redeals_used, v.redeals_left) == (pos.redeals_used, pos.redeals_left)
    assert (v.first, v.reserve, v.piles, v.waste) == (pos.first, pos.reserve, pos.piles, pos.waste)
    # The stock shows its backs only (R1): its count and decks, never its cards.
    assert v.stock_count == len(pos.stock) and v.stock_decks == tuple(c.deck for c in pos.stock)
    assert (v.active, v.need, v.need_card, v.privileged) == (pos.active, pos.need, pos.need_card, pos.privileged)
    assert v.need_char == (None if pos.need is None else rank_char(pos.need))
    assert list(v.legal) == legal and v.hint == (legal[0] if legal else None)
    assert v.controls == controls(pos)
    assert v.playable == {mv.source for mv in legal if mv.kind == "play"}
    assert v.stock_live == (v.controls.stock in legal)
    assert (v.moves, v.can_undo, v.can_redo) == (len(game), game.can_undo, game.can_redo)
    assert v.dealt is None and v.leaving is None  # not a stored game


def test_the_end_of_a_game_has_nothing_to_press_and_no_hint() -> None:
    """Nothing moves once the game is over (R11)."""
    game = Game(1)
    game.autoplay()
    v = table_view(game)
    assert v.status != "playing"
    assert v.legal == () and v.hint is None and v.playable == frozenset()
    assert v.controls.pressable == () and not v.stock_live


def test_the_active_pile_and_the_rank_it_needs() -> None:
    """The active pile takes the rank after its top card (R4), and is where drops go."""
    game = Game(1)
    v = table_view(game)
    assert v.active is not None and v.need is not None
    assert v.controls.target == PILES[v.active]
    assert v.need_char == rank_char(v.need)


def test_a_replays_deal_as_dealt_has_no_moves_and_no_undo() -> None:
    game = Game(5)
    for _ in range(10):
        game.step()
    v = table_view(game, game.initial)
    assert v.position is game.initial
    assert (v.moves, v.can_undo, v.can_redo) == (0, False, False)
    assert table_view(game).can_undo and table_view(game).moves == 10


def test_a_stored_game_brings_its_start_kind_and_leaving() -> None:
    """``leaving`` is the play layer's policy: one dealt and never played is deleted,
    one with moves made is abandoned, a finished one kept."""
    game = Game(7)
    assert table_view(game, stored=StoredGame.new("p", game, dealt="daily")).leaving == "delete"
    assert table_view(game, stored=StoredGame.new("p", game, dealt="daily")).dealt == "daily"
    game.step()
    assert table_view(game, stored=StoredGame.new("p", game)).leaving == "abandon"
    game.autoplay()
    assert table_view(game, stored=StoredGame.new("p", game)).leaving == "keep"


def test_the_view_is_frozen() -> None:
    v = table_view(Game(1))
    assert isinstance(v, TableView)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.score = 104  # type: ignore[misc]
