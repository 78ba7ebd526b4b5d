"""Latency of ``chance_to_come_out`` with 10,000 samples, after compilation.

    python bench/live_chance.py [--samples N] [--repeat R]

Positions: the start of a deal, a mid-game position, and one late in the last pass.
"""

from __future__ import annotations

import argparse
import statistics
import time

from firstlast.engine import Game, Position, Variant
from firstlast.odds.live import chance_to_come_out


def _after(deal: int, steps: int) -> Position:
    g = Game(deal)
    for _ in range(steps):
        if g.step() is None:
            break
    return g.position


def _last_pass(deal: int, stock: int) -> Position:
    """Deal ``deal`` in its last pass (no redeal left), ``stock`` cards still face down."""
    g = Game(deal)
    while g.position.redeals_left or len(g.position.stock) > stock:
        if g.step() is None:
            break
    return g.position


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    t0 = time.perf_counter()
    chance_to_come_out(Position.deal(0), samples=10)
    print(f"first call (loads or compiles the kernel): {1000 * (time.perf_counter() - t0):.0f} ms")
    cases = {
        "deal 1, start": Position.deal(1),
        "deal 1, start, unlimited redeals": Position.deal(1, Variant(None)),
        "deal 5, 150 moves in": _after(5, 150),
        "deal 8, last pass, 30 cards unseen": _last_pass(8, 30),
    }
    for name, pos in cases.items():
        times = []
        for i in range(args.repeat):
            t0 = time.perf_counter()
            est = chance_to_come_out(pos, samples=args.samples, seed=i)
            times.append(time.perf_counter() - t0)
        print(f"{name:<34} median {1000 * statistics.median(times):6.1f} ms, max {1000 * max(times):6.1f} ms"
              f"  ({args.samples:,} samples; {est})")


if __name__ == "__main__":
    main()
