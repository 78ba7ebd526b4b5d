"""Deals people can say on the static site (issue 19): the same package in Pyodide draws
random deals of at most nine digits, deals the rarest variant's deal that comes out
(r0n, about 4 in a million) at once from the shipped list, and explains the meter."""

from __future__ import annotations

from typing import Any

import pytest
from browser import require_browser, state, wait_js

require_browser("the site's browser tests need Debian's chromium-headless-shell")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: The table is on the page and the site's Python answers (before, a later visit shows
#: its last table from the browser's storage, and moves wait in the page's queue).
READY = ("document.body.classList.contains('ready') && !document.getElementById('site-loading')"
         " && document.body.dataset.site === 'answering'"
         " && window.firstlast && window.firstlast.state && !window.firstlast.busy")


def start_from_dialog(pg: Any, button: str, redeals: str, privileged: bool) -> dict[str, Any]:
    before = state(pg)["id"]
    pg.click("#b-deal")
    pg.locator("#dlg-deal[open]").wait_for()
    pg.select_option("#v-redeals", redeals)
    if pg.is_checked("#v-priv") != privileged:
        pg.click("#v-priv")
    pg.click(button)
    wait_js(pg, f"window.firstlast.state.id !== '{before}' && !window.firstlast.busy"
                " && !document.querySelector('dialog[open]')", timeout=60_000)
    return state(pg)


def test_the_site_deals_short_random_deals_and_one_that_comes_out(browser: Any, site_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(site_url + "?speed=0")
    wait_js(pg, READY, timeout=90_000)
    s = start_from_dialog(pg, "#deal-random", "3", True)
    assert s["dealt"] == "random" and len(s["deal"]) <= 9
    s = start_from_dialog(pg, "#deal-winnable", "0", False)
    assert s["variant"]["token"] == "r0n" and s["dealt"] == "winnable" and len(s["deal"]) <= 9
    wait_js(pg, "document.querySelector('#s-chance .value').textContent === 'This deal comes out'", timeout=60_000)
    ctx.close()
    assert not errors, errors
