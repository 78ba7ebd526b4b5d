"""The live chance-to-come-out figure, computed off the UI thread.

The estimator lives in ``firstlast.odds.live``: the compiled kernel with the ``fast``
extra (its first call loads or compiles numba code), else the engine in pure Python,
both within a fixed time budget per estimate, the figure showing the interval reached.
It is imported lazily, on the worker thread, and if it cannot be imported the figure is
simply not shown. Only one estimate runs at a time: while it runs, newer
positions replace each other as the one to do next, so fast play (autoplay) never piles
up threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from ..engine import Position


class Estimate(Protocol):
    probability: float
    low: float
    high: float
    samples: int


Estimator = Callable[..., Any]
CACHE_SIZE = 4096


def load_estimator() -> Estimator | None:
    """``chance_to_come_out`` if the odds package is installed and importable."""
    try:
        from ..odds.live import chance_to_come_out  # type: ignore[import-not-found,unused-ignore]
    except Exception:  # ImportError, or the module failing as it loads
        return None
    return chance_to_come_out  # type: ignore[no-any-return,unused-ignore]


def format_estimate(est: Estimate) -> str:
    """``chance 37 % (35–39)``."""
    p, lo, hi = (round(100 * x) for x in (est.probability, est.low, est.high))
    return f"chance {p} % ({lo}–{hi})"


class ChanceRunner:
    """Runs the estimator for the latest requested position, one at a time.

    ``deliver(position, estimate_or_None)`` is called from the worker thread; the app
    hands it over to the UI thread. ``None`` means the estimator is unavailable."""

    def __init__(self, deliver: Callable[[Position, Estimate | None], None], samples: int = 10_000,
                 estimator: Estimator | None = None) -> None:
        self._deliver = deliver
        self._samples = samples
        self._estimator = estimator
        self._loaded = estimator is not None
        self._lock = threading.Lock()
        self._wanted: Position | None = None
        self._busy = False
        self.available: bool | None = None if estimator is None else True
        self._cache: dict[str, Estimate] = {}

    def request(self, position: Position, start: Callable[[Callable[[], None]], None]) -> None:
        """Ask for ``position``'s estimate; ``start(fn)`` runs ``fn`` on a worker thread."""
        if self.available is False:
            return
        with self._lock:
            self._wanted = position
            if self._busy:
                return
            self._busy = True
        start(self._loop)

    def _loop(self) -> None:
        while True:
            with self._lock:
                pos = self._wanted
                self._wanted = None
                if pos is None:
                    self._busy = False
                    return
            self._deliver(pos, self._compute(pos))

    def _compute(self, pos: Position) -> Estimate | None:
        if not self._loaded:
            self._estimator = load_estimator()
            self._loaded = True
            self.available = self._estimator is not None
        if self._estimator is None:
            return None
        key = str(pos)
        if key in self._cache:
            return self._cache[key]
        try:
            est: Estimate = self._estimator(pos, samples=self._samples, seed=0)
        except Exception:
            # A failing estimator must not take the game down: hide the figure instead.
            self.available = False
            return None
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()  # positions are rarely revisited beyond undo/redo
        self._cache[key] = est
        return est
