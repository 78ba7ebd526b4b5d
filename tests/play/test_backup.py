"""Backups (firstlast.play.backup, docs/backup.md): a round trip gives back every game
column for column and the same statistics; a restore merges without duplicates, the
newer copy winning and a result never erased; any bad file is refused whole with a
coded error and stores nothing; the writes are one transaction."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace
from playing import export_backup, redo, step, undo

from firstlast.engine import Game, Variant
from firstlast.engine.record import record_to_text
from firstlast.play import PlayError, PlayService, backup
from firstlast.store import GameRow, GameStore, Transaction

ROOT = Path(__file__).resolve().parents[2]
WON_DEAL, LOST_DEAL = 7, 1


def make(tmp_path: Path, name: str) -> PlayService:
    return PlayService(GameStore(tmp_path / f"{name}.sqlite3"))


def rows(play: PlayService, player: str) -> list[GameRow]:
    with play.store.reading() as tx:
        return tx.rows(player)


def stats(play: PlayService, player: str) -> list[dict[str, object]]:
    return msgspec.to_builtins(play.stats(player))  # type: ignore[no-any-return]


def players(play: PlayService) -> int:
    with play.store.reading() as tx:
        return int(tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0])


def history(play: PlayService) -> str:
    """A player with a bit of everything the store keeps: a won game, a lost one undone
    after its end (its result kept), an abandoned one, one of another variant, an
    imported record, and the game on the table with a redo line; settings changed."""
    pid = play.local_player()
    won = play.start(pid, "number", WON_DEAL)
    step(play, pid, won.id, 10_000)
    lost = play.start(pid, "number", LOST_DEAL)
    step(play, pid, lost.id, 10_000)
    undo(play, pid, lost.id)
    undo(play, pid, lost.id)
    left = play.start(pid, "number", 3)
    step(play, pid, left.id, 20)  # abandoned by the next start
    other = play.start(pid, "number", 2, Variant(redeals=0, waste_playable=True))
    step(play, pid, other.id, 10_000)
    record = Game(6)
    record.autoplay()
    play.import_record(pid, record_to_text(record))
    table = play.start(pid, "number", 0)
    step(play, pid, table.id, 12)
    undo(play, pid, table.id)
    undo(play, pid, table.id)
    play.update_settings(pid, {"lang": "ru", "speed": 0})
    return pid


@pytest.fixture
def source(tmp_path: Path) -> tuple[PlayService, str]:
    play = make(tmp_path, "source")
    return play, history(play)


# ---------------------------------------------------------------------------- round trip
def test_round_trip_into_a_fresh_store_gives_every_game_and_the_same_statistics(
        tmp_path: Path, source: tuple[PlayService, str]) -> None:
    a, p = source
    text = export_backup(a, p)
    doc = json.loads(text)
    assert doc["format"] == "firstlast-backup" and doc["version"] == 1
    assert len(doc["games"]) == 6
    assert all(list(g) == list(GameRow.__struct_fields__) for g in doc["games"])
    b = make(tmp_path, "fresh")
    q = b.local_player()
    report = b.import_backup(q, text)
    assert (report.player, report.added, report.updated, report.kept, report.table) == (q, 6, 0, 0, True)
    assert report.settings == ("lang", "speed")
    # Column for column: ids, moves, redo lines, results, marks, times and versions.
    assert rows(b, q) == rows(a, p)
    assert stats(b, q) == stats(a, p)
    assert stats(b, q)[0]["abandoned"] == 1 and stats(b, q)[0]["played"] == 2
    assert b.settings(q) == a.settings(p)
    current_a, current_b = a.current(p), b.current(q)
    assert current_a is not None and current_b is not None
    assert current_b.id == current_a.id and current_b.game.redo_moves == current_a.game.redo_moves
    # The restored store's own backup is the same file, but for when it was written.
    again = json.loads(export_backup(b, q))
    assert {k: v for k, v in again.items() if k != "exported"} == {k: v for k, v in doc.items() if k != "exported"}
    # And the restored game plays on: its redo line is there.
    assert redo(b, q, current_b.id).stored.game.moves == current_a.game.moves + current_a.game.redo_moves[:1]


def test_an_unknown_player_gets_a_new_one_and_an_empty_backup(tmp_path: Path,
                                                              source: tuple[PlayService, str]) -> None:
    a, p = source
    b = make(tmp_path, "fresh")
    empty = json.loads(export_backup(b, None))
    assert empty["games"] == [] and empty["table"] is None and players(b) == 0
    report = b.import_backup(None, export_backup(a, p))
    assert report.added == 6 and b.known_player(report.player) == report.player
    assert stats(b, report.player) == stats(a, p)


# ---------------------------------------------------------------------------- merging
def test_importing_twice_changes_nothing_the_second_time(tmp_path: Path, source: tuple[PlayService, str]) -> None:
    a, p = source
    text = export_backup(a, p)
    b = make(tmp_path, "target")
    q = b.local_player()
    mine = b.start(q, "number", 11)
    step(b, q, mine.id, 3)
    first = b.import_backup(q, text)
    assert (first.added, first.kept, first.table) == (6, 0, False)  # the player's own game stays on the table
    before = rows(b, q)
    second = b.import_backup(q, text)
    assert (second.added, second.updated, second.kept, second.settings) == (0, 0, 6, ())
    assert rows(b, q) == before and len(before) == 7
    current = b.current(q)
    assert current is not None and current.id == mine.id


def test_a_newer_copy_wins_and_an_older_one_changes_nothing(tmp_path: Path,
                                                           source: tuple[PlayService, str]) -> None:
    a, p = source
    old = export_backup(a, p)
    b = make(tmp_path, "target")
    q = b.local_player()
    b.import_backup(q, old)
    table = a.current(p)
    assert table is not None
    step(a, p, table.id, 30)  # played on at the source: a newer copy
    newer = export_backup(a, p)
    before = {r.id: r for r in rows(b, q)}
    report = b.import_backup(q, newer)
    assert (report.added, report.updated, report.kept) == (0, 1, 5)
    after = {r.id: r for r in rows(b, q)}
    source_row = {r.id: r for r in rows(a, p)}[table.id]
    assert after[table.id].moves == source_row.moves and after[table.id].redo == ""
    assert after[table.id].version > max(before[table.id].version, source_row.version)
    # The target's service plays on from the newer copy, not from a cached older one.
    stepped = step(b, q, table.id, 1).stored.game
    assert len(stepped.moves) == len(source_row.moves.split()) + 1
    # The older file is older than the store now: nothing changes.
    kept = rows(b, q)
    report = b.import_backup(q, old)
    assert (report.added, report.updated, report.kept) == (0, 0, 6) and rows(b, q) == kept


def _row(**changes: Any) -> GameRow:
    base = GameRow(id="g1", deal="1", variant="r3", moves="", redo="", status="playing", score=0, passes=1,
                   version=3, created="2026-01-01T00:00:00.000+00:00", updated="2026-01-02T00:00:00.000+00:00",
                   finished=None, origin="played", result=None, result_score=None, result_passes=None, abandoned=None)
    return replace(base, **changes)


def test_the_merge_rule_newer_moves_first_result() -> None:
    here = _row(moves="turn", updated="2026-01-03T00:00:00.000+00:00", version=5)
    there = _row(moves="turn turn", updated="2026-01-02T00:00:00.000+00:00", version=9, result="lost",
                 result_score=40, result_passes=4, finished="2026-01-02T00:00:00.000+00:00")
    out = backup.merged(here, there)
    # Here is newer (updated later): its moves; there reached an end first: its result.
    assert out.moves == "turn" and (out.result, out.result_score, out.finished) == ("lost", 40, there.finished)
    assert out.version == 10 and out.id == here.id
    # As late, the higher version is newer.
    tie = _row(moves="turn turn", version=4)
    assert backup.merged(_row(version=3), tie).moves == "turn turn"
    assert backup.merged(tie, _row(version=3)) is tie
    # The earlier of two results stays.
    early = _row(result="won", result_score=104, result_passes=2, finished="2026-01-01T12:00:00.000+00:00")
    late = _row(result="lost", result_score=10, result_passes=4, finished="2026-01-02T00:00:00.000+00:00",
                updated="2026-01-05T00:00:00.000+00:00")
    assert backup.merged(early, late).result == "won" and backup.merged(late, early).result == "won"
    # The same copy changes nothing.
    assert backup.merged(here, here) is here


def test_another_players_ids_are_never_touched(tmp_path: Path, source: tuple[PlayService, str]) -> None:
    """On one server, a file with another player's game ids: stored under new ids, that
    player's games untouched, and found again by deal, variant and creation time."""
    a, p = source
    text = export_backup(a, p)
    theirs = rows(a, p)
    q = a.update_settings(None, {"show_chance": False}).player  # a second player of the same store
    report = a.import_backup(q, text)
    assert report.added == 6
    assert rows(a, p) == theirs
    mine = rows(a, q)
    assert not {r.id for r in mine} & {r.id for r in theirs}
    assert [(r.deal, r.variant, r.moves, r.created) for r in mine] == [(r.deal, r.variant, r.moves, r.created)
                                                                       for r in theirs]
    assert stats(a, q) == stats(a, p)
    again = a.import_backup(q, text)
    assert (again.added, again.kept) == (0, 6) and rows(a, q) == mine


