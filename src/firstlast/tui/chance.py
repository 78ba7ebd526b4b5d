"""The live chance-to-come-out figure, computed off the UI thread.

What is estimated, how many samples a round plays, how rounds are pooled and when
refining stops are the play layer's one policy (``firstlast.play.chance``), the page's
too, so both faces show the same figure for the same position. This module only runs it
off the UI thread: the odds are imported lazily, on the worker thread, and if they
cannot be imported the figure is simply not shown. Only one estimate runs at a time:
while it runs, newer positions replace each other as the one to do next, so fast play
(autoplay) never piles up threads.

An estimate that fails (an estimator error on some position, e.g. a variant the kernel
cannot represent) is that position's answer only: the next position is estimated
afresh. While the player is idle the screen asks for *refinements* of the position on
the table: the next round the policy names (``Pooled.next_round``), pooled with the
rounds before it (``play.chance.ChanceBook.pooled``), so the interval narrows. The
figure is ``i18n.chance_text``, the one display rule of every face: only the precision
the samples support.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..engine import Position
from ..i18n import chance_text, t
from ..play.chance import ChanceBook, Pooled, estimator_available

__all__ = ["Answer", "ChanceRunner", "Estimator", "Failed", "Pooled", "describe_answer", "load_estimator", "refinable"]


@dataclass(frozen=True, slots=True)
class Failed:
    """The estimator failed on this position (``reason``: the error, for the curious)."""

    reason: str


#: What a request answers: an estimate, ``Failed`` for this position, or ``None`` when
#: no estimator can be loaded at all (the figure is not shown this session).
Answer = Pooled | Failed | None

#: ``estimator(position, samples=…, seed=…) -> ChanceEstimate``, a stand-in for the
#: odds' sampler (tests); ``None``: the policy's own.
Estimator = Callable[..., Any]
#: Positions whose answer the runner remembers (the rounds are in the play layer's book).
CACHE_SIZE: Final = 4096


def load_estimator() -> bool:
    """Whether the odds can be loaded here (``play.chance.estimator_available``)."""
    return estimator_available()


def describe_answer(answer: Answer, lang: str = "en") -> str | None:
    """The side bar's line for ``answer`` in ``lang``; ``None`` hides the figure."""
    if answer is None:
        return None
    if isinstance(answer, Failed):
        return t(lang, "tui.chance.failed")
    return t(lang, "tui.chance.figure", chance=chance_text(answer.estimate, lang))


def refinable(answer: Answer) -> bool:
    """Whether the policy would pool another round into ``answer``."""
    return isinstance(answer, Pooled) and answer.next_round is not None


class ChanceRunner:
    """Runs the estimator for the latest requested position, one at a time.

    ``deliver(position, answer)`` is called from the worker thread; the app hands it
    over to the UI thread (``Answer``: ``None`` means the estimator is unavailable)."""

    def __init__(self, deliver: Callable[[Position, Answer], None], estimator: Estimator | None = None,
                 book: ChanceBook | None = None) -> None:
        self._deliver = deliver
        self._book = book if book is not None else ChanceBook(estimator=estimator)
        self._loaded = estimator is not None
        self._lock = threading.Lock()
        self._wanted: tuple[Position, bool] | None = None
        self._busy = False
        self.available: bool | None = None if estimator is None else True
        self._cache: dict[str, Pooled | Failed] = {}

    def request(self, position: Position, start: Callable[[Callable[[], None]], None],
                refine: bool = False) -> None:
        """Ask for ``position``'s estimate (``refine``: pool the policy's next round
        into the one known); ``start(fn)`` runs ``fn`` on a worker thread."""
        if self.available is False:
            return
        with self._lock:
            self._wanted = (position, refine)
            if self._busy:
                return
            self._busy = True
        start(self._loop)

    def _loop(self) -> None:
        while True:
            with self._lock:
                wanted = self._wanted
                self._wanted = None
                if wanted is None:
                    self._busy = False
                    return
            pos, refine = wanted
            self._deliver(pos, self._compute(pos, refine))

    def _compute(self, pos: Position, refine: bool) -> Answer:
        if not self._loaded:
            self.available = bool(load_estimator())
            self._loaded = True
        if not self.available:
            return None
        key = str(pos)
        known = self._cache.get(key)
        if known is not None and not (refine and refinable(known)):
            return known
        round_ = known.next_round if isinstance(known, Pooled) and known.next_round is not None else 0
        answer: Pooled | Failed
        try:
            answer = self._book.pooled(pos, round_)
        except Exception as e:
            # A failing estimator must not take the game down, nor the figure for the
            # rest of the session: this position says so, the next is tried afresh.
            answer = Failed(f"{type(e).__name__}: {e}"[:200])
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()  # positions are rarely revisited beyond undo/redo
        self._cache[key] = answer
        return answer
