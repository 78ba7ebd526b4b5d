"""How fast the pure-Python engine plays whole games (one core).

    python bench/engine_speed.py [--games N] [--start DEAL]

Prints games/s for the fast forced line (``play_out``, used for bulk results) under each
variant, and for the full move-by-move ``Game.autoplay`` (positions, movements, undo
history) that the interfaces use.
"""

from __future__ import annotations

import argparse
import time

from firstlast.engine import Game, Variant, play_out


def rate(label: str, n: int, fn: object) -> None:
    t0 = time.perf_counter()
    wins = 0
    for deal in range(args.start, args.start + n):
        wins += fn(deal)  # type: ignore[operator]
    dt = time.perf_counter() - t0
    print(f"{label:<62} {n / dt:>9,.0f} games/s   ({n} games, {100 * wins / n:5.1f} % won)")


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=20_000)
parser.add_argument("--start", type=int, default=0)
args = parser.parse_args()

for variant in (Variant(), Variant(redeals=0), Variant(redeals=None), Variant(waste_playable=True),
                Variant(privileged_last=False)):
    rate(f"play_out  [{variant.describe()}]", args.games, lambda d, v=variant: play_out(d, v).won)


def full_game(deal: int) -> bool:
    game = Game(deal)
    game.autoplay()
    return game.status == "won"


rate("Game.autoplay  [canonical, full positions]", max(1, args.games // 20), full_game)
