"""How fast the pure-Python engine plays whole games (one core).

    python bench/engine_speed.py [--games N] [--start DEAL]

Prints games/s for ``play_out`` (the engine's forced line, ``Position.play_forced``:
the rules themselves, without movement lists) under each variant; for the full
move-by-move ``Game.autoplay`` (positions, movements, undo history) that the interfaces
use; and, for comparison, for the naive rank-list reference the tests keep
(``tests/naive.py``). Bulk results (``firstlast autoplay A..B``, odds) go through the
compiled kernel instead: see ``bench/kernel_speed.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from firstlast.engine import Game, Variant, play_out

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import naive


def rate(label: str, n: int, fn: Callable[[int], bool]) -> None:
    t0 = time.perf_counter()
    wins = 0
    for deal in range(args.start, args.start + n):
        wins += fn(deal)
    dt = time.perf_counter() - t0
    print(f"{label:<62} {n / dt:>9,.0f} games/s   ({n} games, {100 * wins / n:5.1f} % won)")


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=2_000)
parser.add_argument("--start", type=int, default=0)
args = parser.parse_args()

for variant in (Variant(), Variant(redeals=0), Variant(redeals=None), Variant(waste_playable=True),
                Variant(privileged_last=False)):
    rate(f"play_out  [{variant.describe()}]", args.games, lambda d, v=variant: play_out(d, v).won)


def full_game(deal: int) -> bool:
    game = Game(deal)
    game.autoplay()
    return game.position.status == "won"


rate("Game.autoplay  [canonical, full positions]", max(1, args.games // 4), full_game)
rate("tests/naive.py play_out  [canonical, rank lists]", args.games, lambda d: naive.play_out(d)[0])