def test_settings_are_taken_only_where_the_player_has_the_default(tmp_path: Path,
                                                                  source: tuple[PlayService, str]) -> None:
    a, p = source  # the file says lang ru, speed 0
    b = make(tmp_path, "target")
    q = b.local_player()
    b.update_settings(q, {"lang": "en", "show_chance": False})
    report = b.import_backup(q, export_backup(a, p))
    assert report.settings == ("speed",)
    s = b.settings(q)
    assert (s.lang, s.speed, s.show_chance) == ("en", 0, False)



def test_looks_and_sound_make_the_round_trip(tmp_path: Path, source: tuple[PlayService, str]) -> None:
    """Issue 28: the felt, backs, faces, layout and sound travel in a backup (as every
    setting of the one declaration does)."""
    a, p = source
    looks = {"felt": "night", "back": "rosette", "four_colour": True, "large_index": True, "layout": "mirrored",
             "sound": True, "volume": 35}
    a.update_settings(p, looks)
    doc = json.loads(export_backup(a, p))
    assert {k: doc["settings"][k] for k in looks} == looks
    b = make(tmp_path, "looks")
    q = b.local_player()
    report = b.import_backup(q, export_backup(a, p))
    assert set(looks) <= set(report.settings)
    assert {k: b.settings(q).to_json()[k] for k in looks} == looks


