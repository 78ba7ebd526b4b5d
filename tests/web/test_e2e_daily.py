"""The deal of the day remembered, the record moment and "on a wish", in headless
Chromium: one walk through the calendar (keyboard, ARIA, axe, both languages, 44 px
days on both phone sizes), a day's deal played from it on a wish, the end panel's new
record said in words and to the screen reader, and the calendar and streak after it.
"Today" is faked through the play layer (``FIRSTLAST_TODAY``); the page reads no clock
for it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from browser import AXE, axe, close, frames, new_page, require_browser, settle, state, still, wait_js
from playing import step
from spawn import spawn_server, stop_server

from firstlast.engine import Variant, play_out
from firstlast.i18n import t
from firstlast.play import PlayService
from firstlast.play.deals import daily_deal
from firstlast.store import GameStore

require_browser("the calendar's test needs chromium-headless-shell and axe-core (npm ci --prefix tools/js)", AXE)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def lost_then_won(start: dt.date) -> tuple[dt.date, dt.date]:
    """Two days of one month in a row whose deals of the day are lost, then won."""
    d = start
    while (play_out(daily_deal(d), Variant()).won or not play_out(daily_deal(d + dt.timedelta(days=1)), Variant()).won
           or (d + dt.timedelta(days=1)).month != d.month):
        d += dt.timedelta(days=1)
    return d, d + dt.timedelta(days=1)


def day(pg: Any, date: dt.date, attr: str) -> str | None:
    return pg.get_attribute(f'#cal-grid [data-date="{date.isoformat()}"]', attr)  # type: ignore[no-any-return]


def test_the_calendar_and_the_record_moment(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lost, won = lost_then_won(dt.date(2026, 11, 1))
    db = tmp_path / "games.sqlite3"
    # The day before, its deal of the day was played on its day and lost (the play
    # layer, today faked); on a wish from now on.
    play = PlayService(GameStore(db), today=lambda: lost)
    local = play.local_player()
    g = play.start(local, "daily")
    assert step(play, local, g.id, 2000).stored.result == "lost"
    play.update_settings(local, {"wish": True})
    play.close()
    monkeypatch.setenv("FIRSTLAST_TODAY", won.isoformat())
    proc, url = spawn_server(db)
    pg = new_page(browser, url, bypass_csp=True)
    try:
        pg.goto(f"{url}?player={local}")
        pg.goto(f"{url}?speed=0")
        settle(pg)
        pg.keyboard.press("Escape")  # the finished game's end panel, if shown
        pg.focus("#b-stats")
        pg.keyboard.press("c")
        wait_js(pg, "document.querySelector('#dlg-calendar').open && document.querySelector('#cal-grid button')")
        assert day(pg, won, "aria-current") == "date" and day(pg, won, "data-state") == "none"
        assert day(pg, lost, "data-state") == "played" and "played" in (day(pg, lost, "aria-label") or "")
        assert pg.text_content("#cal-month") == t("en", f"daily.month.{won.month}", year=won.year)
        assert "Days in a row played: 1" in (pg.text_content("#cal-streak") or "")
        # The focus is on today: the arrows move it by a day, Enter plays the day's deal.
        assert pg.evaluate("document.activeElement.dataset.date") == won.isoformat()
        pg.keyboard.press("ArrowLeft")
        assert pg.evaluate("document.activeElement.dataset.date") == lost.isoformat()
        pg.keyboard.press("ArrowRight")
        axe(pg, "the calendar")
        pg.keyboard.press("Enter")
        # On a wish: asked before the deal.
        wait_js(pg, "document.querySelector('#dlg-wish').open")
        pg.fill("#wish-text", "a letter from home")
        pg.click("#dlg-wish button[type=submit]")
        wait_js(pg, f"window.firstlast.state.deal === '{daily_deal(won)}' && !window.firstlast.busy"
                    " && !document.querySelector('dialog[open]')")
        s = state(pg)
        assert s["dealt"] == "daily" and s["wish"] is True and "letter" not in str(s)
        # Finish it: it comes out, the first win under these rules, on a wish.
        pg.evaluate("document.querySelector('#b-finish').click()")
        wait_js(pg, "!document.querySelector('#ending').hidden && document.querySelector('#end-records li')")
        record = t("en", "record.first_win")
        assert record in (pg.text_content("#end-records") or "")
        assert pg.text_content("#end-wish") == t("en", "wish.true")
        said = f"[...document.querySelectorAll('#ending [aria-live]')].some((r) => r.textContent.includes({record!r}))"
        wait_js(pg, said)  # and said to the screen reader, in the panel's own live region
        axe(pg, "the end panel with a record")
        pg.keyboard.press("Escape")
        # After a reload, the end panel shown again still says the record (GET records).
        pg.reload()
        settle(pg)
        pg.evaluate("document.querySelector('#ending').hidden && document.querySelector('.end-banner-open').click()")
        wait_js(pg, "!document.querySelector('#ending').hidden && document.querySelector('#end-records li')")
        assert record in (pg.text_content("#end-records") or "")
        pg.keyboard.press("Escape")
        pg.focus("#b-stats")
        pg.keyboard.press("c")
        wait_js(pg, f"document.querySelector('#cal-grid [data-date=\"{won.isoformat()}\"][data-state=\"won\"]')")
        streak = pg.text_content("#cal-streak") or ""
        assert "Days in a row played: 2 (best 2)" in streak and "won: 1 (best 1)" in streak, streak
        # Phones: every day a target of 44 × 44 px at least, upright and sideways.
        for width, height in ((390, 844), (844, 390)):
            pg.set_viewport_size({"width": width, "height": height})
            frames(pg)  # laid out and drawn at the new size
            still(pg, "#dlg-calendar")
            sizes = pg.evaluate("[...document.querySelectorAll('#cal-grid button')].map((b) => {"
                                " const r = b.getBoundingClientRect(); return [r.width, r.height]; })")
            assert sizes and min(min(w, h) for w, h in sizes) >= 44, (width, sizes)
            assert pg.evaluate("document.querySelector('#dlg-calendar').scrollWidth"
                               " <= document.querySelector('#dlg-calendar').clientWidth + 1")
        pg.set_viewport_size({"width": 1440, "height": 900})
        pg.keyboard.press("Escape")
        # In Russian too.
        pg.click("#b-lang")
        wait_js(pg, "document.documentElement.lang === 'ru' && !window.firstlast.busy")
        pg.focus("#b-stats")
        pg.keyboard.press("c")
        wait_js(pg, "document.querySelector('#dlg-calendar').open && document.querySelector('#cal-grid button')")
        assert pg.text_content("#cal-month") == t("ru", f"daily.month.{won.month}", year=won.year)
        assert "сошёлся" in (day(pg, won, "aria-label") or "")
        axe(pg, "the calendar in Russian")
        # Records in the statistics.
        pg.keyboard.press("Escape")
        pg.click("#b-stats")
        wait_js(pg, "document.querySelector('#dlg-stats').open && document.querySelector('.st-records')")
        assert t("ru", "st_fewest_passes") in (pg.text_content(".st-records") or "")
    finally:
        close(pg)
        stop_server(proc)
