"""The place vocabulary (``firstlast.engine.places``): one name for every place of the
table, read back exactly, refused with the engine's own error, and the waste's old move
name ``W`` still read wherever moves are read (notation, records, text commands)."""

from __future__ import annotations

import copy
import json
import pickle
import re

import pytest
from golden import GOLDEN_DIR, path_for, playthrough
from hypothesis import example, given
from hypothesis import strategies as st

from firstlast.engine import (
    PLACE_NAMES,
    PLACES,
    SOURCES,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Place,
    Variant,
    places,
)
from firstlast.engine.position import MOVE_WORDS, TABLE_MOVES
from firstlast.engine.record import game_from_record, record_to_text
from firstlast.play.view import table_view

OLD_RECORD = GOLDEN_DIR / "record-18446744073709551615-r0wn-old-W.txt"
OLD_RECORD_GAME = (2**64 - 1, Variant(redeals=0, waste_playable=True, privileged_last=False))


def test_every_place_has_one_name_and_reads_back() -> None:
    assert ("stock", "waste", *(f"{row}{i}" for row in "FRP" for i in range(1, 9))) == PLACE_NAMES
    assert len(set(PLACE_NAMES)) == len(PLACES) == 26
    for place in PLACES:
        assert Place(str(place)) is place
        assert str(place) == place.value == f"{place}" and place == place.value  # a str, its name
        assert json.dumps(place) == json.dumps(place.value)
        assert eval(repr(place), {"Place": Place}) is place


def test_kind_index_and_the_rows() -> None:
    assert places.kind(places.STOCK) == "stock" and places.kind(places.WASTE) == "waste"
    for i in range(8):
        f, r, p = places.FIRST[i], places.RESERVE[i], places.PILES[i]
        assert (str(f), str(r), str(p)) == (f"F{i + 1}", f"R{i + 1}", f"P{i + 1}")
        assert (places.kind(f), places.kind(r), places.kind(p)) == ("first", "reserve", "pile")
        assert places.index(f) == places.index(r) == places.index(p) == i
    for unranked in (places.STOCK, places.WASTE):
        with pytest.raises(ValueError, match="no index"):
            places.index(unranked)


def test_sources_are_the_places_a_card_is_played_from() -> None:
    # R6: reserve, first row (R8 privileged card, R5 base) and the waste top (V2).
    assert {*places.RESERVE, *places.FIRST, places.WASTE} == SOURCES
    assert {m.source for m in (Move("play", p) for p in SOURCES)} == SOURCES
    for name in ("stock", "P1", "W9", "", "F0"):
        with pytest.raises(InvalidMoveError) as info:
            Move("play", name)
        assert info.value.code == "move.source"


@given(st.text())
def test_arbitrary_text_is_a_move_or_the_engines_error(text: str) -> None:
    try:
        move = Move.parse(text)
    except InvalidMoveError as e:
        assert e.code == "move.syntax"
    else:
        assert move.source is None or move.source in SOURCES


@given(st.one_of(st.text(), st.sampled_from([*PLACE_NAMES, "W", "w"])))
@example("\U000103c4" * 40)  # regression: short, but ten times as long once escaped in the message
def test_a_play_built_from_any_text_has_a_source_or_is_refused(text: str) -> None:
    try:
        move = Move("play", text)
    except InvalidMoveError as e:
        assert e.code == "move.source" and len(str(e)) < 200
    else:
        assert move.source in SOURCES and (move.source == text or text == "W")


def test_moves_copy_and_pickle_as_themselves() -> None:
    for move in (Move.parse("W"), Move.parse("r3"), Move("turn")):
        assert copy.deepcopy(move) == move and pickle.loads(pickle.dumps(move)) == move
    assert pickle.loads(pickle.dumps(places.WASTE)) is places.WASTE