# ---------------------------------------------------------------------------- refusals
def _doc(source: tuple[PlayService, str]) -> dict[str, Any]:
    a, p = source
    return json.loads(export_backup(a, p))  # type: ignore[no-any-return]


def _last(doc: dict[str, Any]) -> dict[str, Any]:
    """The file's last game: a fault there proves that the games before it were not
    stored either."""
    return doc["games"][-1]  # type: ignore[no-any-return]


def _finished(doc: dict[str, Any]) -> dict[str, Any]:
    return next(g for g in doc["games"] if g["status"] == "won")


Mutation = Callable[[dict[str, Any]], object]
#: Faults of the file as a whole: refused whole, nothing stored.
BAD: list[tuple[str, Mutation, str]] = [
    ("format", lambda d: d.update(format="something-else"), "backup.format"),
    ("no format", lambda d: d.pop("format"), "backup.format"),
    ("version 2", lambda d: d.update(version=2), "backup.version"),
    ("version text", lambda d: d.update(version="1"), "backup.version"),
    ("version true", lambda d: d.update(version=True), "backup.version"),
    ("unknown field", lambda d: d.update(colour="red"), "backup.field"),
    ("games not a list", lambda d: d.update(games={}), "backup.field"),
    ("table not an id", lambda d: d.update(table=7), "backup.field"),
    ("bad setting", lambda d: d.update(settings={"speed": 9}), "backup.field"),
    ("unknown setting", lambda d: d.update(settings={"colour": "red"}), "backup.field"),
]
#: Faults of one game: that game is left out and named, every other one restored.
DAMAGED: list[tuple[str, Mutation, str]] = [
    ("game not an object", lambda d: d["games"].append("game"), "backup.field"),
    ("unknown game field", lambda d: _last(d).update(colour="red"), "backup.field"),
    ("missing id", lambda d: _last(d).pop("id"), "backup.field"),
    ("bad id", lambda d: _last(d).update(id="a b"), "backup.field"),
    ("same id twice", lambda d: _last(d).update(id=d["games"][0]["id"]), "backup.field"),
    ("deal of 5,000 digits", lambda d: _last(d).update(deal="9" * 5000), "backup.field"),
    ("deal of digits elsewhere", lambda d: _last(d).update(deal="١٢"), "backup.field"),
    ("deal past 2^64", lambda d: _last(d).update(deal=str(2**64)), "backup.field"),
    ("bad variant", lambda d: _last(d).update(variant="r9999"), "backup.field"),
    ("variant not a token", lambda d: _last(d).update(variant={"redeals": 3}), "backup.field"),
    ("moves not text", lambda d: _last(d).update(moves=["turn"]), "backup.field"),
    ("illegal move", lambda d: _last(d).update(moves="turn " + _last(d)["moves"]), "backup.game"),
    ("unreadable move", lambda d: _last(d).update(moves="R9"), "backup.game"),
    ("illegal redo line", lambda d: _last(d).update(redo="redeal"), "backup.game"),
    ("status not the replay's", lambda d: _last(d).update(status="won"), "backup.field"),
    ("score not the replay's", lambda d: _last(d).update(score=_last(d)["score"] + 1), "backup.field"),
    ("passes not the replay's", lambda d: _last(d).update(passes=9), "backup.field"),
    ("score a float", lambda d: _last(d).update(score=1.0), "backup.field"),
    ("version negative", lambda d: _last(d).update(version=-1), "backup.field"),
    ("a result that is no result", lambda d: _last(d).update(result="drawn"), "backup.field"),
    ("origin", lambda d: _last(d).update(origin="stolen"), "backup.field"),
    ("created not a time", lambda d: _last(d).update(created="yesterday"), "backup.field"),
    # A zone that carries the time out of Python's years (was an OverflowError).
    ("created past year 9999", lambda d: _last(d).update(created="9999-12-31T23:59:59-05:00"), "backup.field"),
    ("finished before year 1", lambda d: _finished(d).update(finished="0001-01-01T00:00:00+05:00"), "backup.field"),
]


