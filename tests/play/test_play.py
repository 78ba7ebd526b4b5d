"""The play layer (firstlast.play): sessions, actions, the statistics policy, settings,
the conflict policy and the one deal-number parser (docs/play.md)."""

from __future__ import annotations

import datetime as dt
import itertools
import threading
from pathlib import Path

import pytest
from playing import advance, export_backup, move, redo, restart, step, undo

from firstlast.engine import MAX_DEAL, Game, Move, Variant
from firstlast.engine.record import record_to_text
from firstlast.i18n import catalog
from firstlast.play import (
    CODES,
    MakeMove,
    PlayError,
    PlayService,
    Settings,
    Steps,
    command,
    daily_deal,
    leaving,
    next_deal,
    parse_deal,
    parse_variant,
    winnable_deal,
)
from firstlast.play.settings import parse_redeals
from firstlast.store import GameStore, Transaction

WON_DEAL, LOST_DEAL = 7, 1


@pytest.fixture
def play(tmp_path: Path) -> PlayService:
    return PlayService(GameStore(tmp_path / "games.sqlite3"))


def codes(fn: object, *args: object) -> str:
    with pytest.raises(PlayError) as e:
        fn(*args)  # type: ignore[operator]
    return e.value.code


# ---------------------------------------------------------------------------- deals
def test_one_deal_number_syntax() -> None:
    assert parse_deal("0") == 0 and parse_deal("42") == 42 and parse_deal(str(MAX_DEAL)) == MAX_DEAL
    assert parse_deal(7) == 7
    for bad in ("", " 1", "1 ", "1_000", "1,000", "1 000", "+1", "-1", "12x", "５", "²", "١٢", "0x10", "1e3"):
        assert codes(parse_deal, bad) == "deal.invalid", bad
    for big in (str(MAX_DEAL + 1), "9" * 21, "9" * 5000, MAX_DEAL + 1, -1):
        assert codes(parse_deal, big) in ("deal.range", "deal.invalid")
    for wrong in (True, 1.5, None, [1]):
        assert codes(parse_deal, wrong) == "deal.invalid"


def test_next_daily_and_winnable_deals() -> None:
    assert next_deal(41) == 42 and next_deal(MAX_DEAL) == 0
    assert daily_deal(dt.date(2026, 11, 30)) == 20261130
    assert daily_deal(dt.date(2026, 12, 1)) != daily_deal(dt.date(2026, 11, 30))
    # Candidates are drawn a chunk at a time; the first that comes out is the deal.
    draws = itertools.chain([LOST_DEAL, LOST_DEAL, WON_DEAL], itertools.repeat(LOST_DEAL))
    assert winnable_deal(Variant(), draw=lambda: next(draws)) == WON_DEAL
    game = Game(winnable_deal(Variant()))
    game.autoplay()
    assert game.position.status == "won"
    assert codes(winnable_deal, Variant(), lambda: LOST_DEAL, 3) == "winnable.none"


