"""The compiled kernel against the engine, deal by deal, every variant.

    python bench/kernel_vs_engine.py [--deals N] [--seed S] [--naive]

N deals (default 5,000: random 64-bit deal numbers from S, plus the 1,000 highest
numbers) under each of the 16 variants (redeals 0, 1, 3, unlimited × V2 × V3). The other
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

import numpy as np

from firstlast.engine import Variant, play_out
from firstlast.odds.kernel import play_deals

TESTS = str(Path(__file__).resolve().parent.parent / "tests")
VARIANTS = [Variant(r, wp, pr) for r in (0, 1, 3, None) for wp in (False, True) for pr in (True, False)]


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
    arr = np.array(deals, dtype=np.uint64)
    total_bad = 0
    step = 500
    side = "tests/naive.py" if args.naive else "the engine"
    with ProcessPoolExecutor(os.cpu_count()) as pool:
        for v in VARIANTS:
            t0 = time.perf_counter()
            won, score, passes = play_deals(arr, v)
            parts = pool.map(_reference, [(v.token, args.naive, deals[i:i + step]) for i in range(0, len(deals), step)])
            want = [o for part in parts for o in part]
            bad = sum(
                (bool(won[i]), int(score[i]), int(passes[i])) != want[i] for i in range(len(deals))
            )
            total_bad += bad
            print(f"{v.token:<5} {len(deals):,} deals: {bad} mismatches with {side}, {won.mean():.3%} won "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
    print(f"mismatches = {total_bad} over {len(deals) * len(VARIANTS):,} games")


if __name__ == "__main__":
    main()