@pytest.mark.parametrize(("mutate", "code"), [(m, c) for _, m, c in BAD], ids=[name for name, _, _ in BAD])
def test_a_bad_file_is_refused_whole_and_stores_nothing(tmp_path: Path, source: tuple[PlayService, str],
                                                        mutate: Mutation, code: str) -> None:
    doc = _doc(source)
    mutate(doc)
    b = make(tmp_path, "target")
    with pytest.raises(PlayError) as e:
        b.import_backup(None, json.dumps(doc))
    assert e.value.code == code, e.value
    assert e.value.kind == "invalid"
    assert players(b) == 0  # not even a player
    q = b.local_player()
    with pytest.raises(PlayError):
        b.import_backup(q, json.dumps(doc))
    assert rows(b, q) == [] and b.settings(q) == type(b.settings(q))()


@pytest.mark.parametrize(("mutate", "code"), [(m, c) for _, m, c in DAMAGED], ids=[n for n, _, _ in DAMAGED])
def test_a_damaged_game_is_left_out_and_named_and_the_others_restored(
        tmp_path: Path, source: tuple[PlayService, str], mutate: Mutation, code: str) -> None:
    """Issue 29: one damaged game used to refuse the whole file, so that every good game
    of it was lost with it."""
    good = _doc(source)
    doc = json.loads(json.dumps(good))
    mutate(doc)
    n = next(i for i, g in enumerate(doc["games"], start=1) if i > len(good["games"]) or g != good["games"][i - 1])
    b = make(tmp_path, "target")
    report = b.import_backup(None, json.dumps(doc))
    assert [(s.n, s.error.code) for s in report.skipped] == [(n, code)], report.skipped
    str(report.skipped[0].error).encode("utf-8")
    others = [g for i, g in enumerate(good["games"], start=1) if i != n]
    assert report.added == len(others) and report.games == len(others)
    assert sorted(r.id for r in rows(b, report.player)) == sorted(g["id"] for g in others)
    assert report.skipped[0].to_json()["code"] == code


