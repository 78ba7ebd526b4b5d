"""The live chance-to-come-out figure: when to ask for it, and computing it off the UI
thread (``ChanceClock``). What is estimated and when refining stops are
the play layer's one policy (``play.chance``), the page's too. One estimate runs at a
time, the newest position next, so autoplay never piles up threads.
"""

from __future__ import annotations

import contextlib
import time
from functools import partial
from typing import TYPE_CHECKING, Final

from textual.timer import Timer

from ..engine import Position
from ..i18n import chance_text, t
from ..play.chance import BOOK_SIZE, ChanceBook, Estimator, Pooled, estimator_available
from ..play.kept import Kept

if TYPE_CHECKING:
    from .app import GameScreen


#: What a request answers: an estimate, the estimator's error on this position (as the
#: end panel keeps its story's), or ``None`` when no estimator can be loaded at all (the
#: figure is not shown this session).
Answer = Pooled | Exception | None

#: During autoplay the chance figure is refreshed at most this often.
AUTO_CHANCE_INTERVAL_S: Final = 0.5
#: While the player is idle, the chance figure is refined (more samples of the same
#: position) this long after the last figure came.
REFINE_DELAY_S: Final = 0.5


def describe_answer(answer: Answer, lang: str = "en") -> str | None:
    """The side bar's line for ``answer`` in ``lang``; ``None`` hides the figure."""
    if answer is None:
        return None
    if isinstance(answer, Exception):
        return t(lang, "tui.chance.failed")
    return t(lang, "tui.chance.figure", chance=chance_text(answer.estimate, lang))


def refinable(answer: Answer) -> bool:
    """Whether the policy would pool another round into ``answer``."""
    return isinstance(answer, Pooled) and answer.next_round is not None


class ChanceClock:
    """The figure on ``screen``'s side bar (its ``chance_answer``): asked for as the
    position changes, refined while the player thinks, fewer and unrefined while
    autoplay runs; ``available=False``: never estimated (``--no-chance``, the setting)."""

    def __init__(self, screen: GameScreen, estimator: Estimator | None = None, available: bool = True) -> None:
        self._screen = screen
        self._book = ChanceBook(estimator=estimator)
        #: Whether an estimator can be loaded here (``None``: not tried yet).
        self.available: bool | None = None if available and estimator is None else available
        self._cache: Kept[str, Pooled | Exception] = Kept(BOOK_SIZE)  # the latest answer of each position
        # The fields below are kept on the UI thread; a worker only computes.
        self._next: tuple[Position, bool] | None = None  # the latest asked for, while one runs
        self._busy = False
        self._asked = 0.0
        self._refine_timer: Timer | None = None

    def _wanted(self) -> Position | None:
        """The position whose figure to show, or ``None`` (and no stale figure shown)
        when none is: the game is over, or the side bar says it comes out."""
        screen = self._screen
        if screen.pos.status != "playing" or screen.view.comes_out:
            screen.chance_answer = None
            return None
        return screen.pos

    def request(self, refine: bool = False) -> None:
        """Ask for the figure of the position on the table (``refine``: the policy's
        next round of the one shown)."""
        if self._refine_timer is not None and not refine:
            self._refine_timer.stop()
            self._refine_timer = None
        pos = None if self.available is False else self._wanted()
        if pos is None:
            return
        now = time.monotonic()
        if self._screen.auto and now - self._asked < AUTO_CHANCE_INTERVAL_S:
            return  # autoplay: a fresh figure now and then is enough, and keeps the CPU for play
        self._asked = now
        self._next = (pos, refine)
        if not self._busy:
            self._run_next()

    def _run_next(self) -> None:
        """Start the estimate asked for last, if any, on a worker thread."""
        wanted, self._next = self._next, None
        self._busy = wanted is not None
        if wanted is not None:
            self._screen.run_worker(partial(self._work, *wanted), thread=True, group="chance", exit_on_error=False)

    def _work(self, pos: Position, refine: bool) -> None:  # on the worker thread
        answer = self._compute(pos, refine)
        with contextlib.suppress(RuntimeError):  # the app is shutting down
            self._screen.app.call_from_thread(self._arrived, pos, answer)

    def _compute(self, pos: Position, refine: bool) -> Answer:
        if self.available is None:
            self.available = estimator_available()
        if not self.available:
            return None
        key = str(pos)
        known = self._cache.get(key)
        if known is not None and not (refine and refinable(known)):
            return known
        round_ = known.next_round if isinstance(known, Pooled) and known.next_round is not None else 0
        answer: Pooled | Exception
        try:
            answer = self._book.pooled(pos, round_)
        except Exception as e:
            # A failing estimator must not take the game down, nor the figure for the
            # rest of the session: this position says so, the next is tried afresh.
            answer = e
        self._cache.put(key, answer)
        return answer

    def _arrived(self, pos: Position, answer: Answer) -> None:
        self._run_next()
        if pos is not self._screen.pos:
            return  # a newer position is on the table; its estimate is on the way
        self._screen.chance_answer = answer
        if refinable(answer) and self._refine_timer is None:
            # The player is thinking: pool more samples of this position meanwhile.
            self._refine_timer = self._screen.set_timer(REFINE_DELAY_S, lambda: self._refine(pos))

    def _refine(self, pos: Position) -> None:
        self._refine_timer = None
        if not self._screen.auto and self._wanted() is pos:  # else the position moved on, or autoplay runs
            self.request(refine=True)