# ---------------------------------------------------------------------------- settings
def test_settings_schema() -> None:
    s = Settings()
    assert tuple(s.to_json()) == Settings.__struct_fields__
    # Guidance (issue 26): the marks on by default, the tour not yet seen.
    assert (s.show_playable, s.tour_seen) == (True, False)
    assert s.updated({"show_playable": False, "tour_seen": True}).to_json()["show_playable"] is False
    assert codes(s.updated, {"tour_seen": "yes"}) == "settings.value"
    assert {k: s.to_json()[k] for k in ("lang", "speed", "variant", "show_chance", "verbosity")} == {
        "lang": None, "speed": 2, "variant": "r3", "show_chance": True, "verbosity": "full"}
    # Looks and sound (issue 28): their defaults, their words, and what they refuse.
    assert {k: s.to_json()[k] for k in ("felt", "back", "four_colour", "large_index", "layout", "sound", "volume")} == {
        "felt": "green", "back": "lattice", "four_colour": False, "large_index": False, "layout": "standard",
        "sound": False, "volume": 60}
    looks = s.updated({"felt": "paper", "back": "rosette", "four_colour": True, "large_index": True,
                       "layout": "mirrored", "sound": True, "volume": 0})
    assert Settings.from_stored(looks.to_json()) == looks and looks.updated({"felt": None}).felt == "green"
    for bad in ({"felt": "pink"}, {"back": ""}, {"layout": "left"}, {"four_colour": 1}, {"sound": "on"},
                {"volume": 101}, {"volume": -1}, {"volume": True}, {"volume": 50.0}):
        assert codes(s.updated, bad) == "settings.value", bad
    assert s.to_json()["wish"] is False and s.updated({"wish": True}).wish  # on a wish: off by default
    s = s.updated({"lang": "ru", "variant": "ruw", "speed": 0, "show_chance": False, "verbosity": "brief"})
    assert s.verbosity == "brief"
    assert s.variant == Variant(redeals=None, waste_playable=True) and s.lang == "ru"
    assert s.updated({"lang": None}).lang is None
    assert s.updated({"variant": {"redeals": 0, "privileged_last": False}}).variant.token == "r0n"
    for bad, code in [({"lang": "de"}, "settings.value"), ({"speed": 9}, "settings.value"),
                      ({"speed": True}, "settings.value"), ({"show_chance": 1}, "settings.value"),
                      ({"verbosity": "loud"}, "settings.value"), ({"wish": "yes"}, "settings.value"),
                      ({"tour_seen": "yes"}, "settings.value"),
                      ({"colour": "red"}, "settings.unknown"), ({"variant": "r1001"}, "variant.redeals"),
                      ({"variant": "rx"}, "variant.invalid"), ({"variant": {"redeals": -1}}, "variant.redeals"),
                      ({"variant": {"waste": True}}, "variant.field")]:
        assert codes(s.updated, bad) == code, bad
    # Stored settings are read leniently: what does not check falls back to its default.
    assert Settings.from_stored({"lang": "xx", "speed": 3, "variant": "bad", "junk": 1}) == Settings(speed=3)
    assert parse_variant("r0") == Variant(redeals=0)
    assert parse_redeals("unlimited") is None and parse_redeals(" 5 ") == 5
    for bad in ("５", "-1", "1001", "9" * 30, "x", ""):
        assert codes(parse_redeals, bad) == "variant.redeals"


def test_every_error_code_has_a_kind_and_a_sentence() -> None:
    kinds = {"invalid", "illegal", "not_found", "conflict", "busy", "unavailable"}
    assert all(kind in kinds and catalog("en")[f"error.{code}"] for code, kind in CODES.items())
    e = PlayError("deal.range", max=MAX_DEAL)
    assert e.kind == "invalid" and str(MAX_DEAL) in str(e)
    assert e.to_json() == {"error": str(e), "code": "deal.range", "params": {"max": MAX_DEAL}}


# ---------------------------------------------------------------------------- sessions
def test_starting_another_game_abandons_an_unfinished_one(play: PlayService) -> None:
    a = play.start(None, "number", "3")
    pid = a.player
    assert play.current(pid).id == a.id  # type: ignore[union-attr]
    step(play, pid, a.id)
    b = play.start(pid, "number", "4")
    assert play.game(pid, a.id).abandoned is not None
    assert [g.id for g in play.games(pid, "abandoned")] == [a.id]
    # Dealt and never played: leaving it deletes it.
    c = play.start(pid, "random")
    assert codes(play.game, pid, b.id) == "game.unknown"
    assert 0 <= c.game.deal <= MAX_DEAL
    # Reopening puts it back, no longer abandoned.
    assert play.open(pid, a.id).abandoned is None
    assert play.current(pid).id == a.id  # type: ignore[union-attr]
    assert {g.id for g in play.games(pid, "unfinished")} == {a.id}
    # next / again follow the table.
    assert play.start(pid, "next").game.deal == 4
    again = play.start(pid, "again")
    assert again.game.deal == 4 and again.game.variant == Variant()
    assert play.resume(pid, deal=3) is not None and play.current(pid).id == a.id  # type: ignore[union-attr]
    assert play.resume(pid, deal=999) is None


