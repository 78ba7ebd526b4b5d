"""Every size, every dialog (issue 26 item 6), measured in headless Chromium:

- upright on a phone the rows carry their names (first row, reserve: the piles say P1…),
  clear of every card; sideways the deal dialog's Start is in view without scrolling;
  Statistics' Close is in view in Russian; dialogs are opaque; axe finds nothing; every
  dialog of the header fits with its buttons in view (sideways in Russian, 1366 × 768);
- Share copies with one press (Copy: the Clipboard API, said aloud);
- focus rings show for the keyboard, not after mouse clicks;
- dates follow the browser's locale (the page's language, the browser's region), in the
  statistics' history and the calendar's days, whose weeks start on the locale's day;
- reloading a finished game is quiet: no end panel over the player's click; the banner
  reopens it.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser import axe, close, new_page, require_browser, settle, state, wait_js

require_browser()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


#: A box of each visible row name and of each card and slot on the table.
ROW_NAMES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const names = [...document.querySelectorAll('#board .row-name')].filter((el) => el.checkVisibility())
    .map((el) => ({ text: el.textContent, box: box(el), size: parseFloat(getComputedStyle(el).fontSize) }));
  const solid = [...document.querySelectorAll('#board .slot, #cards .card')].filter((el) => el.checkVisibility())
    .map(box);
  return { names, solid };
}"""
#: Whether the open dialog is opaque, and where its last button is on the screen.
DIALOG = """(sel) => {
  const d = document.querySelector(sel);
  const bg = getComputedStyle(d).backgroundColor;
  const alpha = bg.startsWith('rgba') ? parseFloat(bg.split(',')[3]) : 1;
  const buttons = [...d.querySelectorAll('.buttons button')];
  const r = buttons[buttons.length - 1].getBoundingClientRect();
  return { alpha, last: [r.top, r.bottom], height: innerHeight, scrolled: d.scrollTop };
}"""
#: The element showing a focus ring now, if any.
RING = """() => {
  const el = document.querySelector(':focus-visible');
  if (!el) return null;
  const s = getComputedStyle(el);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 ? (el.id || el.className) : null;
}"""


def open_from_menu(pg: Any, button: str) -> None:
    if not pg.is_visible(button):
        pg.click("#b-more")
    pg.click(button)


def test_phone_rows_named_and_dialogs_fit(browser: Any, server: str) -> None:
    pg = new_page(browser, server, locale="ru-RU", bypass_csp=True, viewport={"width": 390, "height": 844},
                  has_touch=True, is_mobile=True)
    pg.goto(pg.base_url + "?speed=0")
    settle(pg)
    # Upright: each half names its first row and its reserve, at 12 px or more, on no card.
    rows = pg.evaluate(ROW_NAMES)
    assert [n["text"] for n in rows["names"]] == ["Верхний ряд", "Нижний ряд", "Верхний ряд", "Нижний ряд"]
    for name in rows["names"]:
        left, top, right, bottom = name["box"]
        assert name["size"] >= 12 and left >= 0 and right <= 390
        for s_left, s_top, s_right, s_bottom in rows["solid"]:
            assert right <= s_left or left >= s_right or bottom <= s_top or top >= s_bottom, (name, rows["solid"])
    # Statistics, in Russian: opaque, Close in view.
    open_from_menu(pg, "#b-stats")
    pg.locator("#dlg-stats[open]").wait_for()
    d = pg.evaluate(DIALOG, "#dlg-stats")
    assert d["alpha"] == 1 and d["last"][0] >= 0 and d["last"][1] <= d["height"], d
    axe(pg, "statistics, upright")
    pg.keyboard.press("Escape")
    # Sideways, the deal dialog's Start is in view without scrolling.
    pg.set_viewport_size({"width": 844, "height": 390})
    wait_js(pg, "!window.firstlast.busy")
    assert not pg.evaluate(ROW_NAMES)["names"]  # the flat layout needs no names
    open_from_menu(pg, "#b-deal")
    pg.locator("#dlg-deal[open]").wait_for()
    d = pg.evaluate(DIALOG, "#dlg-deal")
    assert d["alpha"] == 1 and d["scrolled"] == 0 and d["last"][0] >= 0 and d["last"][1] <= d["height"], d
    start = pg.locator("#deal-ok").bounding_box()
    assert start["height"] >= 44 and start["width"] >= 44
    axe(pg, "deal dialog, sideways")
    close(pg)