def test_w_is_read_as_the_waste_and_never_written() -> None:
    for spelling in ("W", "w", " W ", "waste", "Waste"):
        move = Move.parse(spelling)
        assert move.source is places.WASTE and str(move) == "waste"
    # Read in one place (the engine's move words, for old records and typed moves); a
    # move built in code takes the one name only.
    assert MOVE_WORDS["w"] is Move.parse("waste") and "W" not in TABLE_MOVES
    with pytest.raises(InvalidMoveError):
        Move("play", "W")


def test_moves_carry_places_and_movements_name_them() -> None:
    game = Game(42, Variant(waste_playable=True))
    for step in game.autoplay():
        if step.move.kind == "play":
            assert step.move.source in SOURCES and type(step.move.source) is Place
        for mv in step.movements:
            assert type(mv.source) is Place and type(mv.target) is Place
            assert mv.source.value == str(mv.source) and type(mv.source.value) is str
    waste_plays = [s for s in game.steps if s.move.source is places.WASTE]
    assert waste_plays and all(s.movements[0].source is places.WASTE for s in waste_plays)


def test_refusals_name_places_by_their_one_name() -> None:
    canonical = Game(1).position
    with pytest.raises(IllegalMoveError) as info:
        canonical.apply(Move.parse("W"))
    assert info.value.code == "R6.waste"
    with pytest.raises(IllegalMoveError) as info:
        canonical.apply(Move.parse("R1"))
    assert info.value.code == "R4.rank" and info.value.params["pile"] == "P1"
    assert all(type(v) in (str, int) for v in info.value.params.values())  # plain data, no Place
    v2 = Game(1, Variant(waste_playable=True)).position  # an empty waste, named by its one name
    with pytest.raises(IllegalMoveError) as info:
        v2.apply(Move("play", "waste"))
    assert info.value.code == "R6.empty" and info.value.params == {"place": "waste"}


def test_controls_name_places_of_the_vocabulary() -> None:
    v = table_view(Game(1))
    assert v.drop_target is places.PILES[0] and v.base_move == Move("play", places.FIRST[0])


# --------------------------------------------------------------- records and the alias


def test_records_write_waste_and_read_the_old_w() -> None:
    deal, variant = OLD_RECORD_GAME
    game = Game(deal, variant)
    game.autoplay()
    new = record_to_text(game, date="2026-11-29")
    moves = " ".join(line.split(". ", 1)[1] for line in new.splitlines() if re.match(r"\d+\. ", line))
    assert " waste " in f" {moves} " and " W " not in f" {moves} "
    old_text = OLD_RECORD.read_text(encoding="utf-8")
    assert re.search(r"\sW\s", old_text) and "waste" not in old_text.partition("\n\n")[2]
    old = game_from_record(old_text)
    assert old.moves == game.moves and old.position == game.position
    # Written again, the old record uses the new spelling, and that reads back too.
    again = record_to_text(old, date="2026-11-29")
    assert again == new and game_from_record(again).moves == game.moves


def test_the_old_record_is_the_golden_game() -> None:
    # The record in the old spelling and the regenerated golden playthrough are one game.
    old = game_from_record(OLD_RECORD.read_text(encoding="utf-8"))
    golden = path_for(*OLD_RECORD_GAME).read_text(encoding="utf-8").splitlines()
    moves = [line.split(" | ")[0].split(". ", 1)[1] for line in golden if re.match(r"\d+\. ", line)]
    assert moves == [str(m) for m in old.moves] and "waste" in moves
    assert golden == playthrough(*OLD_RECORD_GAME)


def test_games_replay_old_move_lists() -> None:
    # Stored move lists and redo lines written before (``W``) replay as ``waste``.
    deal, variant = OLD_RECORD_GAME
    game = Game(deal, variant)
    game.autoplay()
    old_moves = ["W" if str(m) == "waste" else str(m) for m in game.moves]
    assert "W" in old_moves
    assert Game(deal, variant, old_moves).moves == game.moves
    undone = Game(deal, variant, old_moves[:40], redo=old_moves[40:])
    assert undone.redo_moves == game.moves[40:]
