"""The fast forced line against the engine, deal by deal, every variant, every route.

    python bench/kernel_vs_engine.py [--deals N] [--seed S] [--naive]

N deals (default 5,000: random 64-bit deal numbers from S, plus the 1,000 highest
numbers) under each of the 20 variants (redeals 0–3, unlimited × V2 × V3), played by
the native kernel and by the .wasm through wasmtime (each where it loads). The other
side is the engine's own forced line (``play_out``: ``Position``, the rules), or with
``--naive`` the naive rank-list reference of the tests (``tests/naive.py``, proven equal
to the engine and several times faster: for runs of 100,000 deals and more). It runs on
every core (processes). Prints the mismatches (must be 0).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from firstlast.engine import Variant, play_out
from firstlast.odds import fastline

TESTS = str(Path(__file__).resolve().parent.parent / "tests")
VARIANTS = [Variant(r, wp, pr) for r in (0, 1, 2, 3, None) for wp in (False, True) for pr in (True, False)]


def _reference(args: tuple[str, bool, list[int]]) -> list[tuple[bool, int, int]]:
    token, use_naive, deals = args
    v = Variant.from_token(token)
    if use_naive:
        sys.path.insert(0, TESTS)
        import naive

        return [naive.play_out(d, v) for d in deals]
    return [(o.won, o.score, o.passes) for o in (play_out(d, v) for d in deals)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--naive", action="store_true", help="check against tests/naive.py instead of the engine")
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    top = [2**64 - 1 - i for i in range(min(1000, args.deals))]
    deals = top + [rnd.randrange(2**64) for _ in range(args.deals - len(top))]
    kernels = []
    for route in ("native", "wasmtime"):
        try:
            kernels.append(fastline.load(route))
        except fastline.Unavailable as e:
            print(f"{route}: not here ({e})")
    total_bad = 0
    step = 500
    side = "tests/naive.py" if args.naive else "the engine"
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        for v in VARIANTS:
            t0 = time.perf_counter()
            parts = pool.map(_reference, [(v.token, args.naive, deals[i:i + step]) for i in range(0, len(deals), step)])
            want = [o for part in parts for o in part]
            for k in kernels:
                won, score, passes = k.play_deals(deals, v)
                bad = sum((bool(won[i]), score[i], passes[i]) != want[i] for i in range(len(deals)))
                total_bad += bad
                print(f"{v.token:<5} {k.name:<8} {len(deals):,} deals: {bad} mismatches with {side}, "
                      f"{sum(won) / len(won):.3%} won ({time.perf_counter() - t0:.1f} s)", flush=True)
    print(f"mismatches = {total_bad} over {len(deals) * len(VARIANTS) * len(kernels):,} games")


if __name__ == "__main__":
    main()
