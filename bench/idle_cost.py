"""What an open page costs while nobody plays (issue 25.7): the CPU seconds of the
browser and of the local server over an idle stretch, in five cases.

    python bench/idle_cost.py [--seconds 30] [--deal 9100] [--runs 1]

Starts the real server (``firstlast play --no-browser --port 0``) on a throw-away
database and Debian's headless Chromium (the tests' launch arguments), then, each case in
a fresh profile on a deal no estimate has seen yet (so the server's ``ChanceBook`` holds
none of its rounds):

* ``table``: the table in view, the player idle: the chance meter refines (chance.js);
* ``dialog``: the same with the settings dialog open over the table (its backdrop is
  blurred: every redraw of the meter under it repaints the blur);
* ``hint``: the table with the hint shown (its card's glow pulses, its arrow flows);
* ``hidden``: the page told it is hidden (``document.hidden`` made true and
  ``visibilitychange`` sent, in the page: headless Chromium keeps every page visible),
  so this case measures what the page itself does while hidden, not the drawing a
  hidden page is spared anyway;
* ``blank``: an empty page (``about:blank``): what headless Chromium costs doing nothing,
  the floor under the three.

Each case waits for the table, then counts ``--seconds`` of idleness from there (the
meter's first figure is asked for half a second after the table is shown, so about when
the stretch begins), as a player who opens a page and leaves it sees it. CPU time is
read from /proc (user + system, the process and its reaped children) for every process
under this one at the start and at the end of the stretch: the server (and its helper
process), Chromium (browser, renderers, GPU and utility processes) and Playwright's
driver. This process is a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), so that a
Chromium process whose parent exits stays under it and is counted (``/usr/bin/time``
misses renderers that are not reaped). Wall time is not used: on a loaded machine it
says nothing.

Also printed: the chance requests the page made in the stretch, how many times the
meter changed what it shows (its words, its fill, its classes: a ``MutationObserver``),
and the samples pooled at the end.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import spawn_server, stop_server

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
CHROMIUM = "/usr/bin/chromium"
PR_SET_CHILD_SUBREAPER = 36
TICK = os.sysconf("SC_CLK_TCK")
READY = "window.firstlast && window.firstlast.state && !window.firstlast.busy"
#: Counts the meter's redraws: a change the eye can see (its words, its fill, its classes)
#: in one task is one; its help and data attributes are not drawn.
DRAWS = """() => {
  window.__draws = 0;
  const box = document.getElementById('s-chance');
  const seen = new MutationObserver(() => { window.__draws++; });
  seen.observe(box, { attributes: true, attributeFilter: ['class', 'hidden'] });
  seen.observe(box.querySelector('.value'), { subtree: true, childList: true, characterData: true });
  seen.observe(box.querySelector('.fill'), { attributes: true });
}"""

#: The page told it is hidden, as a browser tells it when its tab goes to the background.
HIDE = """() => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def wait(pg: Any, expression: str, timeout_ms: float = 60_000) -> None:
    """Wait in the page until ``expression`` is true (``wait_for_function`` evaluates with
    ``eval``, which the page's CSP forbids; ``evaluate`` goes through the debugger)."""
    ok = pg.evaluate(f"""async ([ms]) => {{ const end = performance.now() + ms;
      for (;;) {{ if ({expression}) return true; if (performance.now() > end) return false;
                 await new Promise((r) => setTimeout(r, 50)); }} }}""", [timeout_ms])
    if not ok:
        raise SystemExit(f"timed out waiting for {expression}")


def subreaper() -> None:
    """Orphaned descendants are reparented to this process (Linux)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def processes() -> dict[int, tuple[int, str, float]]:
    """Every process: pid → (parent, name, CPU seconds of it and its reaped children)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        f = text.rsplit(")", 1)[1].split()
        # f[0] is the state; ppid f[1]; utime, stime, cutime, cstime f[11:15].
        out[int(entry.name)] = (int(f[1]), name, sum(int(x) for x in f[11:15]) / TICK)
    return out


def tree_cpu(server_pid: int) -> dict[str, float]:
    """CPU seconds so far of the processes under this one, by kind."""
    procs = processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in procs.items():
        children.setdefault(ppid, []).append(pid)
    totals = {"server": 0.0, "chromium": 0.0, "driver": 0.0}

    def walk(pid: int, kind: str | None) -> None:
        for c in children.get(pid, []):
            name = procs[c][1]
            k = kind or ("server" if c == server_pid else None)
            totals[k or ("chromium" if name.startswith("chrom") else "driver")] += procs[c][2]
            walk(c, k)

    walk(os.getpid(), None)
    return totals


def case(browser: Any, url: str, deal: int, how: str, seconds: float, server_pid: int) -> dict[str, float]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="en-US")
    pg = ctx.new_page()
    asked: list[str] = []
    pg.on("request", lambda r: asked.append(r.url) if "/chance?" in r.url else None)
    blank = how == "blank"
    pg.goto("about:blank" if blank else f"{url}?speed=0&deal={deal}")
    if not blank:
        wait(pg, f"{READY} && window.firstlast.state.deal === '{deal}'")
        pg.evaluate(DRAWS)
    if how == "dialog":
        pg.click("#b-settings")
        pg.wait_for_selector("#dlg-settings[open]")
    if how == "hint":
        pg.click("#b-hint")
        wait(pg, "document.querySelector('.card.hint, .slot.hint')")
    if how == "hidden":
        pg.evaluate(HIDE)
    asked.clear()
    before = tree_cpu(server_pid)
    pg.wait_for_timeout(seconds * 1000)  # (not time.sleep: Playwright's events come meanwhile)
    after = tree_cpu(server_pid)
    out = {k: after[k] - before[k] for k in before}
    out["requests"] = len(asked)
    out["draws"] = 0 if blank else pg.evaluate("window.__draws")
    out["samples"] = 0 if blank else float(
        pg.evaluate("Number(document.getElementById('s-chance').dataset.samples || 0)"))
    ctx.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--deal", type=int, default=9100, help="the first deal played (each case takes the next)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--cases", default="table,dialog,hint,hidden,blank")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    subreaper()
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = spawn_server(Path(tmp) / "games.sqlite3")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
                deal = args.deal
                print(f"{'case':8} {'server s':>9} {'chromium s':>11} {'driver s':>9} {'% core':>7}"
                      f" {'requests':>9} {'draws':>6} {'samples':>8}")
                for _ in range(args.runs):
                    for how in args.cases.split(","):
                        r = case(browser, url, deal, how, args.seconds, proc.pid)
                        deal += 1
                        total = r["server"] + r["chromium"] + r["driver"]
                        print(f"{how:8} {r['server']:9.2f} {r['chromium']:11.2f} {r['driver']:9.2f}"
                              f" {100 * total / args.seconds:6.1f}% {r['requests']:9.0f} {r['draws']:6.0f}"
                              f" {r['samples']:8.0f}", flush=True)
                browser.close()
        finally:
            stop_server(proc)
    # Everything reparented here is reaped.
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break


if __name__ == "__main__":
    main()
