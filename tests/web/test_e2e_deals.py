"""Deals people can say, in the browser (issue 19): New and the deal dialog's Random draw
deals of at most nine digits; a 20-digit deal still opens by its link; a deal that comes
out is dealt under the rarest variant (r0n) at once, and the chance meter says "This deal
comes out" in place of a figure (issue 26), in both languages, learnt from the server's
state (``comes_out``): after a reload too, and never for a random deal. No text the meter
can show moves the table, and each fact of the status is shown once. Needs Debian's
chromium and playwright (tests/web/browser.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser import axe, close, frames, new_page, require_browser, settle, state, wait_js

require_browser()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

LONG_DEAL = "11760845860229611713"
COMES_OUT = {"en": "This deal comes out", "ru": "Эта раскладка выходит"}


def open_deal_dialog(pg: Any) -> None:
    if not pg.is_visible("#b-deal"):
        pg.click("#b-more")  # a phone keeps it in the menu
    pg.click("#b-deal")
    pg.locator("#dlg-deal[open]").wait_for()


def deal_anew(pg: Any, button: str) -> dict[str, Any]:
    """Click ``button`` (a dialog's deal button, or New), confirm leaving the game if
    asked, and wait until the new game is on the table."""
    before = state(pg)["id"]
    pg.click(button)
    if pg.locator("#dlg-confirm[open]").count():
        pg.click("#confirm-ok")
    wait_js(pg, f"window.firstlast.state.id !== '{before}' && !window.firstlast.busy"
                " && !document.querySelector('dialog[open]')")
    return state(pg)


def start_from_dialog(pg: Any, button: str, redeals: str = "3", privileged: bool = True) -> dict[str, Any]:
    open_deal_dialog(pg)
    pg.select_option("#v-redeals", redeals)
    if pg.is_checked("#v-priv") != privileged:
        pg.click("#v-priv")
    return deal_anew(pg, button)


def test_random_deals_are_short_and_long_links_still_open(browser: Any, server: str) -> None:
    pg = new_page(browser, server)
    # ?speed=0: the cards are dealt at once (motion is not what is tested here).
    pg.goto(pg.base_url + f"?deal={LONG_DEAL}&variant=r3&speed=0")
    wait_js(pg, f"window.firstlast.state && window.firstlast.state.deal === '{LONG_DEAL}' && !window.firstlast.busy")
    assert state(pg)["dealt"] == "number"
    for _ in range(3):
        s = start_from_dialog(pg, "#deal-random")
        assert s["dealt"] == "random" and 1 <= int(s["deal"]) <= 999_999_999 and len(s["deal"]) <= 9
    assert len(deal_anew(pg, "#b-new")["deal"]) <= 9  # the New button: a random deal too
    close(pg)


#: Every text the meter can show: the short figures at their widest, and its placeholder.
METER_TEXTS = ("…", "98–100\u00a0%", "<\u00a01\u00a0%", "27,4\u00a0%", "20–25\u00a0%", "100\u00a0%",
               *COMES_OUT.values())
#: Where the table is, and whether each fact is shown once: the need chip is for screen
#: readers only (the centre panel shows the need), no pill repeats it, and the passes are
#: said by the status bar alone.
TABLE_AT = """() => { const r = document.getElementById('board').getBoundingClientRect();
  return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]; }"""
ONCE = """() => {
  const need = document.getElementById('s-need').getBoundingClientRect();
  const pills = [...document.querySelectorAll('#board .pill')].map((p) => p.textContent);
  const pass = document.getElementById('s-pass').textContent.split(' · ')[0];
  const shown = [...document.querySelectorAll('body *')].filter((el) => el.children.length === 0
    && el.checkVisibility() && el.getBoundingClientRect().width > 1 && el.textContent.includes(pass));
  return { needHidden: need.width <= 1 && need.height <= 1, pillsNeed: pills.filter((p) => p.includes('→')).length,
           passShown: shown.length };
}"""


def table_stays(pg: Any) -> None:
    """No text the meter can show moves the table (the status bar keeps its rows), at
    this size and sideways/upright."""
    size = pg.viewport_size
    for viewport in ({"width": 390, "height": 844}, {"width": 844, "height": 390}, size):
        pg.set_viewport_size(viewport)
        wait_js(pg, "!window.firstlast.busy")
        frames(pg)  # the table is fitted on the resize's next frame, and drawn
        at = pg.evaluate(TABLE_AT)
        for text in METER_TEXTS:
            pg.evaluate("""(t) => { const box = document.getElementById('s-chance');
              box.classList.toggle('known', !t.includes('%') && t !== '…');
              box.querySelector('.value').textContent = t; }""", text)
            assert pg.evaluate(TABLE_AT) == at, (viewport, text)
        # The score's and the moves' digits grow during a game: their chip keeps room.
        pg.evaluate("""() => { const el = document.getElementById('s-score');
          el.textContent = el.textContent.replace(/\\d+/g, (d) => d.length < 3 ? '103' : d); }""")
        assert pg.evaluate(TABLE_AT) == at, (viewport, pg.inner_text("#s-score"))


@pytest.mark.parametrize(("lang", "size"), [("en", (1366, 768)), ("ru", (390, 844))], ids=["en-desktop", "ru-phone"])
def test_a_deal_that_comes_out_says_so_and_the_status_never_moves_the_table(browser: Any, server: str, lang: str,
                                                                             size: tuple[int, int]) -> None:
    """Issue 26: on a deal dealt because it comes out the meter said "0.00–0.02 %" and a
    line under it reflowed the status bar to three rows; "needs 5" was shown three times."""
    pg = new_page(browser, server, locale="ru-RU" if lang == "ru" else "en-US", bypass_csp=True,
                  viewport={"width": size[0], "height": size[1]})
    pg.goto(pg.base_url + "?speed=0")  # the cards dealt at once: the table is not moved by a deal's motion either
    settle(pg)
    assert pg.evaluate("document.documentElement.lang") == lang
    # A random deal: the meter's figure arrives without moving the table.
    wait_js(pg, "!document.getElementById('s-chance').hidden")
    at = pg.evaluate(TABLE_AT)
    wait_js(pg, "!!document.getElementById('s-chance').dataset.samples", timeout=60_000)
    assert pg.evaluate(TABLE_AT) == at
    value = pg.inner_text("#s-chance .value")
    assert "(" not in value and len(value) <= 8, value  # the short figure; the help has the interval
    assert value in (pg.get_attribute("#s-chance", "title") or "")
    assert pg.evaluate(ONCE) == {"needHidden": True, "pillsNeed": 0, "passShown": 1}
    s = start_from_dialog(pg, "#deal-winnable", redeals="0", privileged=False)  # r0n: 4 deals in a million
    assert s["variant"]["token"] == "r0n" and s["dealt"] == "winnable" and s["comes_out"] and len(s["deal"]) <= 9
    # The rules were this deal's alone: the player's variant for new games is unchanged.
    assert pg.evaluate("fetch('/api/settings').then((r) => r.json())")["variant"] == "r3"
    wait_js(pg, f"document.querySelector('#s-chance .value').textContent === {COMES_OUT[lang]!r}")
    assert "%" not in pg.inner_text("#s-chance")
    assert not pg.evaluate("'samples' in document.getElementById('s-chance').dataset")  # nothing estimated
    assert COMES_OUT[lang] in (pg.get_attribute("#s-chance", "aria-label") or "")
    table_stays(pg)
    # Readable: axe-core finds nothing on the status bar (contrast, names).
    axe(pg, "the status bar", "#statusbar")
    # From the server's state, not from how the page started it: a reload still says it,
    # and the other language's words on the switch.
    pg.reload()
    settle(pg)
    assert state(pg)["id"] == s["id"]
    other = "en" if lang == "ru" else "ru"
    if not pg.is_visible("#b-lang"):
        pg.click("#b-more")  # a phone keeps it in the menu
    pg.click("#b-lang")
    wait_js(pg, f"document.documentElement.lang === '{other}' && !window.firstlast.busy")
    wait_js(pg, f"document.querySelector('#s-chance .value').textContent === {COMES_OUT[other]!r}")
    # A random deal shows its figure again; with "make these rules my default" ticked, its
    # rules become the player's for new games (the server's doing: make_default).
    open_deal_dialog(pg)
    assert not pg.is_checked("#v-default")
    pg.check("#v-default")
    pg.locator("#dlg-deal[open]").wait_for()
    pg.select_option("#v-redeals", "5")
    assert deal_anew(pg, "#deal-random")["variant"]["token"] == "r5"
    assert pg.evaluate("fetch('/api/settings').then((r) => r.json())")["variant"] == "r5"
    wait_js(pg, "!!document.getElementById('s-chance').dataset.samples", timeout=60_000)
    assert "%" in pg.inner_text("#s-chance .value")
    close(pg)


def test_next_deal_after_a_one_deal_variant_takes_the_players_rules(browser: Any, server: str) -> None:
    """Issue 26: a variant chosen for one deal is that deal's alone, the end panel's
    "Next deal" too (the next number under the player's rules, as in the terminal);
    "Again" replays the deal under its own rules."""
    pg = new_page(browser, server)
    pg.goto(pg.base_url + "?speed=0")
    settle(pg)
    open_deal_dialog(pg)
    pg.fill("#deal-input", "42")
    pg.select_option("#v-redeals", "0")
    first = deal_anew(pg, "#deal-ok")
    assert (first["deal"], first["variant"]["token"]) == ("42", "r0")

    def finish_then(button: str) -> dict[str, Any]:
        if not pg.is_visible("#b-finish"):
            pg.click("#b-more")
        pg.click("#b-finish")
        pg.locator("#ending.show").wait_for()
        gone = state(pg)["id"]
        pg.click(button)
        wait_js(pg, f"window.firstlast.state.id !== '{gone}' && !window.firstlast.busy")
        return state(pg)

    again = finish_then("#end-again")
    assert (again["deal"], again["variant"]["token"]) == ("42", "r0")
    following = finish_then("#end-next")
    assert (following["deal"], following["variant"]["token"]) == ("43", "r3")
    assert pg.evaluate("fetch('/api/settings').then((r) => r.json())")["variant"] == "r3"
    close(pg)
