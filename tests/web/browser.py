"""What the browser tests (test_e2e, test_e2e_story, test_a11y) share: the rule for a
missing browser, how chromium is launched, the helpers that drive the page, and axe. The
fixtures (``server``, ``browser``) are in this folder's conftest.py.

They drive Debian's Chromium headless shell (test tools cannot download browsers here)
through the playwright package.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

#: Chromium's headless shell (Debian's ``chromium-headless-shell``, the build Playwright
#: itself runs headless): the browser without the desktop browser's layers, which a test
#: never shows. test_guide cost 60 CPU-s in it against 87 in ``chromium --headless``.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
#: axe-core, pinned in tools/js/package-lock.json (npm ci --prefix tools/js).
AXE = Path(__file__).resolve().parents[2] / "tools" / "js" / "node_modules" / "axe-core" / "axe.min.js"
#: ``--liftoff-only``: WebAssembly compiled by V8's baseline compiler alone. A fresh
#: profile's first visit to the static site otherwise compiles Pyodide's 9.6 MB module a
#: second time with the optimizing compiler, in the background, for the code cache
#: (≈ 2.4 CPU-s a visit, seen in a trace as wasm.TopTierCompilation), which no test
#: profile lives to use: tests/site's CPU fell from 388 to 338 s with it. The site's Python
#: answers the same (WebAssembly is deterministic); how fast it is for players is
#: bench/site_load.py's, which launches Chromium without it.
#: ``--disable-gpu-compositing``: the renderer composites its frames itself; without a GPU
#: they otherwise go through the GPU process's emulated one, which cost test_e2e ≈ 8 %
#: more CPU (86–91 vs 81 CPU-s, two runs each, in the desktop chromium); the pixels the
#: tests read are the same. In the headless shell it is about even (test_guide 54–56 vs
#: 56–62 CPU-s without it, test_e2e_layout 53–54 vs 57–59 with ``--in-process-gpu`` too).
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--js-flags=--liftoff-only",
               "--disable-gpu-compositing"]


def require_browser(why: str = f"end-to-end tests need Debian's chromium-headless-shell at {CHROMIUM}",
                    *also: Path) -> None:
    """Skip the calling test module (call it at module level) without chromium, a file
    in ``also`` or playwright. The test script sets FIRSTLAST_NO_SKIP (it installs
    chromium): there a missing browser is a failure, never a silent skip."""
    strict = bool(os.environ.get("FIRSTLAST_NO_SKIP"))
    if not CHROMIUM.exists() or not all(p.exists() for p in also):
        if strict:
            raise RuntimeError(why)
        pytest.skip(why, allow_module_level=True)
    if strict:
        # An ImportError here fails the module.
        import playwright.sync_api  # noqa: F401
    else:
        pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium headless shell (the ``browser`` fixtures of tests/web and tests/site)."""
    # Imported here: the other tests run without playwright; the browser modules call
    # require_browser() first, which skips or fails without it.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


def new_page(browser: Any, server: str, *, locale: str = "en-US", bypass_csp: bool = False, **opts: Any) -> Any:
    """A fresh browser profile (so a new player), desktop-sized unless ``opts`` say
    otherwise; ``bypass_csp`` only where axe is injected. ``close`` it."""
    opts = {"viewport": {"width": 1440, "height": 900}, **opts}
    ctx = browser.new_context(locale=locale, bypass_csp=bypass_csp, **opts)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    pg.base_url = server
    return pg


def close(pg: Any) -> None:
    """Close ``pg``'s profile; no JavaScript error may have happened on it."""
    errors = pg.errors
    pg.context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


#: The page-side wait of ``until``: ``expression`` evaluated (and awaited: it may be a
#: promise, a fetch's answer) in the page every 25 ms until it is truthy (its value is the
#: answer) or the time is up (null). One call, not a poll
#: from Python: a poll went from pytest through Playwright's driver and the browser to the
#: page 40 times a second, and that traffic cost more CPU than the page's own checks.
_UNTIL = """async (waitMs__) => {{
  const waitEnd__ = performance.now() + waitMs__;
  for (;;) {{
    const value__ = await ({expression});
    if (value__) return value__;
    if (performance.now() > waitEnd__) return null;
    await new Promise((tick__) => setTimeout(tick__, 25));
  }}
}}"""


