"""The static site passes the same accessibility and phone checks as the local server's
page (issue 19, "The table at one link"), on the built site in Chromium:

- axe-core finds no violation on the table at 1280 × 800, 390 × 844 and 844 × 390, in
  both languages, nor on the site's own parts while they show: the first visit's table
  (the build's) with its progress bar while Python starts, and the "open in another tab"
  notice with its "Play here" button;
- on a phone every target shown is at least 44 × 44 CSS px and every text at least
  12 px, on the table and on those parts.

The checks are the web page's own (tests/web/test_a11y.py's axe runner, the measure of
tests/web/test_e2e_layout.py), imported, not copied. One built site, one browser, one
profile per language and size.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser import frames, require_browser, still, wait_js
from test_a11y import AXE, axe
from test_e2e_layout import SIDEWAYS, UPRIGHT, measure
from test_site_browser import READY, open_site, site_context

require_browser("the site's accessibility tests need chromium-headless-shell and axe-core", AXE)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

DESKTOP = {"width": 1280, "height": 800}
#: A first visit's table, shown before the site's Python answers (site.js's progress bar).
STARTING = ("!!document.querySelector('#site-progress progress') && !!(window.firstlast && window.firstlast.state)"
            " && document.body.dataset.site !== 'answering'")
PANEL = "!!document.getElementById('site-panel')"


def first_visit(pg: Any, url: str, where: str, *, phone: bool) -> None:
    """The first visit of a fresh profile, checked while Python starts (the offline copy
    is saved, then Python starts — seconds, on any machine): the table the build made,
    playable, with the thin bar along its top saying how far the start is."""
    pg.goto(url + "?speed=0&deal=6", wait_until="commit")
    wait_js(pg, STARTING, timeout=60_000)
    pg.add_script_tag(path=str(AXE))
    axe(pg, f"{where}: the first table, Python starting")
    if phone:
        measure(pg, f"{where}: the first table, Python starting")
    # Still starting after the checks: they saw the bar over the built table.
    assert pg.evaluate(STARTING), f"{where}: Python answered before the first table was checked"
    wait_js(pg, READY, timeout=90_000)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_desktop_table_and_first_visit_pass_axe(browser: Any, site_url: str, lang: str) -> None:
    ctx = site_context(browser, locale="ru-RU" if lang == "ru" else "en-US", bypass_csp=True,
                          viewport=DESKTOP)
    pg = ctx.new_page()
    first_visit(pg, site_url, f"desktop {lang}", phone=False)
    assert pg.evaluate("document.documentElement.lang") == lang
    axe(pg, f"desktop {lang}: table")
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_phone_table_first_visit_and_other_tab_notice_pass_axe_and_fit_a_thumb(
        browser: Any, site_url: str, lang: str) -> None:
    ctx = site_context(browser, locale="ru-RU" if lang == "ru" else "en-US", bypass_csp=True,
                          viewport=UPRIGHT, device_scale_factor=2, has_touch=True, is_mobile=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    first_visit(pg, site_url, f"upright {lang}", phone=True)
    assert pg.evaluate("document.documentElement.lang") == lang
    for name, size in (("upright", UPRIGHT), ("sideways", SIDEWAYS)):
        pg.set_viewport_size(size)
        frames(pg)  # the table's fit after the resize (its ResizeObserver), drawn
        still(pg)
        axe(pg, f"{name} {lang}: table")
        measure(pg, f"{name} {lang}: table")
    # A second tab takes the game: the first says so, with its "Play here" button.
    second = open_site(ctx, site_url)
    wait_js(pg, PANEL, timeout=30_000)
    for name, size in (("sideways", SIDEWAYS), ("upright", UPRIGHT)):
        pg.set_viewport_size(size)
        frames(pg)
        still(pg)
        axe(pg, f"{name} {lang}: other-tab notice")
        measure(pg, f"{name} {lang}: other-tab notice")
    assert pg.locator("#site-panel button").is_visible()
    assert pg.evaluate("document.activeElement && document.activeElement.closest('#site-panel') !== null")
    # "Play here" works from the notice checked, by thumb (once: the language changes no
    # behaviour, and its reload starts Python again, seconds of CPU; test_site_browser
    # checks that no move is lost by it).
    if lang == "en":
        with pg.expect_navigation():  # it reloads the page, which then takes the game back
            pg.locator("#site-panel button").tap()
        wait_js(pg, READY + " && !document.getElementById('site-panel')", timeout=90_000)
        wait_js(second, PANEL, timeout=30_000)
    ctx.close()
    assert not errors and not second.errors, (errors, second.errors)
