"""The live-chance sampler on the static site (Chromium) and natively, side by side.

    python bench/site_kernel.py [--site DIR] [--samples 400000] [--runs 5]

Builds the site (``firstlast site build``; or takes ``--site DIR``), serves it on
loopback (bench/site_load.py's server) and measures in headless Chromium:

* samples/s of ``odds.live.chance_to_come_out`` at deal 1's start, in a computing worker
  of the site (a worker started by the page from the site's ``compute.js``, given the
  same pickled calls as the play worker gives it): the fast forced line (the committed
  ``forced_line.wasm`` through the browser's WebAssembly, one core) and the engine
  (pure Python, what the meter had without it). A call's own cost (posting, pickling)
  is measured with one sample and taken off;
* the same calls natively in this process (``odds.fastline``'s route here: ``native``,
  the C kernel built for this machine, or ``wasmtime``), one core, and the ratio;
* the page's meter at deal 1 (a fresh profile): seconds from the table appearing to an
  interval no wider than 3 points, and the figure (goal: ≤ 5 s, 25.0 % ± 0.6);
* a step's round trip alone and while estimates run in the computing worker (goal: no
  more than 50 ms longer).
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from site_load import LAUNCH_ARGS, serve, wait

from firstlast.engine import Position
from firstlast.odds import fastline, live
from firstlast.site.build import build_site

TABLE = ("document.body.classList.contains('ready') && !document.getElementById('site-loading')"
         " && !!window.firstlast && !!window.firstlast.state")
METER = """(() => {
  const box = document.getElementById('s-chance');
  if (!box || box.hidden || box.classList.contains('stale') || !box.dataset.high) return null;
  return { low: +box.dataset.low, high: +box.dataset.high, p: +box.dataset.probability,
           samples: +box.dataset.samples };
})()"""
#: A computing worker of the site's own, given pickled calls one at a time: [ms, outcome].
COMPUTE = """async (calls) => {
  const w = new Worker(new URL("static/site/compute.js", document.baseURI), { type: "module" });
  const out = [];
  for (const [i, call] of calls.entries()) {
    const t = performance.now();
    const r = await new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.postMessage({ id: i, call }); });
    if (r.error) throw new Error(r.error);
    out.push([performance.now() - t, r.outcome]);
  }
  w.terminate();
  return out;
}"""
#: Steps alone and while ``busy`` rounds of ``samples`` samples run (as tests/site/test_site_meter.py).
STEPS = """async ([busy, samples, times]) => {
  const { api } = await import('./static/js/api.js');
  const id = window.firstlast.state.id;
  let version = (await api.game(id)).version;
  const step = async () => {
    const t = performance.now();
    version = (await api.step(id, version)).state.version;
    return performance.now() - t;
  };
  const out = { alone: [], during: [] };
  for (let i = 0; i < times; i++) {
    out.alone.push(await step());
    const rounds = [];
    for (let r = 0; r < busy; r++) rounds.push(api.chance(id, 1 + ((i * busy + r) % 19), samples));
    await new Promise((r) => setTimeout(r, 60));
    out.during.push(await step());
    await Promise.all(rounds);
  }
  return out;
}"""


def pickled(fn: Callable[..., Any], *args: Any) -> str:
    return pickle.dumps((fn, args)).decode("latin-1")


def rate_calls(pos: Position, samples: int, runs: int, sampler: live.Sampler) -> list[str]:
    """One sample (the call's own cost), then ``samples``, ``runs`` times (new seeds)."""
    out = []
    for r in range(runs):
        seed = live.refine_seed(pos, r)
        out += [pickled(live.chance_to_come_out, pos, 1, seed, sampler),
                pickled(live.chance_to_come_out, pos, samples, seed, sampler)]
    return out


def rates(timed: list[float], samples: int) -> float:
    """Median samples/s of (one sample, ``samples``) pairs of ms."""
    pairs = zip(timed[0::2], timed[1::2], strict=True)
    return statistics.median((samples - 1) / max(1e-6, (big - one) / 1000) for one, big in pairs)


def native_times(pos: Position, samples: int, runs: int, sampler: live.Sampler) -> list[float]:
    out = []
    for r in range(runs):
        seed = live.refine_seed(pos, r)
        for n in (1, samples):
            t = time.perf_counter()
            live.chance_to_come_out(pos, n, seed, sampler)
            out.append(1000 * (time.perf_counter() - t))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", type=Path, help="a built site (default: build one now)")
    ap.add_argument("--samples", type=int, default=400_000, help="samples per fast-line run")
    ap.add_argument("--engine-samples", type=int, default=300, help="samples per engine run")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    pos = Position.deal(1)
    live.chance_to_come_out(pos, 1, 0)  # the native kernel loaded (built) first
    route = fastline.backend_name() or "engine"
    fast_native = rates(native_times(pos, args.samples, args.runs, "kernel"), args.samples)
    engine_native = rates(native_times(pos, args.engine_samples, args.runs, "engine"), args.engine_samples)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        if args.site is None:
            build_site(site, say=lambda line: None)
        server, url = serve(site)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
                ctx = browser.new_context()
                pg = ctx.new_page()
                pg.goto(url + "?speed=0&deal=1")
                wait(pg, TABLE)
                appeared = time.perf_counter()
                meter = None
                while time.perf_counter() - appeared < 60:
                    meter = pg.evaluate(METER)
                    if meter and meter["high"] - meter["low"] <= 0.03:
                        break
                    pg.wait_for_timeout(10)
                narrowed = time.perf_counter() - appeared
                steps = pg.evaluate(STEPS, [16, 20_000, args.runs])  # the most a request may ask (issue 25.2)
                calls = [pickled(fastline.backend_name), pickled(live.chance_to_come_out, pos, 1, 0),
                         *rate_calls(pos, args.samples, args.runs, "kernel"),
                         *rate_calls(pos, args.engine_samples, args.runs, "engine")]
                answers = pg.evaluate(COMPUTE, calls)
                browser.close()
        finally:
            server.shutdown()
    site_route = pickle.loads(answers[0][1].encode("latin-1"))[1]
    timed = [ms for ms, _ in answers[2:]]
    fast_site = rates(timed[:2 * args.runs], args.samples)
    engine_site = rates(timed[2 * args.runs:], args.engine_samples)

    print(f"the live-chance sampler at deal 1's start, samples/s (median of {args.runs} runs; one core each)")
    print(f"  {'':22} {'site (Chromium)':>18} {'native':>14} {'site/native':>12}")
    print(f"  {'fast forced line':22} {fast_site:>18,.0f} {fast_native:>14,.0f} {fast_site / fast_native:>12.2f}"
          f"   routes: {site_route} / {route}")
    print(f"  {'engine (pure Python)':22} {engine_site:>18,.0f} {engine_native:>14,.0f}"
          f" {engine_site / engine_native:>12.2f}")
    if meter is None:
        print("  the meter at deal 1: no figure")
    else:
        width = 100 * (meter["high"] - meter["low"])
        print(f"  the meter at deal 1: {width:.1f} points wide {narrowed:.2f} s after the table appeared"
              f" (goal ≤ 3 points in ≤ 5 s): {100 * meter['p']:.1f} % "
              f"({100 * meter['low']:.1f}–{100 * meter['high']:.1f} %, {meter['samples']:,} samples; goal 25.0 ± 0.6)")
    print(f"  a step: {statistics.median(steps['alone']):.0f} ms alone, {statistics.median(steps['during']):.0f} ms"
          f" while 8 estimates of 100,000 samples run (goal: ≤ 50 ms more)")


if __name__ == "__main__":
    main()