def test_leaving_foretells_what_starting_another_game_does(play: PlayService) -> None:
    """``leaving`` is the policy the faces ask before "leave this game?"; it says what
    ``start`` then really does."""
    fresh = play.start(None, "number", "3")
    pid = fresh.player
    assert leaving(fresh) == "delete"
    played = step(play, pid, play.start(pid, "number", "4").id).stored
    assert codes(play.game, pid, fresh.id) == "game.unknown"  # as foretold
    assert leaving(played) == "abandon"
    play.start(pid, "number", "5")
    assert play.game(pid, played.id).abandoned is not None  # as foretold
    assert leaving(play.game(pid, played.id)) == "keep"  # already abandoned
    finished = play.open(pid, played.id)
    finished = step(play, pid, finished.id, 100_000).stored
    assert finished.result is not None and leaving(finished) == "keep"


def test_new_games_take_the_players_variant(play: PlayService) -> None:
    pid = play.update_settings(None, {"variant": "r0w"}).player
    assert play.start(pid, "number", "5").game.variant == Variant(redeals=0, waste_playable=True)
    assert play.start(pid, "number", "5", Variant()).game.variant == Variant()


def test_a_variant_chosen_for_one_deal_is_that_deals_alone(play: PlayService) -> None:
    """Issue 26: a player who asked for one r0n deal kept getting r0n deals (the page saved
    the deal dialog's variant as the setting). Given with a new game, a variant is that
    game's; it becomes the setting for new games only when asked (``make_default``)."""
    r0n = Variant.from_token("r0n")
    g = play.start(None, "winnable", variant=r0n)
    pid = g.player
    assert g.game.variant == r0n and play.settings(pid).variant == Variant()
    assert play.start(pid, "random").game.variant == Variant()  # the next new game: the default
    assert play.start(pid, "number", "7", r0n, make_default=True).game.variant == r0n
    assert play.settings(pid).variant == r0n and play.known_settings(pid) == play.settings(pid)
    assert play.start(pid, "random").game.variant == r0n


def test_refused_requests_store_no_player(play: PlayService) -> None:
    for fn, args in [(play.start, (None, "number", "x")), (play.update_settings, (None, {"lang": "de"})),
                     (play.import_record, (None, "garbage")), (play.import_record, (None, "")),
                     (play.start, (None, "next"))]:
        with pytest.raises(PlayError):
            fn(*args)  # type: ignore[operator]
    with play.store.transaction() as tx:
        assert tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 0


# ---------------------------------------------------------------------------- actions
def test_actions_follow_the_engine(play: PlayService) -> None:
    g = play.start(None, "number", "0")
    pid = g.player
    assert codes(undo, play, pid, g.id) == "undo.empty"
    assert codes(redo, play, pid, g.id) == "redo.empty"
    assert codes(move, play, pid, g.id, "turn") == "move.illegal"  # R9: a card fits
    assert codes(move, play, pid, g.id, "R9") == "move.invalid"
    r = move(play, pid, g.id, "R3")
    assert [str(s.move) for s in r.steps] == ["R3"] and r.movements
    r = step(play, pid, g.id, 5)
    assert len(r.steps) == 5
    reference = Game(0)
    reference.push("R3")
    for _ in range(5):
        reference.step()
    assert r.stored.game.moves == reference.moves
    assert codes(play.act, pid, g.id, "fly") == "move.invalid"  # not a command
    assert codes(command, "fly") == "move.invalid"
    assert codes(command, "step", "3") == "move.invalid"
    assert command("step", 3) == Steps(3) and command("move", "R1") == MakeMove(Move.parse("R1"))
    assert codes(step, play, pid, g.id, 0) == "move.invalid"
    assert codes(move, play, "someone-else", g.id, "turn") == "game.unknown"


