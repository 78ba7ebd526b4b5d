"""What one request costs at the contract's bounds (issue 25.2: no request may cost
more than about a second of CPU): CPU seconds (``time.process_time``, every thread of
this process) of the web app answering in-process, each from cold.

    python bench/request_cost.py [--before]
    FIRSTLAST_FASTLINE=none python bench/request_cost.py     # the engine samples alone

* ``chance``: ``/chance?samples=MAX&round=MAX`` on a fresh game (every round from cold);
* ``story``, ``replay``, ``words`` (the last step) of the longest game found among the
  variants' forced lines of a few deals (unlimited redeals make the longest);
* ``winnable``: one search per variant (``deals.winnable_deal``, which the server runs in
  its helper process), the slowest of three seeds;
* ``--before``: what ``/chance?samples=99999&round=42`` cost when the contract allowed it
  (the same rounds, computed by the play layer directly).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from starlette.testclient import TestClient

from firstlast.engine import Game, Position, Variant
from firstlast.engine.record import record_to_text
from firstlast.odds.stats import VARIANTS
from firstlast.play import GameStore, chance, deals
from firstlast.web import create_app, models

warnings.filterwarnings("ignore", message=".*httpx.*")


def cpu(fn: Callable[[], object]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def longest_game() -> Game:
    best: Game | None = None
    for deal in range(1, 41):
        for token in ("ru", "ruw", "run", "ruwn", "r3"):
            game = Game(deal, Variant.from_token(token))
            game.autoplay()
            if best is None or len(game.moves) > len(best.moves):
                best = game
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", action="store_true", help="also the old bounds' cost (about 10 s)")
    args = parser.parse_args()
    print("route:", chance.warm())
    samples, last = models.SAMPLES_PER_ROUND, models.MAX_ROUND
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(GameStore(Path(tmp) / "g.sqlite3"))
        with TestClient(app, base_url="http://127.0.0.1") as c:
            gid = c.post("/api/games", json={"deal": "1"}).json()["id"]
            took = cpu(lambda: c.get(f"/api/games/{gid}/chance?samples={samples}&round={last}").raise_for_status())
            answer = c.get(f"/api/games/{gid}/chance?samples={samples}&round={last}").json()
            print(f"chance samples={samples} round={last} from cold: {took:.2f} s CPU "
                  f"(answered round {answer['round']}, {answer['pooled']['rounds']} rounds pooled)")
            game = longest_game()
            r = c.post("/api/games/import", json={"record": record_to_text(game, date="2026-01-01")})
            lid = r.json()["id"]
            print(f"longest game found: deal {game.deal} {game.variant.token}, {len(game.moves)} moves")
            for name, path in (("story", f"/api/games/{lid}/story"), ("replay", f"/api/games/{lid}/replay"),
                               ("words, last step", f"/api/games/{lid}/words?step={len(game.moves)}")):
                took = cpu(lambda p=path: c.get(p).raise_for_status())  # type: ignore[misc]
                print(f"{name}: {took:.2f} s CPU")
    worst: list[tuple[float, str]] = []
    for variant in VARIANTS:
        token = variant.token
        worst.append((max(cpu(lambda s=seed, v=variant: deals.winnable_deal(  # type: ignore[misc]
            v, rng=random.Random(s))) for seed in range(3)), token))
    worst.sort(reverse=True)
    print("winnable search, slowest variants: " + ", ".join(f"{tok} {t:.2f} s" for t, tok in worst[:4]))
    if args.before:
        pos = Position.deal(1)
        took = cpu(lambda: [chance.round_estimate(pos, r, 99_999) for r in range(43)])
        print(f"before: samples=99999 round=42 (43 rounds): {took:.2f} s CPU")


if __name__ == "__main__":
    main()