def test_share_copies_focus_rings_dates_and_a_quiet_reload(browser: Any, server: str) -> None:
    pg = new_page(browser, server, locale="en-US", bypass_csp=True, permissions=["clipboard-read", "clipboard-write"])
    pg.goto(pg.base_url + "?speed=0")
    settle(pg)
    # Focus rings: none after mouse clicks (a dialog opened and closed by the mouse gives
    # the focus back to its opener without one); the keyboard brings them back.
    pg.click("#b-review")
    pg.locator("#dlg-review[open]").wait_for()
    pg.click("#dlg-review .buttons .primary")
    wait_js(pg, "document.activeElement.id === 'b-review'")
    assert pg.evaluate(RING) is None
    pg.click("#b-step")
    wait_js(pg, "!window.firstlast.busy")
    assert pg.evaluate(RING) is None
    pg.keyboard.press("Tab")
    assert pg.evaluate(RING) is not None
    # Share: one press on Copy puts the link on the clipboard, and says so.
    pg.click("#b-share")
    pg.locator("#dlg-share[open]").wait_for()
    link = pg.input_value("#share-link")
    pg.click("#share-copy")
    wait_js(pg, "document.getElementById('toast').textContent.includes('copied')")
    assert pg.evaluate("navigator.clipboard.readText()") == link
    wait_js(pg, "document.getElementById('announce').textContent.includes('copied')"
                " || [...document.querySelectorAll('[aria-live]')].some((r) => r.textContent.includes('copied'))")
    assert pg.evaluate(DIALOG, "#dlg-share")["alpha"] == 1
    pg.keyboard.press("Escape")
    # The game over: the panel opens once; a reload shows the banner alone, which reopens it.
    open_from_menu(pg, "#b-finish")
    pg.locator("#ending.show").wait_for()
    pg.click("#end-close")
    game = state(pg)["id"]
    # From the reload on, the page's timers run on a clock the test can move (time flows
    # as usual meanwhile).
    pg.clock.install()
    pg.reload()
    settle(pg)
    assert state(pg)["id"] == game and state(pg)["status"] != "playing"
    pg.locator("#end-banner button").wait_for()
    # The panel used to open over the page 0.35–2.5 s after the load: every timer the page
    # set for the next 5 s runs now, and it stays closed.
    pg.clock.run_for(5_000)
    assert pg.locator("#ending").is_hidden()
    pg.click("#end-banner button")
    pg.locator("#ending.show").wait_for()
    pg.click("#end-close")
    # Dates: the page's language with the browser's region (en-US: month first).
    open_from_menu(pg, "#b-stats")
    pg.locator("#dlg-stats[open]").wait_for()
    today = pg.evaluate("new Date().toLocaleDateString('en-US', { dateStyle: 'short' })")
    wait_js(pg, f"document.getElementById('st-history').textContent.includes({today!r})")
    pg.keyboard.press("Escape")
    # The calendar's days too: "December 2, 2026" in en-US, never en-GB's "2 December 2026".
    pg.keyboard.press("c")
    pg.locator("#dlg-calendar[open] .cal-day[aria-current='date']").wait_for()
    day = pg.locator("#dlg-calendar .cal-day[aria-current='date']")
    y, m, d = map(int, day.get_attribute("data-date").split("-"))
    us = pg.evaluate("([y, m, d]) => new Date(Date.UTC(y, m - 1, d))"
                     ".toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })", [y, m, d])
    assert day.get_attribute("aria-label").startswith(us), (day.get_attribute("aria-label"), us)
    # Its weeks start on Sunday there (Intl.Locale's week info): the heading, each day's
    # column, Home to the week's first day.
    assert pg.locator("#cal-grid th").first.inner_text() == "Su"
    columns = pg.evaluate("""() => [...document.querySelectorAll('#cal-grid .cal-day')].map((b) =>
      [new Date(b.dataset.date + 'T00:00:00Z').getUTCDay(), b.closest('td').cellIndex])""")
    assert all(weekday == column for weekday, column in columns), columns
    day.focus()
    pg.keyboard.press("Home")
    wait_js(pg, "document.activeElement.dataset.date"
                " && new Date(document.activeElement.dataset.date + 'T00:00:00Z').getUTCDay() === 0")
    close(pg)


#: Every dialog a player opens from the header or its menu.
DIALOG_BUTTONS = ("#b-stats", "#b-deal", "#b-settings", "#b-share", "#b-rules")


@pytest.mark.parametrize(("locale", "size"), [("ru-RU", (844, 390)), ("en-US", (1366, 768))],
                         ids=["ru-sideways", "en-1366"])
def test_every_dialog_is_opaque_and_fits_with_its_buttons_in_view(browser: Any, server: str, locale: str,
                                                                   size: tuple[int, int]) -> None:
    """Statistics, the deal dialog, Settings, Share and the help: each opaque, wholly on
    the screen, its last button in view without scrolling (the tightest phone, sideways
    in Russian, and a small laptop)."""
    w, h = size
    phone = h < 500
    pg = new_page(browser, server, locale=locale, viewport={"width": w, "height": h},
                  **({"has_touch": True, "is_mobile": True} if phone else {}))
    pg.goto(pg.base_url + "?speed=0")
    settle(pg)
    for button in DIALOG_BUTTONS:
        open_from_menu(pg, button)
        wait_js(pg, "!!document.querySelector('dialog[open]')")
        sel = "#" + pg.evaluate("document.querySelector('dialog[open]').id")
        d = pg.evaluate(DIALOG, sel)
        box = pg.locator(sel).bounding_box()
        assert d["alpha"] == 1, (button, d)
        assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= w + 0.5 \
            and box["y"] + box["height"] <= h + 0.5, (button, box)
        assert d["last"][0] >= 0 and d["last"][1] <= d["height"], (button, d)
        pg.keyboard.press("Escape")
        wait_js(pg, "!document.querySelector('dialog[open]')")
    close(pg)