def until(pg: Any, expression: str, timeout: float = 30_000) -> Any:
    """The first truthy value of ``expression`` in the page (something ``evaluate`` can
    return), waited for up to ``timeout`` ms; None when the time ran out. Playwright's
    ``wait_for_function`` evaluates its text with ``eval``, which the page's CSP forbids
    (no 'unsafe-eval'); ``evaluate`` goes through the debugger protocol, which the CSP
    does not govern: the condition is waited for in the page (``_UNTIL``). A navigation
    meanwhile (a reload the page makes itself) ends that call; the wait goes on in the
    new document."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout / 1000
    while True:
        left = max(0.0, deadline - time.monotonic()) * 1000
        try:
            value = pg.evaluate(_UNTIL.format(expression=expression), left)
        except Error as e:
            if "context was destroyed" not in str(e) or time.monotonic() > deadline:
                raise
            continue
        if value or time.monotonic() > deadline:
            return value


#: What the page is doing, told with a wait that timed out: a rare failure seen once in CI
#: can then be read, not guessed (the action queue, the game, the open dialogs, the last
#: toast, the focus, the JavaScript errors).
_PAGE_NOW = """(() => {
  const fl = window.firstlast || {};
  const toast = document.getElementById("toast");
  return JSON.stringify({
    busy: fl.busy, queued: fl.queue && fl.queue.length,
    game: fl.state && { id: fl.state.id, deal: fl.state.deal, status: fl.state.status, moves: fl.state.moves },
    dialogs: [...document.querySelectorAll("dialog[open]")].map((d) => d.id),
    toast: toast && toast.classList.contains("show") ? toast.textContent : null,
    focus: document.activeElement && (document.activeElement.id || document.activeElement.tagName),
  });
})()"""


def wait_js(pg: Any, expression: str, timeout: float = 30_000) -> None:
    """Wait until ``expression`` (or the promise it makes) is true in the page
    (``timeout`` in ms); a timeout says what the page was doing."""
    if not until(pg, f"!!(await ({expression}))", timeout):
        try:
            now = pg.evaluate(_PAGE_NOW)
        except Exception as e:  # a page gone or crashed: say that instead
            now = f"(the page could not be read: {e})"
        raise AssertionError(f"timed out waiting for {expression}; the page: {now};"
                             f" its JavaScript errors: {getattr(pg, 'errors', None)}")


def still(pg: Any, selector: str = "body", timeout: float = 30_000) -> None:
    """Wait until nothing in ``selector`` (it and what it holds) is moving: every transition
    and finite animation there has ended (endless ones, a spinner's, do not
    count). Boxes are measured as they come to rest, never mid-way (a panel scaling in from
    90 % has its 44 px buttons 39.6 px high at first)."""
    wait_js(pg, f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
                " return !!el && el.getAnimations({ subtree: true }).every((a) => a.playState !== 'running'"
                " || a.effect.getComputedTiming().endTime === Infinity); })()", timeout)


def axe(pg: Any, what: str, within: str | None = None) -> None:
    """No axe-core violation (WCAG 2.1 A and AA, and axe's best practices) on the page as
    it is now, its transitions done, or ``within`` a selector. axe is injected: the page's
    context must bypass the CSP (the only thing the bypass is for)."""
    if not pg.evaluate("typeof window.axe === 'object'"):
        pg.add_script_tag(path=str(AXE))
    still(pg)
    # ``selectors: false``: a node of a violation is named by its HTML, not by a unique CSS
    # selector, which axe would otherwise work out for every node it checked (≈ 15 % of a
    # run's CPU); the checks are the same.
    result = pg.evaluate("""async (within) => {
        const r = await axe.run(within ?? document, { resultTypes: ["violations"], selectors: false });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 4).map((n) => n.html + " :: " + n.failureSummary) }));
    }""", within)
    assert result == [], f"axe violations ({what}): {result}"


def frames(pg: Any, n: int = 2) -> None:
    """Wait until the page has drawn ``n`` more frames: what a resize or a new layout sets
    off in a ResizeObserver (the table's and the toolbar's fit) is done and drawn."""
    pg.evaluate("(n) => new Promise((done) => { const next = (k) => k ? requestAnimationFrame(() => next(k - 1))"
                " : done(); next(n); })", n)


def state(pg: Any) -> dict[str, Any]:
    """The game state the page shows."""
    return pg.evaluate("window.firstlast.state")  # type: ignore[no-any-return]


def settle(pg: Any) -> None:
    """Wait until no action is queued or animating."""
    wait_js(pg, "window.firstlast && window.firstlast.state && !window.firstlast.busy")


def open_table(pg: Any, speed: int | None = None) -> None:
    """Load the table (at ``speed``: 0 moves cards at once) and wait for its game."""
    pg.goto(pg.base_url + (f"?speed={speed}" if speed is not None else ""))
    settle(pg)


@contextmanager
def fresh_game(pg: Any, clean: str, reset: Callable[[], None]) -> Iterator[Any]:
    """A page shared by a module's tests, for one test: made as ``clean`` (a JavaScript
    condition) says again by ``reset`` where the last test left it otherwise (one that
    failed halfway), then showing a new game with no move made, as on a page just opened
    (made through the API, shown by the page's own loader). After the test: no
    JavaScript error happened, and the page is left as ``clean`` says."""
    if not pg.evaluate(clean):
        pg.errors.clear()
        reset()
    r = pg.request.post(f"{pg.base_url}api/games", data={"how": "random"})
    assert r.ok, r.text()
    gid = r.json()["id"]
    pg.evaluate(f"import('/static/js/controller.js').then((m) => m.loadCurrent('{gid}'))")
    wait_js(pg, f"window.firstlast.state.id === '{gid}' && !window.firstlast.busy")
    yield pg
    errors, pg.errors[:] = list(pg.errors), []
    assert not errors, f"JavaScript errors on the page: {errors}"
    try:
        wait_js(pg, clean, 10_000)
    except AssertionError:
        raise AssertionError("the test left the shared page changed") from None


def deal_by_number(pg: Any, deal: int) -> None:
    """Deal ``deal`` through the deal dialog, and wait until it is on the table."""
    pg.click("#b-deal")
    pg.fill("#deal-input", str(deal))
    pg.click("#deal-ok")
    wait_js(pg, f"window.firstlast.state && window.firstlast.state.deal === '{deal}' && !window.firstlast.busy"
                " && !document.querySelector('dialog[open]')")
