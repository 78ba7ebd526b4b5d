"""How fast Auto plays at its top animated speed, and how long Finish's cascade takes,
on the page, in Chromium.

    python bench/auto_flow.py [--deal 1] [--runs 3] [--site DIR | --build-site] [--phone]

On the local server's page (``firstlast play``, a fresh database) at the fastest pace
that still animates (the play layer's ``PACES``, the speed setting 3), deals ``--deal``
and measures, by the page's own clock (``performance.now``):

* Auto: moves per second from its 10th move to its 150th (or the game's end): the goal
  is at least 8 (issue 26), the pace's own rate is ``PACES[3].moves_per_s``;
* the most cards in the air at once during it (``window.firstlast.flights``: the flights
  overlap when it is more than 1);
* Finish from the deal: the time from the click until the game is over and the last card
  has landed (the goal: at most 5 s for a whole game), and how many moves it played.

With ``--site DIR`` (a built static site) or ``--build-site`` (``firstlast site build``
into a temporary folder; it fetches Pyodide and wheels once, see bench/site_load.py) the
same is measured on the static site, served on loopback. ``--phone`` measures in a
390×844 touch viewport with 4× CPU throttling (a mid-range phone, roughly).

Measured on the 2-core development machine (load average about 3), deal 1, 3 runs:
Auto 28.9 moves/s (the pace's 32), Finish 4.1 s for its 310 moves. With ``--phone``
(1 run): Auto 24.6 moves/s, Finish 6.7 s — over the 5 s goal under 4× throttling (8.2 s
before a redeal's cards were laid out once per redeal, not once per card: motion.launch);
the per-move layout and the state's redraw are the next things to make cheaper. With
``--build-site`` (3 December, load average about 6, 1 run): the local page 25.8 moves/s
and Finish 4.12 s, the static site 28.8 moves/s and Finish 4.26 s for the same 310 moves.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from firstlast.play.settings import FINISH_MS, PACES

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import spawn_server, stop_server

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
READY = ("window.firstlast && window.firstlast.state && !window.firstlast.busy"
         " && !document.getElementById('site-loading')")
TOP = max(i for i, p in enumerate(PACES) if p.flight_ms > 0)


def wait(pg: Any, expression: str, timeout_s: float = 180) -> None:
    for _ in range(int(timeout_s * 50)):
        if pg.evaluate(f"!!({expression})"):
            return
        pg.wait_for_timeout(20)
    raise SystemExit(f"timed out waiting for {expression}")


def deal(pg: Any, number: int) -> None:
    """Deal ``number`` as the deal dialog does (controller.startGame), on a phone too
    (where the dialog's button is in the menu)."""
    pg.evaluate(f"import('./static/js/controller.js').then((m) => m.startGame('{number}', undefined, 'number'))")
    wait(pg, f"window.firstlast.state.deal === '{number}' && window.firstlast.state.moves === 0"
             " && !window.firstlast.busy && !document.querySelector('dialog[open]')")


def auto_rate(pg: Any, number: int, first: int = 10, last: int = 150) -> tuple[float, int, int]:
    """(moves/s from move ``first`` to ``last`` or the end, moves timed, most in the air)."""
    deal(pg, number)
    pg.evaluate("window.firstlast.flights.mostAloft = 0")
    pg.click("#b-auto")
    # The page times itself: a poll from here would add its own latency.
    out = pg.evaluate("""([first, last]) => new Promise((resolve) => {
      const app = window.firstlast; let t0 = null, m0 = 0;
      const tick = () => {
        const s = app.state, now = performance.now();
        if (t0 === null && s.moves >= first) { t0 = now; m0 = s.moves; }
        if (t0 !== null && (s.moves >= last || s.status !== 'playing')) {
          resolve([(s.moves - m0) / ((now - t0) / 1000), s.moves - m0]); return;
        }
        requestAnimationFrame(tick);
      };
      tick();
    })""", [first, last])
    aloft = int(pg.evaluate("window.firstlast.flights.mostAloft"))
    if pg.evaluate("window.firstlast.auto"):
        pg.click("#b-auto")
    wait(pg, "!window.firstlast.busy")
    return float(out[0]), int(out[1]), aloft


def finish_time(pg: Any, number: int) -> tuple[float, int]:
    """(seconds from the click on Finish to the end with every card landed, moves)."""
    deal(pg, number)
    out = pg.evaluate("""() => new Promise((resolve) => {
      const app = window.firstlast; const t0 = performance.now();
      document.getElementById('b-finish').click();
      const tick = () => {
        if (app.state.status !== 'playing' && !app.busy) {
          resolve([(performance.now() - t0) / 1000, app.state.moves]); return;
        }
        requestAnimationFrame(tick);
      };
      tick();
    })""")
    return float(out[0]), int(out[1])


def measure(browser: Any, url: str, args: argparse.Namespace) -> dict[str, list[float]]:
    opts: dict[str, Any] = ({"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                             "device_scale_factor": 2} if args.phone else {"viewport": {"width": 1440, "height": 900}})
    ctx = browser.new_context(**opts)
    pg = ctx.new_page()
    if args.phone:
        ctx.new_cdp_session(pg).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    pg.goto(f"{url}?speed={TOP}")
    wait(pg, READY)
    rows: dict[str, list[float]] = {"rate": [], "aloft": [], "finish": [], "finish moves": []}
    for _ in range(args.runs):
        rate, _moves, aloft = auto_rate(pg, args.deal)
        rows["rate"].append(rate)
        rows["aloft"].append(aloft)
        secs, moves = finish_time(pg, args.deal)
        rows["finish"].append(secs)
        rows["finish moves"].append(moves)
    ctx.close()
    return rows


def report(name: str, rows: dict[str, list[float]], runs: int) -> None:
    med = {k: statistics.median(v) for k, v in rows.items()}
    pace = PACES[TOP]
    print(f"{name}, median of {runs} runs (pace {pace.name!r}: {pace.moves_per_s} moves/s,"
          f" flights {pace.flight_ms} ms)")
    print(f"  Auto at the top animated speed  {med['rate']:6.1f} moves/s   goal ≥ 8"
          f"   (runs: {', '.join(f'{r:.1f}' for r in rows['rate'])})")
    print(f"  most cards in the air at once   {med['aloft']:6.0f}")
    print(f"  Finish of a whole game          {med['finish']:6.2f} s for {med['finish moves']:.0f} moves"
          f"   goal ≤ 5 s (the cascade's budget {FINISH_MS / 1000:.1f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--deal", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--site", type=Path, help="a built static site to measure too")
    ap.add_argument("--build-site", action="store_true", help="build the static site and measure it too")
    ap.add_argument("--phone", action="store_true", help="a 390×844 touch viewport, CPU throttled 4×")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if args.build_site and site is None:
            from firstlast.site.build import build_site

            site = Path(tmp) / "site"
            build_site(site, say=lambda line: None)
        proc, local = spawn_server(Path(tmp) / "local.sqlite3")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
                report("local page" + (" (phone, 4× CPU throttling)" if args.phone else ""),
                       measure(browser, local, args), args.runs)
                if site is not None:
                    sys.path.insert(0, str(Path(__file__).parent))
                    from site_load import serve  # the same plain static server

                    server, url = serve(site)
                    try:
                        report("static site", measure(browser, url, args), args.runs)
                    finally:
                        server.shutdown()
                browser.close()
        finally:
            stop_server(proc)


if __name__ == "__main__":
    main()