@pytest.mark.parametrize(("name", "change"), [
    ("a won game that says nothing of it", dict(result=None, result_score=None, result_passes=None, finished=None)),
    ("a win of 52 cards", dict(result_score=52, result_passes=1)),
    ("a loss claimed for a win", dict(result="lost", result_score=3)),
])
def test_a_result_is_the_replays_never_the_files(tmp_path: Path, source: tuple[PlayService, str], name: str,
                                                 change: dict[str, object]) -> None:
    doc = _doc(source)
    won = _finished(doc)
    truth = (won["result"], won["result_score"], won["result_passes"])
    won.update(change)
    b = make(tmp_path, "target")
    report = b.import_backup(None, json.dumps(doc))
    assert report.skipped == ()
    got = next(r for r in rows(b, report.player) if r.id == won["id"])
    assert (got.result, got.result_score, got.result_passes) == truth
    assert got.finished is not None


def test_a_win_claimed_for_a_lost_deal_counts_nothing(tmp_path: Path) -> None:
    """Issue 29: deal 1 (r3) with no moves, said to be won, was counted as a win."""
    text = json.dumps({"format": "firstlast-backup", "version": 1, "games": [
        {"id": "claim", "deal": 1, "variant": "r3", "moves": "", "result": "won", "result_score": 104,
         "result_passes": 1, "finished": "2026-01-01T10:00:00Z", "created": "2026-01-01T10:00:00Z",
         "updated": "2026-01-01T10:00:00Z"}]})
    b = make(tmp_path, "target")
    report = b.import_backup(None, text)
    assert report.added == 1
    got = rows(b, report.player)[0]
    assert (got.result, got.result_score, got.finished) == (None, None, None)
    assert all(s["won"] == 0 and s["played"] == 0 for s in stats(b, report.player))


def test_export_leaves_out_a_game_whose_stored_moves_are_damaged(tmp_path: Path,
                                                                 source: tuple[PlayService, str]) -> None:
    """Issue 29: export copied a damaged game, and the file was then refused whole."""
    a, p = source
    good = rows(a, p)
    with a.store.transaction() as tx:
        tx.db.execute("UPDATE games SET moves = 'turn ' || moves WHERE id = ?", (good[0].id,))
    text, count, skipped = a.backup_file(p)
    assert [(s.n, s.id, s.error.code) for s in skipped] == [(1, good[0].id, "backup.game")]
    doc = json.loads(text)
    assert [g["id"] for g in doc["games"]] == [r.id for r in good[1:]] and count == len(good) - 1
    assert [x["id"] for x in doc["left_out"]] == [good[0].id]
    report = make(tmp_path, "target").import_backup(None, text)  # what export writes, import takes
    assert report.skipped == () and report.added == len(good) - 1


