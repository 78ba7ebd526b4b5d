"""The play layer's one view model of the table (``play.view``): what every face shows
of a position, read from the engine, with what the table's controls ask for."""

from __future__ import annotations

import pytest

from firstlast.engine import REDEAL, TURN, Game, Move, Variant, places, rank_char
from firstlast.engine.places import PILES
from firstlast.play import StoredGame, leaving
from firstlast.play.view import TableFacts, TableView, table_facts, table_view


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
    assert (v.deal, v.variant, v.status, v.score, v.passes) == (str(game.deal), game.variant, pos.status, pos.score,
                                                                pos.passes)
    assert (v.redeals_used, v.redeals_left) == (pos.redeals_used, pos.redeals_left)
    assert (v.first, v.reserve, v.piles, v.waste) == (pos.first, pos.reserve, pos.piles, pos.waste)
    # The stock shows its backs only (R1): its count and decks, never its cards.
    assert v.stock_count == len(pos.stock) and v.stock_decks == tuple(c.deck for c in pos.stock)
    assert (v.active, v.need, v.need_card) == (pos.active, pos.need, pos.need_card)
    assert v.privileged == (None if pos.privileged is None else "F8") and pos.privileged in (None, v.first[-1])
    assert v.need_char == (None if pos.need is None else rank_char(pos.need))
    assert table_facts(pos) == TableFacts(**{f: getattr(v, f) for f in TableFacts.__struct_fields__})
    assert list(v.legal_moves) == legal and v.hint == (legal[0] if legal else None)
    assert v.stock_move == (TURN if pos.stock else REDEAL)
    assert v.playable == {mv.source for mv in legal if mv.kind == "play"}
    assert v.playable <= set(v.pressable) <= {p for p in places.PLACES if pos.card_at(p) is not None}
    assert v.stock_live == (v.stock_move in legal)
    # The passes the variant allows: the first and one per redeal (R9, R10).
    redeals = game.variant.redeals
    assert v.passes_allowed == (None if redeals is None else redeals + 1)
    assert [v.pile_complete(k) for k in range(8)] == [len(p) == 13 for p in pos.piles]
    assert (v.moves, v.can_undo, v.can_redo) == (len(game), game.can_undo, game.can_redo)
    assert not v.comes_out  # not a stored game


def test_the_end_of_a_game_has_nothing_to_press_and_no_hint() -> None:
    """Nothing moves once the game is over (R11)."""
    game = Game(1)
    game.autoplay()
    v = table_view(game)
    assert v.status != "playing"
    assert v.legal_moves == () and v.hint is None and v.playable == frozenset()
    assert v.pressable == () and not v.stock_live


def test_the_active_pile_and_the_rank_it_needs() -> None:
    """The active pile takes the rank after its top card (R4), and is where drops go;
    the base key plays its own base (R5), a click on the stock turns (R9) or redeals (R10)."""
    game = Game(1)
    v = table_view(game)
    assert v.active is not None and v.need is not None
    assert v.drop_target is PILES[v.active] and v.base_move == Move("play", places.FIRST[v.active])
    assert v.need_char == rank_char(v.need) and str(v.stock_move) == "turn" and str(v.base_move) == "F1"
    game.autoplay()  # lost with an empty stock: the stock's move is a redeal (refused: none left)
    assert str(table_view(game).stock_move) == "redeal"


def test_a_replays_deal_as_dealt_has_no_moves_and_no_undo() -> None:
    game = Game(5)
    for _ in range(10):
        game.step()
    v = table_view(game, game.initial)
    assert v.score == game.initial.score
    assert (v.moves, v.can_undo, v.can_redo) == (0, False, False)
    assert table_view(game).can_undo and table_view(game).moves == 10


def test_a_stored_game_dealt_as_winnable_is_said_to_come_out() -> None:
    """``comes_out`` (dealt as winnable) while under way, never in a replay; and
    ``leaving``, the play layer's policy the web sends beside the view: one dealt and
    never played is deleted, one with moves made is abandoned, a finished one kept."""
    game = Game(7)
    assert table_view(game, stored=StoredGame.new("p", game, dealt="winnable")).comes_out
    assert not table_view(game, game.initial, StoredGame.new("p", game, dealt="winnable")).comes_out
    assert not table_view(game, stored=StoredGame.new("p", game, dealt="daily")).comes_out
    assert leaving(StoredGame.new("p", game, dealt="daily")) == "delete"
    game.step()
    assert leaving(StoredGame.new("p", game)) == "abandon"
    game.autoplay()
    assert leaving(StoredGame.new("p", game)) == "keep"
    assert not table_view(game, stored=StoredGame.new("p", game, dealt="winnable")).comes_out  # over: said as such


def test_the_view_is_frozen() -> None:
    v = table_view(Game(1))
    assert isinstance(v, TableView)
    with pytest.raises(AttributeError):
        v.score = 104  # type: ignore[misc]
