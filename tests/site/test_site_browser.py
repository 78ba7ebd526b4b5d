"""The static site in Chromium (docs/site.md): built from the registries, served by a
plain static file server under a sub-path, played through the page alone — the same
game as the local server's, kept across reloads, offline, one tab at a time, in both
languages and at phone size, with no request to any other origin.

Needs Debian's chromium-headless-shell (the test script installs it); under FIRSTLAST_NO_SKIP=1 a
missing browser fails instead of skipping (tests/web/browser.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser import deal_by_number, require_browser, settle, state, still, wait_js
from hosting import SUB_PATH, serve_folder

from firstlast.engine import Game
from firstlast.engine.cards import SUIT_CHARS
from firstlast.play.deals import WELCOME_DEAL

require_browser("the site's browser tests need Debian's chromium-headless-shell")

#: The table is on the page (from the browser's storage, on a later visit, while Python starts).
TABLE_SHOWN = ("document.body.classList.contains('ready') && !document.getElementById('site-loading')"
               " && window.firstlast && window.firstlast.state")
#: The table is on the page and the site's Python answers (before, a later visit shows
#: its last table from the browser's storage, and moves wait in the page's queue).
READY = ("document.body.classList.contains('ready') && !document.getElementById('site-loading')"
         " && document.body.dataset.site === 'answering'"
         " && window.firstlast && window.firstlast.state && !window.firstlast.busy")


def open_site(ctx: Any, url: str, query: str = "") -> Any:
    """A new tab of ``ctx`` on the site (``query``: a shared link's), once its table is playable."""
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    pg.base_url = url
    pg.goto(url + "?speed=0" + query)
    wait_js(pg, READY, timeout=90_000)
    return pg


def site_context(browser: Any, **opts: Any) -> Any:
    """A fresh profile, desktop-sized unless ``opts`` say otherwise."""
    return browser.new_context(**{"viewport": {"width": 1440, "height": 900}, **opts})


def recorded(ctx: Any) -> list[str]:
    """Every URL ``ctx`` asks for from now on (page and workers). Only where a test reads
    them: each of a first visit's ~130 requests is then an event sent through Playwright's
    driver to pytest (≈ 0.3 CPU-s a visit)."""
    asked: list[str] = []
    ctx.on("request", lambda r: asked.append(r.url))
    return asked


def turn(pg: Any, times: int = 1) -> None:
    for _ in range(times):
        pg.click('.slot[data-place="stock"]', force=True)
        settle(pg)


#: When the page drew its table (``window.tableAt``, the page's clock), noted on every load.
TABLE_AT = """new MutationObserver((_, watch) => {
  if (!document.body || !document.body.classList.contains('ready')) return;
  window.tableAt = performance.now();
  watch.disconnect();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['class'] });"""
#: When the play worker's script was asked for (the page's clock), or null.
WORKER_AT = ("(performance.getEntriesByName(new URL('static/site/worker.js', location.href).href)[0] || {})"
             ".startTime ?? null")


def test_plays_keeps_its_moves_across_reloads_and_offline(browser: Any, site_root: Path) -> None:
    """Played by clicks as the engine plays, kept across reloads (the last table drawn
    from the browser's storage before Python starts, moves made meanwhile queued), and
    offline: with ``set_offline`` (which does not stop a service worker's own requests),
    then for real, with the server gone and Chromium's HTTP cache cleared, so only the
    service worker's copy can serve. Sounds (issue 28.2, made in the page) are kept on
    across the offline reload and play there. No request goes to another origin. (One
    profile for all of it: each reload starts Python again, seconds of CPU.)"""
    from test_looks import AUDIO_SPY

    ctx = site_context(browser)
    asked = recorded(ctx)
    ctx.add_init_script(TABLE_AT)
    ctx.add_init_script(AUDIO_SPY)
    with serve_folder(site_root, SUB_PATH) as site_url:
        pg = _plays_online_then_offline(ctx, site_url)
    # Offline for real: the server is gone and the HTTP cache cleared.
    ctx.new_cdp_session(pg).send("Network.clearBrowserCache")
    pg.reload()
    wait_js(pg, READY, timeout=90_000)
    assert state(pg)["deal"] == "1" and state(pg)["moves"] == 6
    turn(pg)
    assert state(pg)["moves"] == 7
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site_url))
    foreign = [u for u in asked if not u.startswith((origin + "/", "blob:", "data:"))]
    assert asked and not foreign, foreign
    errors = pg.errors
    ctx.close()
    assert not errors


