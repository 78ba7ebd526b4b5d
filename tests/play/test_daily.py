"""The deal of the day remembered (calendar, daily streaks), the personal records and
"on a wish", at the play layer (docs/play.md). "Today" is injected: no test reads the
clock."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from playing import export_backup, restart, step, undo

from firstlast.engine import Variant, play_out
from firstlast.play import PlayError, PlayService
from firstlast.play.daily import DayFacts, calendar, current_run, facts, longest_run, streaks
from firstlast.play.deals import daily_date, daily_deal
from firstlast.play.stats import RecordNews, compute, news
from firstlast.store import DailyRow, GameStore, ResultRow

D = dt.date


class Clock:
    """Today, as the test says."""

    def __init__(self, day: dt.date) -> None:
        self.day = day

    def __call__(self) -> dt.date:
        return self.day


def lost_then_won(start: dt.date) -> tuple[dt.date, dt.date]:
    """The first two days from ``start`` whose deals of the day, under the canonical
    rules, are lost and then won (play is forced: the deal decides)."""
    d = start
    while not (not play_out(daily_deal(d), Variant()).won and play_out(daily_deal(d + dt.timedelta(days=1)),
                                                                       Variant()).won):
        d += dt.timedelta(days=1)
    return d, d + dt.timedelta(days=1)


@pytest.fixture
def clock() -> Clock:
    return Clock(D(2026, 11, 30))


@pytest.fixture
def play(tmp_path: Path, clock: Clock) -> PlayService:
    return PlayService(GameStore(tmp_path / "games.sqlite3"), today=clock)


def _finish(play: PlayService, player: str, gid: str) -> str:
    r = step(play, player, gid, 2000)
    assert r.stored.result is not None
    return r.stored.result


# ---------------------------------------------------------------------------- pure
def test_daily_date_is_the_inverse_of_the_deal_of_the_day() -> None:
    assert daily_date(20261130) == D(2026, 11, 30) and daily_deal(D(2026, 11, 30)) == 20261130
    assert daily_date(20260229) is None and daily_date(20261301) is None and daily_date(42) is None


def test_runs_with_gaps_today_unplayed_and_month_boundaries() -> None:
    days = frozenset({D(2026, 10, 30), D(2026, 10, 31), D(2026, 11, 1), D(2026, 11, 3)})
    # Across the month boundary: 30 and 31 October and 1 November are three in a row.
    assert longest_run(days) == 3
    # Today (4 Nov) not played yet: the run from yesterday still stands.
    assert current_run(days, D(2026, 11, 4)) == 1
    # A gap breaks it: 2 November was missed.
    assert current_run(days, D(2026, 11, 5)) == 0
    assert current_run(days, D(2026, 11, 1)) == 3 and current_run(frozenset(), D(2026, 11, 1)) == 0
    # New Year and a leap day.
    assert longest_run({D(2027, 12, 31), D(2028, 1, 1), D(2028, 2, 28), D(2028, 2, 29), D(2028, 3, 1)}) == 3


def test_streaks_count_days_played_on_their_own_date() -> None:
    rows = [
        DailyRow("a", 20261128, "2026-11-28", "played", "won", True),
        DailyRow("b", 20261129, "2026-11-29", "played", "lost", True),
        DailyRow("c", 20261127, "2026-11-30", "played", "won", True),  # caught up later
        DailyRow("d", 20261126, "2026-11-26", "imported", "won", True),  # someone's: never counted
        DailyRow("e", 20261125, "2026-11-25", "played", None, False),  # dealt, never moved
    ]
    f = facts(rows)
    assert f.played == {D(2026, 11, 27), D(2026, 11, 28), D(2026, 11, 29)}
    assert f.won == {D(2026, 11, 27), D(2026, 11, 28)}
    s = streaks(f, D(2026, 11, 30))
    assert (s.played, s.won, s.best_played, s.best_won) == (2, 0, 2, 1)
    assert (s.days_played, s.days_won) == (3, 2)
    assert streaks(DayFacts(frozenset(), frozenset(), frozenset(), frozenset()), D(2026, 1, 1)).played == 0


def test_records_and_the_news_of_a_game() -> None:
    v = Variant()

    def row(gid: str, result: str, score: int, passes: int) -> ResultRow:
        return ResultRow("played", result, score, passes, False, gid, gid)

    rows = [row("1", "lost", 40, 4), row("2", "won", 104, 4), row("3", "won", 104, 2), row("4", "lost", 70, 4),
            row("5", "lost", 30, 4), ResultRow("imported", "won", 104, 1, False, "6", "6")]
    st = compute(v, rows)
    assert (st.won, st.best_streak, st.fewest_passes, st.best_lost_score) == (2, 2, 2, 70)
    assert news(v, rows, "1") == ()  # the first loss beats nothing
    assert news(v, rows, "2") == (RecordNews("first_win", 1, None),)
    assert news(v, rows, "3") == (RecordNews("passes", 2, 4), RecordNews("streak", 2, 1))
    assert news(v, rows, "4") == (RecordNews("lost_score", 70, 40),)
    assert news(v, rows, "5") == () and news(v, rows, "6") == () and news(v, rows, "none") == ()


def test_the_calendar_of_the_last_month_there_is() -> None:
    # Its days and its next month were counted past 31 December 9999: OverflowError.
    cal = calendar(facts([]), D(9999, 12, 31))
    assert (cal.month, len(cal.days), cal.previous, cal.next) == ("9999-12", 31, "9999-11", None)
    first = calendar(facts([]), D(9999, 12, 31), "1900-01")
    assert (first.previous, first.next, first.days[-1].date) == (None, "1900-02", D(1900, 1, 31))


# ---------------------------------------------------------------------------- service
def test_the_calendar_after_two_daily_deals(play: PlayService, clock: Clock) -> None:
    lost_day, won_day = lost_then_won(D(2026, 11, 1))
    player = play.local_player()
    outcomes = {}
    for day in (lost_day, won_day):
        clock.day = day
        g = play.start(player, "daily")
        assert g.game.deal == daily_deal(day) and g.dealt == "daily" and g.dealt_on == day.isoformat()
        outcomes[day] = _finish(play, player, g.id)
    cal = play.calendar(player, f"{won_day.year}-{won_day.month:02d}")
    by_date = {d.date: d for d in cal.days}
    assert by_date[won_day].today and by_date[won_day].on_day
    assert outcomes == {lost_day: "lost", won_day: "won"}
    assert by_date[won_day].state == "won" and play.calendar(player, f"{lost_day:%Y-%m}").days[
        lost_day.day - 1].state == "played"
    assert cal.streaks.played == 2 and cal.streaks.days_played == 2 and cal.streaks.won == 1
    # The next day, not yet played: the streak still stands; the day after, it is broken.
    clock.day = won_day + dt.timedelta(days=1)
    assert play.calendar(player).streaks.played == 2
    clock.day = won_day + dt.timedelta(days=2)
    assert play.calendar(player).streaks.played == 0


def test_an_earlier_day_is_playable_but_not_a_day_to_come(play: PlayService, clock: Clock) -> None:
    player = play.local_player()
    g = play.start(player, "daily", day=D(2026, 11, 2))
    assert g.game.deal == 20261102 and g.dealt_on == "2026-11-30"
    step(play, player, g.id)
    cal = play.calendar(player, "2026-11")
    day2 = cal.days[1]
    assert day2.state == "played" and not day2.on_day and cal.streaks.played == 0
    assert cal.previous == "2026-10" and cal.next is None and len(cal.days) == 30 and cal.days[-1].today
    for bad, code in ((D(2026, 12, 1), "daily.date"), (D(1899, 12, 31), "daily.before")):
        with pytest.raises(PlayError) as e:
            play.start(player, "daily", day=bad)
        assert e.value.code == code
    for month in ("2026-13", "2026-1", "next", "2027-01"):
        with pytest.raises(PlayError) as e:
            play.calendar(player, month)
        assert e.value.code in ("daily.month", "daily.date")


@pytest.mark.parametrize(("asked", "code", "en", "ru"), [
    ("1899-12", "daily.before", "there is no deal of the day for 1899-12: the calendar begins on 1900-01-01",
     "для 1899-12 нет расклада дня: календарь начинается с 1900-01-01"),
    ("0000-01", "daily.before", "there is no deal of the day for 0000-01: the calendar begins on 1900-01-01",
     "для 0000-01 нет расклада дня: календарь начинается с 1900-01-01"),
    (D(1899, 12, 31), "daily.before", "there is no deal of the day for 1899-12-31: the calendar begins on 1900-01-01",
     "для 1899-12-31 нет расклада дня: календарь начинается с 1900-01-01"),
    ("2026-12", "daily.date", "there is no deal of the day for 2026-12 yet: the calendar runs from 1900-01-01 to"
     " today, 2026-11-30", "для 2026-12 ещё нет расклада дня: календарь идёт с 1900-01-01 по сегодняшний день,"
     " 2026-11-30"),
])
def test_a_day_outside_the_calendar_is_said_plainly(play: PlayService, asked: str | dt.date, code: str, en: str,
                                                    ru: str) -> None:
    """A tester: the month before the first day was "no deal of the day for 1899-12 yet",
    as if it were to come; the past has its own sentence, in both languages."""
    player = play.local_player()
    with pytest.raises(PlayError) as e:
        if isinstance(asked, str):
            play.calendar(player, asked)
        else:
            play.start(player, "daily", day=asked)
    assert (e.value.code, e.value.kind, e.value.text("en"), e.value.text("ru")) == (code, "illegal", en, ru)


def test_records_are_said_by_the_move_that_ends_the_game(play: PlayService) -> None:
    player = play.local_player()
    g = play.start(player, "number", 7)  # deal 7 comes out under r3
    r = step(play, player, g.id, 2000)
    assert r.stored.result == "won" and r.records == (RecordNews("first_win", 1, None),)
    assert play.records(player, g.id) == r.records
    again = restart(play, player, g.id)  # a new attempt: the second win makes a run of two
    r2 = step(play, player, again.stored.id, 2000)
    assert RecordNews("streak", 2, 1) in r2.records
    assert undo(play, player, again.stored.id).records == ()  # only the move that ends it


def test_a_wish_is_kept_privately_and_round_trips(play: PlayService, tmp_path: Path) -> None:
    player = play.local_player()
    assert not play.settings(player).wish
    play.update_settings(player, {"wish": True})
    g = play.start(player, "daily", wish="  a  letter from home ")
    assert g.wish == "a letter from home"
    _finish(play, player, g.id)
    with pytest.raises(PlayError) as e:
        play.start(player, "random", wish="x" * 201)
    assert e.value.code == "wish.long"
    text = export_backup(play, player)
    other = PlayService(GameStore(tmp_path / "other.sqlite3"), today=play.today)
    report = other.import_backup(None, text)
    back = other.game(report.player, g.id)
    assert back.wish == "a letter from home" and back.dealt_on == g.dealt_on and other.settings(report.player).wish
    assert other.calendar(report.player).days[29].state != "none"
    assert other.stats(report.player)[0] == play.stats(player)[0]  # records too
    assert other.records(report.player, g.id) == play.records(player, g.id)
    assert "letter" not in play.record(player, g.id)[1]  # a record shared is the moves alone


def test_an_older_database_gets_the_dates_its_games_were_dealt(tmp_path: Path) -> None:
    """Schema 4 upgrades in place: every game takes the date it was created (UTC) and no
    wish (tests/data/store-v1.db, written by the schema-1 store, goes through every step)."""
    import shutil

    db = tmp_path / "old.sqlite3"
    shutil.copy(Path(__file__).parent.parent / "data" / "store-v1.db", db)
    store = GameStore(db)
    with store.reading() as tx:
        rows = [r for p in {g.id for g in tx.games(None, limit=1000)} for r in [tx.load(p)]]
    assert rows and all(r.dealt_on == r.created[:10] and r.wish is None for r in rows)
