"""The site's chance meter in Chromium (docs/site.md, "The chance meter"): as fast as the
local server's, because the computing worker runs the fast forced line (the committed
``forced_line.wasm`` through the browser's WebAssembly), beside play.

* At the start of deal 1 the meter narrows to an interval no wider than 3 points and
  shows the truth (25.2 % by 2 million samples; the goal says 25.0 % ± 0.6): the same
  20,000 samples as the local server's round 0, and the figure stays there as the rounds
  pool. (How soon: ``bench/site_load.py``; no test reads the clock.)
* A move made while estimates run is answered while they run, not after them.
* The computing worker's kernel is the engine's forced line, under every variant.

Needs Debian's chromium-headless-shell (tests/web/browser.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import require_browser, wait_js
from sitecalls import IN_A_COMPUTING_WORKER, as_rows, call, engine_cases, outcome

from firstlast.engine import Position
from firstlast.odds import fastline, live

require_browser("the site's browser tests need Debian's chromium-headless-shell")

#: The table has appeared: the loading screen is gone and the game is on it.
TABLE = ("document.body.classList.contains('ready') && !document.getElementById('site-loading')"
         " && !!window.firstlast && !!window.firstlast.state")
#: The meter's pooled figure and interval (chance.js writes them on the meter).
METER = """(() => {
  const box = document.getElementById('s-chance');
  if (!box || box.hidden || box.classList.contains('stale') || !box.dataset.high) return null;
  return { low: +box.dataset.low, high: +box.dataset.high, p: +box.dataset.probability,
           samples: +box.dataset.samples, text: box.querySelector('.value').textContent };
})()"""
#: A step alone, then a step made while estimates run in the computing worker: ``busy``
#: rounds of ``samples`` samples asked for at once, the step 60 ms later. Answers the
#: steps' times (ms), and whether the estimates were still running when each step was
#: answered.
STEPS = """async ([busy, samples, times]) => {
  const { api } = await import('./static/js/api.js');
  const id = window.firstlast.state.id;
  let version = (await api.game(id)).version;
  const step = async () => {
    const t = performance.now();
    version = (await api.step(id, version)).state.version;
    return performance.now() - t;
  };
  const out = { alone: [], during: [], overlapped: [] };
  let round = 0;
  for (let i = 0; i < times; i++) {
    out.alone.push(await step());
    let done = false;
    const rounds = [];
    for (let r = 0; r < busy; r++) rounds.push(api.chance(id, 1 + (round++ % 19), samples));
    const all = Promise.all(rounds).then(() => { done = true; });
    await new Promise((r) => setTimeout(r, 60));
    out.during.push(await step());
    out.overlapped.push(!done);
    await all;
  }
  return out;
}"""


def fresh_page(browser: Any, url: str, throttle: float = 1) -> Any:
    """A fresh profile's tab on ``url`` (``throttle``: Chromium's CPU throttling rate,
    4 for Lighthouse's phone); its page errors in ``.errors``."""
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    pg = ctx.new_page()
    if throttle > 1:
        ctx.new_cdp_session(pg).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    pg.goto(url)
    return pg


@pytest.fixture(scope="module")
def deal_1(browser: Any, site_url: str) -> Iterator[Any]:
    """A fresh profile's tab at the start of deal 1, shared by this module's tests in
    their order: the meter's first figures at deal 1 (the first test, on the position as
    dealt), steps while estimates run (each on a position no estimate has seen: the steps
    move the game on), and a computing worker of the test's own. Every page load starts
    two Pyodides (play and the computing worker), seconds of CPU each."""
    pg = fresh_page(browser, site_url + "?speed=0&deal=1")
    wait_js(pg, TABLE + " && window.firstlast.state.deal === '1'", timeout=90_000)
    yield pg
    pg.context.close()


def test_the_meter_narrows_to_3_points_and_tells_the_truth_at_deal_1(deal_1: Any) -> None:
    pg = deal_1
    # How soon it narrows is bench/site_load.py's to measure; here, that it does, to the truth.
    wait_js(pg, f"(() => {{ const m = {METER}; return m && m.high - m.low <= 0.03; }})()", timeout=90_000)
    meter = pg.evaluate(METER)
    s = pg.evaluate("window.firstlast.state")
    assert s["deal"] == "1" and s["moves"] == 0
    # The truth is 25.2 % (2 million samples); the figure shown agrees.
    assert abs(meter["p"] - 0.25) <= 0.006 and meter["low"] <= 0.252 <= meter["high"], meter
    # The fast line ran (the engine reaches a few hundred samples in the budget): round 0
    # is the local server's, sample for sample.
    pos = Position.deal(1)
    if meter["samples"] == 20000:
        native = live.chance_to_come_out(pos, 20000, live.refine_seed(pos, 0))
        assert meter["p"] == native.probability, (meter, native)
    else:
        assert meter["samples"] > 20000, meter
    # Idle, the rounds pool (new samples every round): the next figure shown agrees with
    # the truth too, not only the first narrow one.
    wait_js(pg, f"(() => {{ const m = {METER}; return m && m.samples > {meter['samples']}; }})()", timeout=90_000)
    later = pg.evaluate(METER)
    assert abs(later["p"] - 0.25) <= 0.006 and later["high"] - later["low"] <= 0.03, later
    assert not pg.errors


def test_a_move_never_waits_behind_an_estimate(deal_1: Any) -> None:
    pg = deal_1
    wait_js(pg, "!window.firstlast.busy", timeout=90_000)
    wait_js(pg, "!!document.getElementById('s-chance').dataset.samples", timeout=30_000)
    # 16 rounds of 20,000 samples (the most the API allows): about a second of the
    # computing worker's time here.
    out = pg.evaluate(STEPS, [16, 20_000, 5])
    # Steps were answered while the estimates still ran: play is not queued behind them
    # (how much slower a step is meanwhile is bench/site_load.py's to measure).
    assert sum(out["overlapped"]) >= 3, out
    assert not pg.errors


def test_the_computing_workers_kernel_is_the_engines_forced_line(deal_1: Any) -> None:
    pg = deal_1
    cases = engine_cases(deals_per_variant=15, samples=200)  # 300 deals, 400 samples
    answers = pg.evaluate(IN_A_COMPUTING_WORKER, [call(fastline.backend_name), *(c for _, c, _ in cases)])
    assert outcome(answers[0][1]) == "pyodide"  # the browser's WebAssembly, not the engine
    for (what, _, want), (_, got) in zip(cases, answers[1:], strict=True):
        value = outcome(got)
        assert (value if what.startswith("deal 1") else as_rows(value)) == want, what
    assert not pg.errors
