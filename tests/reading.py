"""One-read shortcuts for tests: ``read(store).load(game_id)`` is ``Transaction.load`` in
a snapshot of its own (``GameStore.reading()``), and so for every ``Transaction`` read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firstlast.store import GameStore


class _Reads:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Callable[..., Any]:
        def one_read(*args: Any, **kwargs: Any) -> Any:
            with self.store.reading() as tx:
                return getattr(tx, name)(*args, **kwargs)

        return one_read


def read(store: GameStore) -> Any:
    return _Reads(store)
