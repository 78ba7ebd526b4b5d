"""How the static site loads, in Chromium, beside the local server's page.

    python bench/site_load.py [--site DIR] [--runs 3] [--throttle 4]

Builds the site (``firstlast site build``; or takes ``--site DIR``), serves it with a
plain static file server on loopback that counts every file it sends, and measures in a
fresh headless Chromium profile, without CPU throttling and then with Chromium's
(``Emulation.setCPUThrottlingRate``, 4× as Lighthouse's mobile profile; ``--throttle 1``
skips it):

* cold: the first visit, to a playable table (the build's first table, docs/site.md
  "Loading"), and to the first answer of the site's Python;
* warm: a reload in the same profile (everything from the service worker's cache): the
  table, shown from the browser's storage while Python starts, and the first answer of
  the site's Python (until then moves wait in the page's queue);
* offline: a reload with the network off;
* the first visit's bytes: raw, and as gzip and brotli would send them (brotli when the
  ``brotli`` module is installed), and any file sent twice;
* a move's round trip while a chance estimate runs (the computing worker is beside play).

The local server's page (``firstlast play``) is loaded the same way, side by side, as the
baseline: the ratio says what running Python in the browser costs. Goals (docs/site.md):
warm ≤ 1.5× and cold ≤ 2.5× the local server's page; under 4× throttling cold ≤ 10 s
and warm ≤ 4 s; first visit ≤ 15 MB raw and ≤ 8 MB compressed, no file sent twice, a
move never waiting behind an estimate by more than 50 ms.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from firstlast.site.build import build_site

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import spawn_server, stop_server

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
READY = ("document.body.classList.contains('ready') && !document.getElementById('site-loading')"
         " && window.firstlast && window.firstlast.state && !window.firstlast.busy")


class Counting(http.server.SimpleHTTPRequestHandler):
    """A static file server that counts what it sends (path → times, bytes)."""

    sent: ClassVar[Counter[str]] = Counter()
    times: ClassVar[Counter[str]] = Counter()
    lock: ClassVar[threading.Lock] = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        outputfile.write(data)
        with self.lock:
            path = self.path.split("?")[0]
            Counting.sent[path] += len(data)
            Counting.times[path] += 1


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Counting, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def wait(pg: Any, expression: str, timeout: float = 120) -> float:
    start = time.perf_counter()
    while not pg.evaluate(f"!!({expression})"):
        if time.perf_counter() - start > timeout:
            raise SystemExit(f"timed out waiting for {expression}")
        pg.wait_for_timeout(10)
    return time.perf_counter() - start


def load(pg: Any, url: str, ready: str) -> float:
    start = time.perf_counter()
    pg.goto(url)
    wait(pg, ready)
    return time.perf_counter() - start


#: The site's Python answers (site.js marks it): from then on moves are answered.
ANSWERED = "document.body.dataset.site === 'answering'"


def load_answered(pg: Any, url: str, ready: str) -> tuple[float, float]:
    """(s to a playable table, s to the first answer of the site's Python)."""
    start = time.perf_counter()
    pg.goto(url)
    wait(pg, ready)
    shown = time.perf_counter() - start
    wait(pg, ANSWERED)
    return shown, time.perf_counter() - start


def throttle(ctx: Any, pg: Any, rate: float) -> None:
    """Chromium's CPU throttling on ``pg`` (kept across its reloads)."""
    if rate > 1:
        ctx.new_cdp_session(pg).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def compressed(folder: Path, paths: list[str]) -> tuple[int, int | None]:
    gz = br = 0
    try:
        import brotli  # type: ignore[import-not-found]
    except ImportError:
        brotli = None
    for p in paths:
        f = folder / p.lstrip("/")
        if not f.is_file():
            f = folder / "index.html"
        data = f.read_bytes()
        gz += len(gzip.compress(data, 9))
        if brotli is not None:
            br += len(brotli.compress(data, quality=11))
    return gz, br if brotli is not None else None


def move_while_estimating(pg: Any) -> tuple[float, float]:
    """(ms a step took while estimates ran, ms of the estimates). Eight rounds of 20,000
    samples are asked at once (a request asks for 20,000 at most, issue 25.2): with the
    fast forced line in the computing worker fewer are over before the step is made
    (bench/site_kernel.py keeps the computing worker busier)."""
    out = pg.evaluate("""async () => {
      const {api} = await import('./static/js/api.js');
      const s = window.firstlast.state;
      const t = performance.now();
      const rounds = [1, 2, 3, 4, 5, 6, 7, 8].map((r) => api.chance(s.id, r, 20000));
      const chance = Promise.all(rounds).then(() => performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
      const t2 = performance.now();
      await api.step(s.id, s.version);
      const step = performance.now() - t2;
      return [step, await chance];
    }""")
    return float(out[0]), float(out[1])


#: ``n`` actions in a row on deal 1 (a turn, then undo and redo by turns: each one a
#: write, as a move is), each sent once the last is answered, as Auto sends them: the
#: median ms per action.
MOVES = """async (n) => {
  const {api} = await import('./static/js/api.js');
  let s = await api.newGame(1, null, 'number');
  s = (await api.move(s.id, s.stock_move, s.version)).state;
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await (i % 2 ? api.redo(s.id, s.version) : api.undo(s.id, s.version));
    times.push(performance.now() - t);
    s = r.state;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}"""


def measure(browser: Any, url: str, local: str, rate: float, rows: dict[str, list[float]],
            first_visit: list[tuple[int, list[str], list[str]]]) -> None:
    """One run of every load at CPU throttling ``rate`` (1: none), into ``rows``."""
    Counting.sent.clear()
    Counting.times.clear()
    ctx = browser.new_context()
    pg = ctx.new_page()
    throttle(ctx, pg, rate)
    shown, answered = load_answered(pg, url + "?speed=0", READY)
    rows["cold"].append(shown)
    rows["cold, answering"].append(answered)
    if not first_visit:
        twice = sorted(k for k, n in Counting.times.items() if n > 1)
        first_visit.append((sum(Counting.sent.values()), sorted(Counting.sent), twice))
    if rate == 1:
        step, est = move_while_estimating(pg)
        rows["move during estimate (ms)"].append(step)
        rows["estimate (ms)"].append(est)
    rows["move (ms)"].append(float(pg.evaluate(MOVES, 20)))
    shown, answered = load_answered(pg, url + "?speed=0", READY)
    rows["warm"].append(shown)
    rows["warm, answering"].append(answered)
    ctx.set_offline(True)
    rows["offline"].append(load(pg, url + "?speed=0", READY))
    ctx.close()
    ctx = browser.new_context()
    pg = ctx.new_page()
    throttle(ctx, pg, rate)
    local_ready = "window.firstlast && window.firstlast.state && !window.firstlast.busy"
    rows["local cold"].append(load(pg, local + "?speed=0", local_ready))
    rows["local warm"].append(load(pg, local + "?speed=0", local_ready))
    rows["local move (ms)"].append(float(pg.evaluate(MOVES, 20)))
    ctx.close()


def report(rows: dict[str, list[float]], rate: float, runs: int) -> None:
    med = {k: statistics.median(v) for k, v in rows.items() if v}
    cold_goal, warm_goal = ("≤ 10 s", "≤ 4 s") if rate > 1 else ("≤ 2.5×", "≤ 1.5×")
    print(f"site load, median of {runs} runs, CPU throttling {rate:g}× (Chromium, headless; local server side"
          " by side)")
    print(f"  cold load to a playable table  {med['cold']:6.2f} s   goal {cold_goal:7}  "
          f"local server {med['local cold']:5.2f} s  ratio {med['cold'] / med['local cold']:5.1f}×")
    print(f"  cold load, Python answering    {med['cold, answering']:6.2f} s   "
          f"(the build's first table plays meanwhile: its moves wait in the page's queue)")
    print(f"  warm reload, table shown       {med['warm']:6.2f} s   goal {warm_goal:7}  "
          f"local server {med['local warm']:5.2f} s  ratio {med['warm'] / med['local warm']:5.1f}×")
    print(f"  warm reload, Python answering  {med['warm, answering']:6.2f} s   "
          f"(moves made before this wait in the page's queue)")
    print(f"  offline reload                 {med['offline']:6.2f} s")
    print(f"  an action's answer (median of 20) {med['move (ms)']:6.1f} ms  goal ≤ 2×     "
          f"local server {med['local move (ms)']:5.1f} ms ratio {med['move (ms)'] / med['local move (ms)']:5.1f}×")
    if "move during estimate (ms)" in med:
        print(f"  a step while an estimate runs: {med['move during estimate (ms)']:.0f} ms (goal ≤ 50 ms beyond a"
              f" step's own); the estimate took {med['estimate (ms)']:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", type=Path, help="a built site (default: build one now)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--throttle", type=float, default=4, help="CPU throttling rate of the second pass (1: none)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rates = [1.0] if args.throttle <= 1 else [1.0, args.throttle]
    names = ("cold", "cold, answering", "warm", "warm, answering", "offline", "local cold", "local warm",
             "move during estimate (ms)", "estimate (ms)", "move (ms)", "local move (ms)")
    table: dict[float, dict[str, list[float]]] = {r: {k: [] for k in names} for r in rates}
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        if args.site is None:
            build_site(site, say=lambda line: None)
        server, url = serve(site)
        proc, local = spawn_server(Path(tmp) / "local.sqlite3")
        first_visit: list[tuple[int, list[str], list[str]]] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
                for _ in range(args.runs):
                    for rate in rates:
                        measure(browser, url, local, rate, table[rate], first_visit)
                browser.close()
        finally:
            server.shutdown()
            stop_server(proc)
        raw, paths, twice = first_visit[0]
        gz, br = compressed(site, paths)

    for rate in rates:
        report(table[rate], rate, args.runs)
    print(f"first visit: {raw / 1e6:.2f} MB raw (goal ≤ 15), {gz / 1e6:.2f} MB gzip"
          + (f", {br / 1e6:.2f} MB brotli" if br is not None else " (brotli: pip install brotli)")
          + f" (goal ≤ 8); {len(paths)} files")
    print(f"files sent twice on the first visit: {', '.join(twice) if twice else 'none'}")


if __name__ == "__main__":
    main()