def test_a_refused_move_carries_the_engines_code(source: tuple[PlayService, str]) -> None:
    doc = _doc(source)
    game = _last(doc)
    game["moves"] = "turn " + game["moves"]  # deal 0 starts with a reserve play: turning is refused (R9)
    params = backup.read_backup(json.dumps(doc)).skipped[0].error.params
    assert (params["n"], params["move"], params["token"], params["deal"]) == (6, 1, "turn", "0")
    assert params["refusal"] == "R9.play_before_turn" and params["rule"] == "R9"
    game["moves"] = "R3 R9"
    params = backup.read_backup(json.dumps(doc)).skipped[0].error.params
    assert params["move"] == 2 and params["invalid"]


@pytest.mark.parametrize(("text", "code"), [
    ("", "backup.json"), ("not json", "backup.json"), ("[1,", "backup.json"), ("[]", "backup.format"),
    ('"firstlast-backup"', "backup.format"), ("[" * 100_000 + "]" * 100_000, "backup.format"),
    ('{"format": "firstlast-backup", "version": 1, "games": [], "x": NaN}', "backup.field"),
    ('{"format": "firstlast-backup", "version": 1, "games": [{"deal": ' + "9" * 5000 + "}]}", "backup.field"),
    ("\ufeff" + '{"format": "firstlast-backup", "version": 1, "games": "none"}', "backup.field"),
    # A lone surrogate (JSON may spell one; no text holds one): refused, never echoed.
    ('{"format": "firstlast-backup", "version": 1, "games": [], "app": "\\ud800"}', "backup.field"),
    ('{"format": "firstlast-backup", "version": 1, "games": [], "settings": {"\\udfff": 1}}', "backup.field"),
])
def test_text_that_is_no_backup(text: str, code: str) -> None:
    with pytest.raises(PlayError) as e:
        backup.read_backup(text)
    assert e.value.code == code
    str(e.value).encode("utf-8")  # its words can be written


def test_a_minimal_hand_written_file_is_read(tmp_path: Path) -> None:
    """Only the required fields; a time without a zone is UTC; a number for the deal."""
    game = Game(WON_DEAL)
    game.autoplay()
    moves = " ".join(map(str, game.moves))
    text = json.dumps({"format": "firstlast-backup", "version": 1, "games": [
        {"id": "hand-1", "deal": 3, "variant": "r3", "moves": "", "created": "2026-01-01T10:00:00",
         "updated": "2026-01-01T10:00:00"},
        {"id": "hand-2", "deal": str(WON_DEAL), "variant": "r3", "moves": moves, "result": "won",
         "result_score": 104, "result_passes": game.position.passes, "finished": "2026-01-01T11:00:00+03:00",
         "created": "2026-01-01T10:00:00Z", "updated": "2026-01-01T11:00:00+03:00"}]})
    b = make(tmp_path, "target")
    report = b.import_backup(None, text)
    assert report.added == 2
    got = {r.id: r for r in rows(b, report.player)}
    assert got["hand-1"].created == "2026-01-01T10:00:00.000+00:00" and got["hand-1"].deal == "3"
    assert got["hand-2"].finished == "2026-01-01T08:00:00.000+00:00"
    assert (got["hand-2"].status, got["hand-2"].score) == ("won", 104)
    assert stats(b, report.player)[0]["won"] == 1


def test_the_bounds(monkeypatch: pytest.MonkeyPatch, source: tuple[PlayService, str]) -> None:
    a, p = source
    text = export_backup(a, p)
    monkeypatch.setattr(backup, "MAX_BACKUP_GAMES", 5)
    for fn in (lambda: backup.read_backup(text), lambda: export_backup(a, p)):
        with pytest.raises(PlayError) as e:
            fn()
        assert e.value.code == "backup.too_many" and e.value.params == {"count": 6, "max": 5}
    monkeypatch.setattr(backup, "MAX_BACKUP_GAMES", 10_000)
    monkeypatch.setattr(backup, "MAX_BACKUP_MOVES", 100)
    for fn in (lambda: backup.read_backup(text), lambda: export_backup(a, p)):
        with pytest.raises(PlayError) as e:
            fn()
        assert e.value.code == "backup.too_long"
    monkeypatch.setattr(backup, "MAX_BACKUP_MOVES", 3_000_000)
    monkeypatch.setattr(backup, "MAX_BACKUP_CHARS", len(text) - 1)
    for fn in (lambda: backup.read_backup(text), lambda: export_backup(a, p)):
        with pytest.raises(PlayError) as e:
            fn()
        assert e.value.code == "backup.too_large"


