"""Games per second of the fast forced line, against plain C, on one core.

    python bench/kernel_speed.py [--games N] [--repeat R] [--cc CC]

Builds two baselines with the system's C compiler and ``-O3`` (the flags the native
kernel is built with): ``bench/forced_line_plain.c``, a plain C forced line written the
obvious way (the reserve's eight slots, one card turned at a time), and
``bench/forced_line_main.c``, the kernel's own source with a ``main()`` (no Python at
all). Then, pinned to one core, it plays the same deals with each baseline, with the
native kernel through the Python API (``fastline.load("native").play_deals``, ctypes)
and with the committed .wasm through wasmtime; every route must give the same totals
(wins, scores, passes). Prints games/s of each (best of R runs, the routes taking
turns), the ratios of the native kernel to both baselines (the goal: ≥ 0.9 of plain
C), the rate on every core, and what building and loading cost. Canonical rules, then
unlimited redeals.

One-core rates are per second of CPU time (the baselines time themselves with
``CLOCK_PROCESS_CPUTIME_ID``, the Python routes with ``time.thread_time``): on a
machine shared with other work, time spent waiting for the core is not counted, which
would otherwise swamp the comparison. ``--wall`` times them by the clock instead.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from firstlast.engine import Variant  # noqa: E402
from firstlast.odds import fastline  # noqa: E402

Totals = tuple[int, int, int, int]
#: The clock of the Python routes (``--wall``: the wall clock).
clock = time.thread_time


def costs() -> None:
    """What building and loading the kernel take (once per user and version; once per process)."""
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        path = fastline.build(Path(d))
        t1 = time.perf_counter()
        fastline.NativeCalls(path)
        t2 = time.perf_counter()
    fastline.load("wasmtime")
    t3 = time.perf_counter()
    print(f"building the native kernel (cc -O3, once per user and version): {t1 - t0:6.3f} s")
    print(f"loading the native build (ctypes, once per process):            {t2 - t1:6.3f} s")
    print(f"loading the .wasm (wasmtime, once per process):                  {t3 - t2:6.3f} s")


def compile_baseline(cc: list[str], source: Path, folder: Path) -> Path:
    exe = folder / source.stem
    subprocess.run([*cc, "-O3", "-o", str(exe), str(source)], check=True)
    return exe


@contextmanager
def one_core() -> Iterator[set[int] | None]:
    """Run the block on one core (this process and the baselines it starts)."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    before = os.sched_getaffinity(0)
    core = {max(before)}
    os.sched_setaffinity(0, core)
    try:
        yield core
    finally:
        os.sched_setaffinity(0, before)


def run_baseline(exe: Path, games: int, v: Variant) -> tuple[float, Totals]:
    if clock is time.perf_counter:  # --wall: the clock around the whole process
        t0 = time.perf_counter()
        _, totals = run_baseline_cpu(exe, games, v)
        return time.perf_counter() - t0, totals
    return run_baseline_cpu(exe, games, v)


def run_baseline_cpu(exe: Path, games: int, v: Variant) -> tuple[float, Totals]:
    redeals = -1 if v.redeals is None else v.redeals
    out = subprocess.run([str(exe), "0", str(games), str(redeals), str(int(v.waste_playable)),
                          str(int(v.privileged_last))], capture_output=True, text=True, check=True).stdout.split()
    n, wins, score, passes = (int(x) for x in out[:4])
    return float(out[4]), (n, wins, score, passes)


def run_kernel(k: fastline.Kernel, games: int, v: Variant, parallel: bool = False) -> tuple[float, Totals]:
    tick = time.perf_counter if parallel else clock
    t0 = tick()
    won, score, passes = k.play_deals(range(games), v, parallel=parallel)
    seconds = tick() - t0
    return seconds, (len(won), sum(won), sum(score), sum(passes))


def best(repeat: int, routes: dict[str, Callable[[], tuple[float, Totals]]]) -> dict[str, tuple[float, Totals]]:
    """Each route's best time of ``repeat`` runs and its totals. The routes take turns
    (one run of each, ``repeat`` times), so that a busy spell of the machine does not
    fall on one route only."""
    runs: dict[str, list[tuple[float, Totals]]] = {name: [] for name in routes}
    for _ in range(repeat):
        for name, fn in routes.items():
            runs[name].append(fn())
    out = {}
    for name, got in runs.items():
        totals = {t for _, t in got}
        assert len(totals) == 1, (name, totals)
        out[name] = (min(s for s, _ in got), got[0][1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cc", default=None, help="the C compiler of the baselines (default: as the native kernel)")
    ap.add_argument("--wall", action="store_true", help="time one-core runs by the wall clock, not CPU time")
    args = ap.parse_args()
    cc = args.cc.split() if args.cc else fastline.compiler()
    global clock
    if args.wall:
        clock = time.perf_counter
    costs()

    native = fastline.load("native")
    wasm = fastline.load("wasmtime")
    print(f"C compiler: {' '.join(cc)} -O3; native kernel: {native.calls.path}")  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as d:
        plain = compile_baseline(cc, ROOT / "bench" / "forced_line_plain.c", Path(d))
        same = compile_baseline(cc, ROOT / "bench" / "forced_line_main.c", Path(d))
        for v in (Variant(), Variant(None)):
            native.play_deals(range(1000), v)
            with one_core() as core:
                where = f"core {min(core)}" if core else "one thread"
                per = "wall-clock second" if args.wall else "CPU second"
                print(f"\n{v.token} ({v.describe()}), {args.games:,} deals, best of {args.repeat}, {where}, "
                      f"games per {per}:")
                timed = best(args.repeat, {
                    "plain": lambda v=v: run_baseline(plain, args.games, v),
                    "same": lambda v=v: run_baseline(same, args.games, v),
                    "native": lambda v=v: run_kernel(native, args.games, v),
                    "wasm": lambda v=v: run_kernel(wasm, args.games, v)})
            want = timed["plain"][1]
            assert all(t == want for _, t in timed.values()), timed
            rate = {name: args.games / t for name, (t, _) in timed.items()}
            print(f"  plain C, -O3 (baseline)         {rate['plain']:12,.0f} games/s")
            print(f"  kernel source + main(), -O3     {rate['same']:12,.0f} games/s")
            print(f"  native kernel through Python    {rate['native']:12,.0f} games/s"
                  f"   ratio to plain C: {rate['native'] / rate['plain']:.2f}"
                  f"   to the same source alone: {rate['native'] / rate['same']:.2f}")
            print(f"  .wasm through wasmtime          {rate['wasm']:12,.0f} games/s"
                  f"   ratio to plain C: {rate['wasm'] / rate['plain']:.2f}")
            wins = want[1]
            print(f"  (same totals on every route: {wins:,} won, {want[2]:,} cards, {want[3]:,} passes)")
            t_all, got_all = run_kernel(native, args.games, v, parallel=True)
            assert got_all == want
            print(f"  native kernel, {fastline.max_threads()} threads (wall clock) {args.games / t_all:12,.0f} games/s")


if __name__ == "__main__":
    main()