def test_advance_turns_until_a_card_fits(play: PlayService) -> None:
    g = play.start(None, "number", "1")
    r = advance(play, g.player, g.id)
    moves = [str(s.move) for s in r.steps]
    assert moves and set(moves) == {"turn"}
    pos = r.stored.game.position
    went_to_pile = r.movements[-1].target.startswith("P")
    assert went_to_pile or any(m.kind != "turn" for m in pos.legal_moves())
    # Every move but the last was a turn whose card went to the waste.
    assert all(s.movements[-1].target == "waste" for s in r.steps[:-1])


def test_restart_keeps_a_result_and_opens_a_new_attempt(play: PlayService) -> None:
    g = play.start(None, "number", str(LOST_DEAL))
    pid = g.player
    end = step(play, pid, g.id, 100_000)
    assert end.stored.result == "lost" and end.stored.finished
    assert codes(step, play, pid, g.id) == "game.over"
    first = play.game(pid, g.id)  # as stored
    assert (first.result, first.result_score) == ("lost", end.stored.game.position.score)
    # Undo after the end: the position plays on, the result stays.
    back = undo(play, pid, g.id)
    assert back.stored.game.position.status == "playing" and back.stored.result == "lost"
    # The end reached again: the first one is kept as it was, its time too.
    redo(play, pid, g.id)
    undo(play, pid, g.id)
    again = play.game(pid, g.id)
    assert (again.result, again.result_score, again.result_passes, again.finished) == (
        first.result, first.result_score, first.result_passes, first.finished)
    r = restart(play, pid, g.id)
    assert r.new_game and r.stored.id != g.id and len(r.stored.game) == 0
    assert play.current(pid).id == r.stored.id  # type: ignore[union-attr]
    assert play.game(pid, g.id).result == "lost" and play.game(pid, g.id).abandoned is None
    # An unfinished game is rewound instead, its moves kept for redo.
    step(play, pid, r.stored.id, 3)
    rewind = restart(play, pid, r.stored.id)
    assert not rewind.new_game and rewind.stored.id == r.stored.id
    assert len(rewind.stored.game) == 0 and len(rewind.stored.game.redo_moves) == 3
    [stats] = play.stats(pid)
    assert (stats.played, stats.lost, stats.abandoned) == (1, 1, 0)


def test_statistics_policy(play: PlayService) -> None:
    pid = play.start(None, "number", str(WON_DEAL)).player

    def finish(deal: int) -> str:
        g = play.start(pid, "number", str(deal))
        step(play, pid, g.id, 100_000)
        return g.id

    finish(WON_DEAL)
    finish(WON_DEAL)
    # Imported: someone's game, kept and replayable, never counted.
    game = Game(WON_DEAL)
    game.autoplay()
    imported, _ = play.import_record(pid, record_to_text(game))
    assert imported.origin == "imported" and imported.result == "won"
    assert play.current(pid).id != imported.id  # type: ignore[union-attr]
    [st] = play.stats(pid)
    assert (st.played, st.won, st.current_streak, st.best_streak) == (2, 2, 2, 2)
    # An abandoned game counts in its own column and breaks the streak.
    left = play.start(pid, "number", "3")
    step(play, pid, left.id)
    finish(WON_DEAL)
    [st] = play.stats(pid)
    assert (st.played, st.won, st.abandoned, st.current_streak, st.best_streak) == (3, 3, 1, 1, 2)
    # A loss breaks it too; undoing the loss's end does not erase it.
    lost = finish(LOST_DEAL)
    undo(play, pid, lost)
    [st] = play.stats(pid)
    assert (st.played, st.won, st.lost, st.current_streak) == (4, 3, 1, 0)
    assert st.score_histogram[104] == 3 and st.score_histogram[52] == 1


def test_stale_version_is_refused(play: PlayService, tmp_path: Path) -> None:
    g = play.start(None, "number", "0")
    pid = g.player
    v = move(play, pid, g.id, "R3", version=g.version).stored.version
    # Another writer (another process: its own service) moves on.
    other = PlayService(GameStore(tmp_path / "games.sqlite3"))
    step(other, pid, g.id)
    with pytest.raises(PlayError) as raised:
        step(play, pid, g.id, 1, v)
    e = raised.value
    assert e.code == "game.changed" and e.kind == "conflict" and e.params["version"] == v + 1
    assert len(play.game(pid, g.id).game) == 2
    # Without a version, an action applies to the game as stored now.
    assert len(step(play, pid, g.id).stored.game) == 3