def _plays_online_then_offline(ctx: Any, site_url: str) -> Any:
    pg = open_site(ctx, site_url)
    deal_by_number(pg, 1)  # deal 1 starts with turns to make (README)
    game = Game(1)
    before = state(pg)
    assert before["deal"] == "1" and before["moves"] == 0 and before["stock_count"] == 88
    turn(pg, 3)
    for _ in range(3):
        game.push("turn")
    s = state(pg)
    assert s["moves"] == 3 and s["stock_count"] == 85
    # The waste holds the engine's cards, in its order.
    assert [(c["rank"], c["suit"]) for c in s["waste"]] == [(c.rank, SUIT_CHARS[c.suit]) for c in game.position.waste]
    # A reload: the worker starts again over the stored file; the game is on the table.
    pg.reload()
    wait_js(pg, READY, timeout=90_000)
    s = state(pg)
    assert s["id"] == before["id"] and s["moves"] == 3 and s["stock_count"] == 85
    # The last table was drawn from the browser's storage before Python was started (its
    # start would race the page for the CPU).
    drawn, started = pg.evaluate(f"[window.tableAt, {WORKER_AT}]")
    assert drawn is not None and started is not None and started >= drawn, (drawn, started)
    # The last table shows at once from the browser's storage, while Python waits (here
    # for the game, which a page of the test holds): moves made on it wait in the page's
    # queue, and are made, every one, once Python answers.
    pg.goto("about:blank")  # lets go of the game
    lock = ctx.new_page()
    lock.goto(site_url + "build.json")
    lock.evaluate("""(name) => new Promise((held) => navigator.locks.request(name, () => {
        held(); return new Promise((r) => { window.release = r; }); }))""", "firstlast-game:" + urlsplit(site_url).path)
    pg.goto(site_url + "?speed=0")
    wait_js(pg, TABLE_SHOWN, timeout=90_000)
    assert state(pg)["moves"] == 3 and pg.evaluate("document.body.dataset.site") != "answering"
    pg.click('.slot[data-place="stock"]', force=True)
    pg.click('.slot[data-place="stock"]', force=True)
    assert state(pg)["moves"] == 3
    lock.evaluate("window.release()")
    wait_js(pg, READY + " && window.firstlast.state.moves === 5", timeout=90_000)
    lock.close()
    # Sounds on (the mute key), saved: the site's Python answered the change (it stores
    # before it answers), and the page kept that answer as the next visit's first settings.
    pg.keyboard.press("m")
    snapshot = f"localStorage.getItem('firstlast-snapshot:{urlsplit(site_url).path}') || ''"
    wait_js(pg, f"JSON.parse(JSON.parse({snapshot} || '{{}}')['/api/settings'] || '{{}}').sound === true")
    # Offline: the service worker serves the whole build; play goes on, with its sounds.
    ctx.set_offline(True)
    pg.reload()
    wait_js(pg, READY + " && window.firstlast.settings.sound === true", timeout=90_000)
    assert state(pg)["moves"] == 5
    assert pg.evaluate("window.__audio.sounds") == 0
    turn(pg)  # a click: a gesture, so the page may start its sound
    assert state(pg)["moves"] == 6
    wait_js(pg, "window.__audio.sounds > 0")
    ctx.set_offline(False)
    return pg


def test_a_first_visit_plays_at_once_on_the_table_the_build_made(browser: Any, site_root: Path, tmp_path: Path) -> None:
    """A first visit has no last table: the build's (the welcome deal) shows at once, in
    the browser's language, with a thin bar saying how far the start is; a move made on it
    waits in the page's queue and is made on the very game the worker deals. No file of
    the build is sent twice (Python starts once the service worker serves the page)."""
    sent = tmp_path / "sent.log"
    with serve_folder(site_root, SUB_PATH, log=sent) as site_url:
        _first_visit(browser, site_url)
    asked = [line.split('"')[1].split()[1] for line in sent.read_text().splitlines() if '"GET ' in line]
    twice = sorted({p for p in asked if asked.count(p) > 1 and p.startswith(f"/{SUB_PATH}/pyodide/")})
    assert f"/{SUB_PATH}/pyodide/pyodide.asm.wasm" in asked and not twice, twice


