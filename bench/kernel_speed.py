"""Games per second of the compiled forced line, and what compiling costs.

    python bench/kernel_speed.py [--games N]

Prints: compile time with an empty numba cache (cold) and with the cache filled (warm),
each in a fresh process; then games/s for the canonical rules on one thread and on all
threads (numba parallel), and the same for unlimited redeals (more passes per game).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

FIRST_CALL = """
import time
t0 = time.perf_counter()
from firstlast.engine import Variant
from firstlast.odds.kernel import play_deal, play_deals
from firstlast.odds.live import chance_to_come_out
from firstlast.engine import Position
t1 = time.perf_counter()
play_deal(1, Variant())
play_deals(range(10), Variant(), parallel=False)
play_deals(range(10), Variant(), parallel=True)
chance_to_come_out(Position.deal(1), samples=10)
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f}")
"""


def first_call(cache_dir: str) -> tuple[float, float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True)
    a, b = out.stdout.split()
    return float(a), float(b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4_000_000)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        imp, cold = first_call(cache)
        print(f"compile, empty cache (cold):  {cold:6.2f} s  (imports {imp:.2f} s)")
        imp, warm = first_call(cache)
        print(f"compile, cache filled (warm): {warm:6.2f} s  (imports {imp:.2f} s)")

    import numba

    from firstlast.engine import Variant
    from firstlast.odds.kernel import play_deals

    cores = numba.get_num_threads()
    for variant in (Variant(), Variant(None)):
        play_deals(range(1000), variant)  # compiled (or loaded) before timing
        for threads in (1, cores):
            numba.set_num_threads(threads)
            t0 = time.perf_counter()
            won, _, _ = play_deals(range(args.games), variant, parallel=True)
            dt = time.perf_counter() - t0
            print(f"{variant.token:<3} {threads} thread{'s' if threads > 1 else ' '}: {args.games / dt:12,.0f} games/s"
                  f" ({args.games / dt / threads:,.0f} per core; {args.games:,} games in {dt:.2f} s,"
                  f" {won.mean():.4%} won)")
        numba.set_num_threads(cores)


if __name__ == "__main__":
    main()
