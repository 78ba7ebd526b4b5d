"""What reading a game costs (issue 25.5: reads without replays): the play layer's
``game`` — what ``/chance``, ``/words``, ``/story``, ``/replay`` and the terminal's look
at the table read — against replaying the game from its stored moves (what every such
read did before), and the terminal's change counter (``PlayService.changes``).

    python bench/read_cost.py [--reads 200]

On a game of deal 1 played out under unlimited redeals (the longest forced line of
bench/request_cost.py's deals).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from firstlast.engine import Game, Variant
from firstlast.play import GameStore, PlayService, Steps
from firstlast.store import StoredGame


def per_call(fn: Callable[[], object], n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def replayed(store: GameStore, game_id: str) -> StoredGame:
    """A game read from the store and replayed (``Transaction.load``)."""
    with store.reading() as tx:
        return tx.load(game_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reads", type=int, default=200)
    n = parser.parse_args().reads
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "games.sqlite3")
        play = PlayService(store)
        player = play.local_player()
        g = play.start(player, "number", "1", Variant(redeals=None))
        moves = len(play.act(player, g.id, Steps(100_000)).stored.game)
        assert len(Game(1, Variant(redeals=None)).autoplay()) == moves
        replay = per_call(lambda: replayed(store, g.id), max(1, n // 10))
        read = per_call(lambda: play.game(player, g.id), n)
        changes = per_call(play.changes, n)
        print(f"a game of {moves} moves, {n} reads each (ms per read)")
        print(f"  replayed from the store (before): {1000 * replay:8.3f}")
        print(f"  PlayService.game (now):           {1000 * read:8.3f}  ({replay / read:.0f}x less)")
        print(f"  PlayService.changes:              {1000 * changes:8.3f}")
        play.close()
        store.close()


if __name__ == "__main__":
    main()