def _first_visit(browser: Any, site_url: str) -> None:
    ctx = site_context(browser, locale="ru-RU")
    lock = ctx.new_page()  # Python waits for the game, which this page of the test holds
    lock.goto(site_url + "build.json")
    lock.evaluate("""(name) => new Promise((held) => navigator.locks.request(name, () => {
        held(); return new Promise((r) => { window.release = r; }); }))""", "firstlast-game:" + urlsplit(site_url).path)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(site_url + "?speed=0")
    wait_js(pg, TABLE_SHOWN + " && !!document.querySelector('#site-progress progress')", timeout=90_000)
    s = state(pg)
    assert (s["id"], s["deal"], s["moves"]) == ("first-visit", str(WELCOME_DEAL), 0)
    assert pg.evaluate("document.body.dataset.site") != "answering"
    assert "правила книги" in pg.text_content("body").lower()  # the table in the browser's language
    assert s["legal_moves"] == ["R4"]  # the welcome deal opens with reserve 4 onto pile 1
    pg.click('.slot[data-place="R4"]', force=True)
    assert state(pg)["moves"] == 0
    lock.evaluate("window.release()")
    wait_js(pg, READY + " && window.firstlast.state.moves === 1", timeout=90_000)
    s = state(pg)
    assert s["id"] != "first-visit" and s["deal"] == str(WELCOME_DEAL) and len(s["piles"][0]) == 1
    assert not pg.query_selector("#site-progress")
    lock.close()
    # Kept: a reload shows the stored game (its last table, then Python's answer).
    pg.reload()
    wait_js(pg, READY, timeout=90_000)
    assert (state(pg)["id"], state(pg)["moves"]) == (s["id"], 1)
    ctx.close()
    assert not errors


@pytest.fixture(scope="module")
def table(browser: Any, site_url: str) -> Iterator[Any]:
    """One tab of one profile, its Python started once, for the tests of this module that
    need only a table to play on (not a first visit, a new player, storage or other tabs):
    each deals its own game by number (``deal_on``). Every Python start costs seconds of
    CPU (two Pyodides: play and the computing worker), so they share it."""
    ctx = site_context(browser)
    pg = open_site(ctx, site_url)
    yield pg
    ctx.close()


def press(pg: Any, button: str) -> None:
    """Click a toolbar ``button``, from the menu where a phone keeps it."""
    if not pg.is_visible(button):
        pg.click("#b-more")
    pg.click(button)


def deal_anew(pg: Any, deal: int) -> None:
    """Deal ``deal`` through the deal dialog, leaving the game on the table if asked, and
    wait until it is on the table, no move made, the menu closed."""
    press(pg, "#b-deal")
    pg.fill("#deal-input", str(deal))
    pg.click("#deal-ok")
    dealt = (f"window.firstlast.state.deal === '{deal}' && window.firstlast.state.moves === 0"
             " && !window.firstlast.busy && !document.querySelector('dialog[open]')")
    wait_js(pg, f"!!document.querySelector('#dlg-confirm[open]') || ({dealt})")
    if pg.evaluate("!!document.querySelector('#dlg-confirm[open]')"):
        pg.click("#confirm-ok")
    wait_js(pg, dealt)
    if pg.get_attribute("#b-more", "aria-expanded") == "true":
        pg.click("#b-more")
    still(pg)


def deal_on(pg: Any, deal: int) -> None:
    """``deal`` dealt on the shared table, whatever the last test left open (a dialog, the
    end panel) closed first."""
    wait_js(pg, READY)
    for _ in range(3):
        if not pg.evaluate("!!document.querySelector('dialog[open]') || !document.getElementById('ending').hidden"):
            break
        pg.keyboard.press("Escape")
        still(pg)
    deal_anew(pg, deal)


def test_the_end_of_a_game_is_the_engines(table: Any) -> None:
    """Finish plays the forced line to the end: the end panel's score is the engine's."""
    pg = table
    deal_on(pg, 7)
    pg.click("#b-finish")
    wait_js(pg, "window.firstlast.state.status !== 'playing' && !window.firstlast.busy", timeout=60_000)
    game = Game(7)
    game.autoplay()
    s = state(pg)
    assert s["status"] == game.position.status and s["score"] == game.position.score
    pg.locator("#ending.show").wait_for()
    assert f"{game.position.score}" in pg.inner_text("#ending")
    # The story is told by the computing worker, beside play.
    pg.locator("#end-story").wait_for(timeout=60_000)


def test_one_tab_holds_the_game_and_none_loses_a_move(browser: Any, site_url: str) -> None:
    ctx = site_context(browser)
    first = open_site(ctx, site_url)
    deal_by_number(first, 1)
    turn(first, 2)
    # A second tab takes the game over; the first says where it went.
    second = open_site(ctx, site_url)
    assert state(second)["moves"] == 2
    wait_js(first, "!!document.getElementById('site-panel')")
    assert first.locator("#site-panel button").is_visible()
    turn(second, 3)
    # The first takes it back ("Play here"): every move of the second is there.
    first.click("#site-panel button")
    wait_js(first, READY, timeout=90_000)
    assert state(first)["moves"] == 5
    turn(first)
    third = open_site(ctx, site_url)
    assert state(third)["moves"] == 6 and state(third)["id"] == state(second)["id"]
    ctx.close()


