"""The live chance-to-come-out figure, computed off the UI thread.

The estimator lives in ``firstlast.odds.live``: the fast forced line (``odds.fastline``;
its first call in a process builds or loads it), else the engine in pure Python,
both within a fixed time budget per estimate, the figure showing the interval reached.
It is imported lazily, on the worker thread, and if it cannot be imported the figure is
simply not shown. Only one estimate runs at a time: while it runs, newer
positions replace each other as the one to do next, so fast play (autoplay) never piles
up threads.

An estimate that fails (an estimator error on some position, e.g. a variant the kernel
cannot represent) is that position's answer only: the next position is estimated
afresh. While the player is idle the screen asks for *refinements* of the position on
the table: round ``r`` (0, 1, 2, …) plays a batch of samples with the seed
``odds.live.refine_seed(position, r)`` — the same rounds the page plays — and
``ChanceEstimate.merge`` pools it with the rounds before, so the interval narrows. The
figure is ``i18n.chance_text``, the one display rule of every face: only the precision
the samples support.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..engine import Position
from ..i18n import chance_text, t

if TYPE_CHECKING:
    from ..odds.live import ChanceEstimate


@dataclass(frozen=True, slots=True)
class Pooled:
    """An estimate pooled over ``rounds`` refinement rounds (``ChanceEstimate.merge``)."""

    estimate: ChanceEstimate
    rounds: int = 1

    @property
    def probability(self) -> float:
        return self.estimate.probability

    @property
    def low(self) -> float:
        return self.estimate.low

    @property
    def high(self) -> float:
        return self.estimate.high

    @property
    def samples(self) -> int:
        return self.estimate.samples

    @property
    def wins(self) -> int:
        return self.estimate.wins


@dataclass(frozen=True, slots=True)
class Failed:
    """The estimator failed on this position (``reason``: the error, for the curious)."""

    reason: str


#: What a request answers: an estimate, ``Failed`` for this position, or ``None`` when
#: no estimator can be loaded at all (the figure is not shown this session).
Answer = Pooled | Failed | None

#: ``chance_to_come_out(position, samples=…, seed=…)`` or a stand-in with that call.
Estimator = Callable[..., Any]
#: ``refine_seed(position, round)``: the seed of a refinement round.
Seeder = Callable[[Position, int], int]
CACHE_SIZE: Final = 4096
#: Refinement stops once a position has this many samples, or this many rounds.
REFINE_MAX_SAMPLES: Final = 400_000
REFINE_MAX_ROUNDS: Final = 40


def load_estimator() -> Estimator | None:
    """``chance_to_come_out`` if the odds package is installed and importable."""
    try:
        from ..odds.live import chance_to_come_out  # type: ignore[import-not-found,unused-ignore]
    except Exception:  # ImportError, or the module failing as it loads
        return None
    return chance_to_come_out  # type: ignore[no-any-return,unused-ignore]


def load_seeder() -> Seeder:
    """``odds.live.refine_seed`` (the estimator's module, so present whenever it is)."""
    from ..odds.live import refine_seed

    return refine_seed


def describe_answer(answer: Answer, lang: str = "en") -> str | None:
    """The side bar's line for ``answer`` in ``lang``; ``None`` hides the figure."""
    if answer is None:
        return None
    if isinstance(answer, Failed):
        return t(lang, "tui.chance.failed")
    return t(lang, "tui.chance.figure", chance=chance_text(answer.estimate, lang))


def winnable_note(dealt: str | None, status: str, lang: str = "en") -> str | None:
    """The line under the figure of a game dealt as a deal that comes out (the stored
    ``dealt``, as the page reads it): the figure is the chance of a deal that looks like
    this one, and this one comes out. ``None`` for any other game, or once it is over."""
    return t(lang, "chance.winnable") if dealt == "winnable" and status == "playing" else None


def refinable(answer: Answer) -> bool:
    """Whether more samples would still narrow ``answer``."""
    return (isinstance(answer, Pooled) and not answer.estimate.certain and answer.samples < REFINE_MAX_SAMPLES
            and answer.rounds < REFINE_MAX_ROUNDS and answer.high - answer.low > 0.002)


class ChanceRunner:
    """Runs the estimator for the latest requested position, one at a time.

    ``deliver(position, answer)`` is called from the worker thread; the app hands it
    over to the UI thread (``Answer``: ``None`` means the estimator is unavailable)."""

    def __init__(self, deliver: Callable[[Position, Answer], None], samples: int = 10_000,
                 estimator: Estimator | None = None, seeder: Seeder | None = None) -> None:
        self._deliver = deliver
        self._samples = samples
        self._estimator = estimator
        self._seeder = seeder
        self._loaded = estimator is not None
        self._lock = threading.Lock()
        self._wanted: tuple[Position, bool] | None = None
        self._busy = False
        self.available: bool | None = None if estimator is None else True
        self._cache: dict[str, Pooled | Failed] = {}

    def request(self, position: Position, start: Callable[[Callable[[], None]], None],
                refine: bool = False) -> None:
        """Ask for ``position``'s estimate (``refine``: pool another batch of samples
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
            self._estimator = load_estimator()
            self._loaded = True
            self.available = self._estimator is not None
        if self._estimator is None:
            return None
        key = str(pos)
        known = self._cache.get(key)
        if known is not None and not (refine and refinable(known)):
            return known
        rounds = known.rounds if isinstance(known, Pooled) else 0
        answer: Pooled | Failed
        try:
            if self._seeder is None:
                self._seeder = load_seeder()
            est: ChanceEstimate = self._estimator(pos, samples=self._samples, seed=self._seeder(pos, rounds))
            answer = Pooled(est if not isinstance(known, Pooled) else known.estimate.merge(est), rounds + 1)
        except Exception as e:
            # A failing estimator must not take the game down, nor the figure for the
            # rest of the session: this position says so, the next is tried afresh.
            answer = Failed(f"{type(e).__name__}: {e}"[:200])
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()  # positions are rarely revisited beyond undo/redo
        self._cache[key] = answer
        return answer
