"""The story's cost: CPU seconds and samples to tell games' stories as the faces do
(``play.chance.tell_story``: fixed samples, no clock), for deal 1 and a seeded sweep of
random deals and variants played along their forced line.

    python bench/story_cost.py [GAMES]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from firstlast.engine import Game, Position, Variant
from firstlast.odds.live import chance_to_come_out
from firstlast.odds.stats import VARIANTS
from firstlast.play.chance import tell_story


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    chance_to_come_out(Position.deal(0), samples=1)  # load the fast line once
    rng = random.Random(5)
    picks = [(1, "r3")] + [(rng.randrange(10**6), rng.choice(VARIANTS).token) for _ in range(games)]
    rows = []
    for deal, token in picks:
        game = Game(deal, Variant.from_token(token))
        game.autoplay()
        t = time.process_time()
        story = tell_story(game)
        cpu = time.process_time() - t
        rows.append((cpu, deal, token, game.position.status, len(game.moves), sum(p.samples for p in story.points)))
    first = rows[0]
    print(f"deal 1: {first[0]:.2f} s CPU, {first[5]:,} samples in its points")
    cpus = sorted(r[0] for r in rows)
    print(f"{len(rows)} games: median {statistics.median(cpus):.2f} s CPU, p90 {cpus[int(0.9 * len(cpus))]:.2f} s, "
          f"max {cpus[-1]:.2f} s")
    for cpu, deal, token, status, moves, samples in sorted(rows, reverse=True)[:5]:
        print(f"  {cpu:.2f} s  deal {deal} {token} {status}, {moves} moves, {samples:,} samples")


if __name__ == "__main__":
    main()