def plays_in_and_passes_axe(pg: Any, lang: str, size: str) -> None:
    """Deal 1 on the table (it starts with turns to make), in ``lang``: the page says so,
    the stock is named in it, a tap (phone) or a click (desktop) makes a move, and axe
    finds nothing (tests/web's axe runner)."""
    from test_a11y import axe

    assert pg.evaluate("document.documentElement.lang") == lang
    stock = pg.locator('.slot[data-place="stock"]')
    name = stock.get_attribute("aria-label") or ""
    assert ("колод" in name.lower()) if lang == "ru" else ("stock" in name.lower()), name
    # Played by thumb (a tap) or by click, through the page.
    before = state(pg)["moves"]
    if size == "phone":
        stock.tap(force=True)
    else:
        stock.click(force=True)
    settle(pg)
    assert before == 0 and state(pg)["moves"] == 1
    axe(pg, f"{size} {lang}: deal 1 after a move")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_each_language_and_size_plays_and_passes_axe(browser: Any, site_url: str, size: str) -> None:
    """Both languages at each size, in one profile per size (a touch screen is the
    profile's): Russian from the browser's language, then English switched to on the page
    (its language key), deal 1 dealt again for it."""
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    opts = phone if size == "phone" else {"viewport": {"width": 1280, "height": 800}}
    ctx = site_context(browser, locale="ru-RU", bypass_csp=True, **opts)
    pg = open_site(ctx, site_url, "&deal=1")  # deal 1 starts with turns to make
    wait_js(pg, "window.firstlast.state.deal === '1' && !window.firstlast.busy")
    plays_in_and_passes_axe(pg, "ru", size)
    press(pg, "#b-lang")
    wait_js(pg, "document.documentElement.lang === 'en' && !window.firstlast.busy")
    deal_anew(pg, 1)
    plays_in_and_passes_axe(pg, "en", size)
    errors = pg.errors
    ctx.close()
    assert not errors


def test_share_links_and_records_work_from_the_site(browser: Any, site_url: str, table: Any) -> None:
    pg = table
    deal_on(pg, 42)
    # The share link is the site's own address (its sub-path), not a server's.
    url = pg.evaluate("import('./static/js/dialogs.js').then((m) => m.shareUrl())")
    assert url.startswith(site_url + "?deal=42") and url.endswith("&lang=en"), url
    # Served from loopback, the link reaches this computer only: the site says so in its
    # own words (put the folder on a host), not the local server's (build a site).
    pg.click("#b-share")
    pg.locator("#dlg-share[open]").wait_for()
    note = pg.inner_text("#share-local")
    assert "static host" in note and "firstlast site build" not in note
    pg.keyboard.press("Escape")
    # A shared link opens that deal for a visitor (a fresh profile).
    other = site_context(browser)
    visitor = other.new_page()
    visitor.goto(url + "&speed=0")
    wait_js(visitor, READY + " && window.firstlast.state.deal === '42'", timeout=90_000)
    other.close()
    # A record is downloaded through the worker (a Blob), and names the deal.
    turn(pg)
    pg.click("#b-stats")
    wait_js(pg, "!!document.querySelector('#st-history')")
    pg.keyboard.press("Escape")


VERSION = """new Promise((resolve) => {
  navigator.serviceWorker.addEventListener("message", (e) => e.data.type === "version" && resolve(e.data.version));
  navigator.serviceWorker.controller.postMessage({ type: "version" });
})"""


UPDATE_BAR = """(() => {
  const bar = document.getElementById('site-update'), r = bar.getBoundingClientRect();
  const b = bar.querySelector('button').getBoundingClientRect();
  return { left: r.left, right: r.right, bottom: r.bottom, w: b.width, h: b.height,
           px: [bar, ...bar.children].map((el) => parseFloat(getComputedStyle(el).fontSize)) };
})()"""