@pytest.mark.parametrize("tiny", ["{}", "[]", '""', "[{}]"])
def test_a_file_of_tiny_values_is_refused_before_they_are_built(tiny: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 29.5: 16 MiB of {}s were read whole: 4 million objects (the server grew to
    # 535 MiB, and held the interpreter for seconds) before the count of games refused it.
    # Now the values are counted first (nothing made but the count), and JSON is not read.
    head = '{"format": "firstlast-backup", "version": 1, "games": ['
    item = tiny + ", "
    text = head + item * ((backup.MAX_BACKUP_CHARS - len(head) - len(tiny) - 2) // len(item)) + tiny + "]}"
    assert len(text) <= backup.MAX_BACKUP_CHARS

    def not_read(*args: object, **kwargs: object) -> object:
        raise AssertionError("the text was read as JSON")

    monkeypatch.setattr(backup.jsontext, "loads", not_read)
    with pytest.raises(PlayError) as e:
        backup.read_backup(text)
    assert e.value.code == "backup.too_complex" and e.value.params == {"max": backup.MAX_BACKUP_VALUES}


def test_the_bound_on_values_counts_what_is_outside_strings(monkeypatch: pytest.MonkeyPatch,
                                                            source: tuple[PlayService, str]) -> None:
    # Commas and brackets in a wish are text, not values: the quick count overstates, the
    # exact one does not.
    a, p = source
    doc = json.loads(export_backup(a, p))
    for g in doc["games"]:
        g["wish"] = "[{,\\\"" * 20
    text = backup.dumps(doc)
    values = sum(1 for _ in backup._VALUE.finditer(text))
    assert sum(text.count(c) for c in '"[{,') > values + 200
    monkeypatch.setattr(backup, "MAX_BACKUP_VALUES", values)
    assert len(backup.read_backup(text).games) == len(doc["games"])
    monkeypatch.setattr(backup, "MAX_BACKUP_VALUES", values - 1)
    for fn in (lambda: backup.read_backup(text), lambda: backup.dumps(doc)):
        with pytest.raises(PlayError) as e:
            fn()
        assert e.value.code == "backup.too_complex"


def test_the_writes_are_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        source: tuple[PlayService, str]) -> None:
    """A storage failure after some games were written stores none of them."""
    a, p = source
    text = export_backup(a, p)
    b = make(tmp_path, "target")
    q = b.local_player()
    real = Transaction.insert_row
    calls = []

    def failing(self: Transaction, player: str, row: GameRow) -> None:
        calls.append(row.id)
        if len(calls) == 4:
            raise sqlite3.OperationalError("disk I/O error")
        real(self, player, row)

    monkeypatch.setattr(Transaction, "insert_row", failing)
    with pytest.raises(PlayError) as e:
        b.import_backup(q, text)
    assert e.value.code == "storage" and len(calls) == 4
    monkeypatch.setattr(Transaction, "insert_row", real)
    assert rows(b, q) == [] and b.settings(q) == type(b.settings(q))()
    assert b.import_backup(q, text).added == 6


def test_the_doc_describes_every_field_and_code() -> None:
    doc = (ROOT / "docs" / "backup.md").read_text(encoding="utf-8")
    for name in (*GameRow.__struct_fields__, *backup.Backup.__struct_fields__):
        assert re.search(rf"^\| `{name}` \|", doc, re.M), name
    from firstlast.play.errors import CODES

    for code in (c for c in CODES if c.startswith("backup.")):
        assert f"| `{code}` |" in doc, code