def test_storage_failure_is_a_coded_error(play: PlayService, tmp_path: Path) -> None:
    g = play.start(None, "number", "0")
    with play.store.transaction() as tx:
        tx.db.execute("UPDATE games SET moves='nonsense' WHERE id=?", (g.id,))
    play._cache.clear()  # as another process would see it
    with pytest.raises(PlayError) as raised:
        play.game(g.player, g.id)
    e = raised.value
    assert e.code == "storage" and e.kind == "unavailable"


def test_an_imported_record_keeps_the_redeal_cap(play: PlayService) -> None:
    from firstlast.play import MAX_REDEALS

    game = Game(1, Variant(redeals=MAX_REDEALS))
    game.step()
    over = record_to_text(game).replace(f'[Redeals "{MAX_REDEALS}"]', f'[Redeals "{MAX_REDEALS + 1}"]')
    with pytest.raises(PlayError) as e:
        play.import_record(None, over)
    assert e.value.code == "record.invalid" and str(MAX_REDEALS) in str(e.value)
    ok = Game(1, Variant(redeals=MAX_REDEALS))
    assert play.import_record(None, record_to_text(ok))[0].game.variant.redeals == MAX_REDEALS


def test_no_winnable_deal_names_the_variant_by_its_token() -> None:
    # Regression: the params held Variant.describe()'s English ("3 redeals, …"), which
    # the Russian faces then printed inside a Russian sentence.
    from firstlast.i18n import t

    with pytest.raises(PlayError) as e:
        winnable_deal(Variant(redeals=2, waste_playable=True), lambda: LOST_DEAL, 3)
    assert e.value.params == {"variant": "r2w", "tries": 3}
    assert str(e.value) == "found no deal that comes out under r2w in 3 tries"
    ru = t("ru", "error.winnable.none", **e.value.params)
    assert "r2w" in ru and "redeal" not in ru and "privileged" not in ru


def test_the_settings_a_service_knows_follow_its_reads_and_writes(play: PlayService) -> None:
    pid = play.start(None, "number", "1").player
    assert play.known_settings(pid) is None  # not read yet: a face asks settings()
    assert play.settings(pid) == Settings() and play.known_settings(pid) == Settings()
    play.update_settings(pid, {"lang": "ru"})
    assert play.known_settings(pid) == Settings(lang="ru")
    other = PlayService(play.store)  # another process changes them: seen at the next read
    other.update_settings(pid, {"lang": "en"})
    assert play.known_settings(pid) == Settings(lang="ru")
    assert play.settings(pid).lang == "en" and play.known_settings(pid) == Settings(lang="en")
    play.import_backup(pid, export_backup(other, pid))
    assert play.known_settings(pid) is None  # a backup may bring settings: read again


def test_a_read_of_the_settings_never_undoes_a_later_writes_note(play: PlayService,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A read that got the old settings, then a write of new ones: the note is the write's."""
    pid = play.start(None, "number", "1").player
    read, go = threading.Event(), threading.Event()
    stored = Transaction.settings

    def slow(tx: Transaction, player: str) -> dict[str, object]:
        found = stored(tx, player)
        if threading.current_thread().name == "reader":
            read.set()
            go.wait()
        return found

    monkeypatch.setattr(Transaction, "settings", slow)
    reader = threading.Thread(target=play.settings, args=(pid,), name="reader")
    reader.start()
    read.wait()  # the old settings read, not yet noted
    commits = play.commits
    writer = threading.Thread(target=play.update_settings, args=(pid, {"lang": "ru"}))
    writer.start()
    while play.commits == commits:  # until the write is committed (its note may wait for the read's)
        writer.join(0.01)
    go.set()
    reader.join()
    writer.join()
    assert play.known_settings(pid) == Settings(lang="ru")
