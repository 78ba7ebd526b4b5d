"""The terminal's deal of the day remembered, its record moment and "on a wish", driven
headless through Textual's pilot; "today" is faked through the play layer
(``FIRSTLAST_TODAY``), never read from the clock by the terminal."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import loops
import pytest
from playing import step
from textual.widgets import Label

from firstlast.engine import Game, Variant, play_out
from firstlast.play import PlayService
from firstlast.play.deals import daily_deal
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp
from firstlast.tui.calendar import CalendarScreen
from firstlast.tui.dialogs import EndDialog, WishDialog


def lost_then_won(start: dt.date) -> tuple[dt.date, dt.date]:
    d = start
    while play_out(daily_deal(d), Variant()).won or not play_out(daily_deal(d + dt.timedelta(days=1)), Variant()).won:
        d += dt.timedelta(days=1)
    return d, d + dt.timedelta(days=1)


def test_the_calendar_and_the_record_moment_in_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lost, won = lost_then_won(dt.date(2026, 11, 1))
    store = GameStore(tmp_path / "games.sqlite3")
    play = PlayService(store, today=lambda: lost)
    player = play.local_player()
    g = play.start(player, "daily")
    assert step(play, player, g.id, 2000).stored.result == "lost"
    # Today's deal, on a wish, one move from coming out.
    play = PlayService(store, today=lambda: won)
    g = play.start(player, "daily", wish="")
    game = Game(g.game.deal, g.game.variant)
    total = 0
    while game.step() is not None:
        total += 1
    step(play, player, g.id, total - 1)
    play.update_settings(player, {"wish": True})
    monkeypatch.setenv("FIRSTLAST_TODAY", won.isoformat())
    app = FirstLastApp(store, resume=True, chance=False)

    async def main() -> None:
        async with app.run_test(size=(100, 36)) as pilot:
            await pilot.pause()
            await pilot.press("s")  # the last move: it comes out
            for _ in range(50):
                if isinstance(app.screen, EndDialog):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, EndDialog)
            said = " ".join(str(label.render()) for label in app.screen.query(Label))
            assert "New record: your first win under these rules." in said
            assert "Your wish will come true." in said
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, CalendarScreen)
            cal = app.screen.cal
            days = {d.date: d for d in cal.days}
            assert days[won].today and days[won].state == "won"
            if lost in days:
                assert days[lost].state == "played"
            assert (cal.streaks.played, cal.streaks.won) == (2, 1)
            await pilot.press("escape")
            await pilot.press("i")  # the statistics: the records
            await pilot.pause()
            text = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
            assert "Records: 1 won" in text and "fewest passes to come out" in text
            await pilot.press("escape")
            await pilot.press("c")
            await pilot.pause()
            await pilot.press("left")  # a day back, then Enter: that day's deal, on a wish
            await pilot.press("enter")
            for _ in range(50):
                if isinstance(app.screen, WishDialog):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, WishDialog)
            await pilot.press("a", "n", "enter")
            for _ in range(50):
                if app.session.game.deal == daily_deal(lost):
                    break
                await pilot.pause(0.05)
            assert app.session.game.deal == daily_deal(lost) and app.session.stored.dealt == "daily"
            assert app.session.stored.wish == "an"

    loops.run(main())
