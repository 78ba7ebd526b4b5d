"""How long the live chance takes to play its samples (``odds.live.chance_to_come_out``).

    python bench/live_chance.py [--samples N] [--repeat R] [--sampler auto|kernel|engine]

Positions: the start of a deal, a mid-game position, and one late in the last pass. Each
estimate plays N samples (default 10,000); with the fast forced line each takes a few
tens of milliseconds, the engine sampler (pure Python) a few hundred samples a second.
"""

from __future__ import annotations

import argparse
import statistics
import time

from firstlast.engine import Game, Position, Variant
from firstlast.odds import fastline
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
    ap.add_argument("--sampler", choices=["auto", "kernel", "engine"], default="auto")
    args = ap.parse_args()
    print(f"{args.samples:,} samples per estimate; kernel installed: {fastline.available()}; sampler {args.sampler}")
    t0 = time.perf_counter()
    chance_to_come_out(Position.deal(0), samples=10, sampler=args.sampler)
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
            est = chance_to_come_out(pos, samples=args.samples, seed=i, sampler=args.sampler)
            times.append(time.perf_counter() - t0)
        print(f"{name:<34} median {1000 * statistics.median(times):6.1f} ms, max {1000 * max(times):6.1f} ms  ({est})")


if __name__ == "__main__":
    main()