def update_notice_passes_axe_and_fits_a_phone(pg: Any) -> None:
    """The update notice: nothing for axe (tests/web's runner), and at phone width its
    button is a full target, its words 12 px or more, the whole bar on the screen."""
    from test_a11y import axe

    axe(pg, "update notice")
    size = pg.viewport_size
    pg.set_viewport_size({"width": 390, "height": 844})
    m = pg.evaluate(UPDATE_BAR)
    assert m["w"] >= 44 and m["h"] >= 44 and min(m["px"]) >= 12, m
    assert m["left"] >= 0 and m["right"] <= 390 and m["bottom"] <= 844, m
    pg.set_viewport_size(size)


def test_a_new_build_is_offered_and_then_replaces_the_old_one_whole(
        browser: Any, site_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from firstlast.site import build as site_build

    # The old build: a copy of the session's (a build byte-compiles under node: seconds of CPU).
    shutil.copytree(site_dir, tmp_path / "site")
    first = json.loads((tmp_path / "site" / "build.json").read_text())
    with serve_folder(tmp_path / "site") as url:
        ctx = site_context(browser, bypass_csp=True)  # axe is injected below
        pg = open_site(ctx, url)
        assert pg.evaluate(VERSION) == first["version"]
        deal_by_number(pg, 3)
        turn(pg)
        # A new build on the host (one file differs): the page says an update is ready,
        # and meanwhile goes on with the old build, whole.
        manifest = site_build.manifest
        monkeypatch.setattr(site_build, "manifest", lambda: manifest().replace(b'"lang": "en"', b'"lang": "ru"'))
        # Python byte-compiled as the session's build has it (the same bytes every time:
        # tests/packaging/test_wheel.py; compiling again under node costs ~20 s of CPU).
        compiled = (site_dir / "pyodide" / "python_stdlib.zip").read_bytes(), \
            (site_dir / "py" / "site-packages.zip").read_bytes()
        monkeypatch.setattr(site_build, "precompile", lambda *_: compiled)
        second = site_build.build_site(tmp_path / "site")
        assert second["version"] != first["version"]
        was = {f["path"]: f["sha256"] for f in first["files"]}
        assert {f["path"] for f in second["files"] if was.get(f["path"]) != f["sha256"]} == {"manifest.webmanifest"}
        pg.evaluate("navigator.serviceWorker.getRegistration().then((r) => r && r.update())")
        wait_js(pg, "!!document.getElementById('site-update')", timeout=60_000)
        update_notice_passes_axe_and_fits_a_phone(pg)
        assert pg.evaluate(VERSION) == first["version"]
        turn(pg)
        assert state(pg)["moves"] == 2
        # The player agrees: the page reloads on the new build, the game as it was.
        with pg.expect_navigation():
            pg.click("#site-update button")
        wait_js(pg, READY, timeout=90_000)
        assert pg.evaluate(VERSION) == second["version"]
        assert state(pg)["moves"] == 2
        ctx.close()


def test_tabs_opened_together_each_end_up_playing_or_told(browser: Any, site_url: str) -> None:
    """A browser restoring its session opens several tabs at once: the game goes to one,
    each other tab says where it went, and none is left on the loading screen."""
    ctx = site_context(browser)
    holder = open_site(ctx, site_url)
    a, b = ctx.new_page(), ctx.new_page()
    a.goto(site_url + "?speed=0")
    b.goto(site_url + "?speed=0")
    either = f"({READY}) || !!document.getElementById('site-panel')"
    for pg in (a, b):
        wait_js(pg, either, timeout=90_000)
    wait_js(holder, "!!document.getElementById('site-panel')", timeout=30_000)
    playing = [pg for pg in (a, b) if pg.evaluate(f"!!({READY}) && !document.getElementById('site-panel')")]
    assert len(playing) == 1
    ctx.close()


def test_two_sites_on_one_origin_keep_apart(browser: Any, site_dir: Path, tmp_path: Path) -> None:
    """Two project pages on one host (user.github.io/a/, /b/): their games, their tab
    lock and their offline copies are their own."""
    import shutil

    host = tmp_path / "host"
    for name in ("one", "two"):
        shutil.copytree(site_dir, host / name)
    with serve_folder(host) as root:
        ctx = site_context(browser)
        one = open_site(ctx, root + "one/", "&deal=1")
        turn(one, 2)
        two = open_site(ctx, root + "two/", "&deal=5")
        # The first is not taken over by the second, and keeps its own game.
        assert not one.evaluate("!!document.getElementById('site-panel')")
        assert state(one)["deal"] == "1" and state(one)["moves"] == 2
        assert state(two)["deal"] == "5" and state(two)["id"] != state(one)["id"]
        caches = one.evaluate("caches.keys()")
        assert len(caches) == 2 and any("/one/" in c for c in caches) and any("/two/" in c for c in caches), caches
        ctx.close()
