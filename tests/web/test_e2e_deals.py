"""Deals people can say, in the browser (issue 19): New and the deal dialog's Random draw
deals of at most nine digits; a 20-digit deal still opens by its link; a deal that comes
out is dealt under the rarest variant (r0n) at once, and the chance meter says in a line
what its figure is (the chance of a deal that looks like this one; this one comes out),
in both languages, learnt from the server's state (``dealt``): after a reload too, and
never for a random deal. Needs Debian's chromium and playwright (tests/web/browser.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser import close, new_page, require_browser, settle, state, wait_js

require_browser()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

AXE = Path(__file__).resolve().parents[2] / "tools" / "js" / "node_modules" / "axe-core" / "axe.min.js"
LONG_DEAL = "11760845860229611713"
WHY = {"en": "It is the chance of a deal that looks like this one; this one comes out.",
       "ru": "Это шанс раскладки, которая выглядит так же; эта раскладка выйдет."}


def start_from_dialog(pg: Any, button: str, redeals: str = "3", privileged: bool = True) -> dict[str, Any]:
    before = state(pg)["id"]
    pg.click("#b-deal")
    pg.locator("#dlg-deal[open]").wait_for()
    pg.select_option("#v-redeals", redeals)
    if pg.is_checked("#v-priv") != privileged:
        pg.click("#v-priv")
    pg.click(button)
    confirm = pg.locator("#dlg-confirm[open]")
    if confirm.count():
        pg.click("#confirm-ok")
    wait_js(pg, f"window.firstlast.state.id !== '{before}' && !window.firstlast.busy"
                " && !document.querySelector('dialog[open]')")
    return state(pg)


def why_shown(pg: Any) -> bool:
    return pg.evaluate("!document.getElementById('s-chance-why').hidden")  # type: ignore[no-any-return]


def test_random_deals_are_short_and_long_links_still_open(browser: Any, server: str) -> None:
    pg = new_page(browser, server)
    pg.goto(pg.base_url + f"?deal={LONG_DEAL}&variant=r3")
    wait_js(pg, f"window.firstlast.state && window.firstlast.state.deal === '{LONG_DEAL}' && !window.firstlast.busy")
    assert state(pg)["dealt"] == "number"
    for _ in range(3):
        s = start_from_dialog(pg, "#deal-random")
        assert s["dealt"] == "random" and 1 <= int(s["deal"]) <= 999_999_999 and len(s["deal"]) <= 9
    before = state(pg)["id"]
    pg.click("#b-new")  # the New button: a random deal too
    if pg.locator("#dlg-confirm[open]").count():
        pg.click("#confirm-ok")
    wait_js(pg, f"window.firstlast.state.id !== '{before}' && !window.firstlast.busy")
    assert len(state(pg)["deal"]) <= 9
    close(pg)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_deal_that_comes_out_explains_the_meter(browser: Any, server: str, lang: str) -> None:
    pg = new_page(browser, server, locale="ru-RU" if lang == "ru" else "en-US", bypass_csp=True)
    pg.goto(pg.base_url)
    settle(pg)
    assert pg.evaluate("document.documentElement.lang") == lang
    s = start_from_dialog(pg, "#deal-winnable", redeals="0", privileged=False)  # r0n: 4 deals in a million
    assert s["variant"]["token"] == "r0n" and s["dealt"] == "winnable" and len(s["deal"]) <= 9
    wait_js(pg, "!document.getElementById('s-chance').hidden && !document.getElementById('s-chance-why').hidden")
    assert pg.locator("#s-chance-why").inner_text() == WHY[lang]
    # Readable: axe-core finds nothing on the status bar with the line shown (contrast).
    pg.add_script_tag(path=str(AXE))
    found = pg.evaluate("""async () => (await axe.run('#statusbar', { resultTypes: ['violations'] }))
        .violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '))""")
    assert found == [], found
    # From the server's state, not from how the page started it: a reload still says it.
    pg.reload()
    settle(pg)
    assert state(pg)["id"] == s["id"]
    wait_js(pg, "!document.getElementById('s-chance').hidden && !document.getElementById('s-chance-why').hidden")
    # The other language's words on the switch.
    other = "en" if lang == "ru" else "ru"
    pg.click("#b-lang")
    wait_js(pg, f"document.documentElement.lang === '{other}' && !window.firstlast.busy")
    assert pg.locator("#s-chance-why").inner_text() == WHY[other]
    # A random deal has no such line.
    start_from_dialog(pg, "#deal-random")
    wait_js(pg, "!document.getElementById('s-chance').hidden && !document.getElementById('s-chance').matches('.stale')")
    assert not why_shown(pg)
    close(pg)
