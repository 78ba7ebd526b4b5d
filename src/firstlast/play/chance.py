"""The chance to come out as every face shows it: one policy, one cache (docs/odds.md,
"Refinement rounds"), and the story told and kept. The odds package is imported when
the first estimate is made, so a face can import this module where the odds are missing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Final

from ..engine import Game, Position
from .kept import Kept

if TYPE_CHECKING:  # for the faces too: the estimate's type comes through the play layer
    from ..odds.live import ChanceEstimate as ChanceEstimate
    from .story import Story

#: Samples of one round, in every face.
SAMPLES_PER_ROUND: Final = 20_000
#: Rounds pooled at most (rounds 0 … MAX_ROUNDS − 1): 400,000 samples, ±0.13 points at 25 %.
MAX_ROUNDS: Final = 20
#: Refining stops once the pooled 95 % interval is at most this wide.
STOP_WIDTH: Final = 0.002
#: Samples of one round where only the engine samples (no fast forced line): about half
#: a second's work, the same figure on every machine.
ENGINE_SAMPLES_PER_ROUND: Final = 200
#: Round estimates a ``ChanceBook`` keeps (the oldest goes first).
BOOK_SIZE: Final = 4096

#: ``estimator(position, samples=…, seed=…) -> ChanceEstimate``: ``round_estimate``'s
#: sampler (a stand-in in tests).
Estimator = Callable[..., Any]


def estimator_available() -> bool:
    """Whether the odds package can be imported here (else no face shows a chance)."""
    try:
        from ..odds import live  # noqa: F401
    except Exception:  # ImportError, or the module failing as it loads
        return False
    return True


def warm() -> str:
    """Load the sampler once (the fast forced line built or loaded, and played once), so
    that a position's first round spends its time sampling; the route it takes
    (``odds.fastline.backend_name``), or why there is none (the engine then samples)."""
    from ..odds import fastline
    from ..odds.live import chance_to_come_out

    chance_to_come_out(Position.deal(0), samples=1)
    return fastline.backend_name() or "engine (no fast line: " + "; ".join(fastline.why_not) + ")"


def one_round_per_ask(estimate: ChanceEstimate, samples: int) -> bool:
    """Whether an ask (one request) stops after the round that gave ``estimate``: when
    the engine sampled it alone (fewer samples than asked for: about half a second of CPU
    a round), so that no request costs more than about a second (issue 25.2)."""
    return not estimate.certain and estimate.samples < samples


def round_estimate(position: Position, round_: int, samples: int = SAMPLES_PER_ROUND,
                   estimator: Estimator | None = None) -> ChanceEstimate:
    """Round ``round_`` of ``position`` (at most ``ENGINE_SAMPLES_PER_ROUND`` samples
    without the fast forced line; never a time budget). Module-level and picklable, so
    the site can run it in its computing worker."""
    from ..odds import fastline
    from ..odds.live import chance_to_come_out, refine_seed

    seed = refine_seed(position, round_)
    if estimator is not None:
        return estimator(position, samples=samples, seed=seed)  # type: ignore[no-any-return]
    if not fastline.available():
        samples = min(samples, ENGINE_SAMPLES_PER_ROUND)
    return chance_to_come_out(position, samples=samples, seed=seed)


@dataclass(frozen=True, slots=True)
class Pooled:
    """Rounds ``0 … rounds − 1`` of one position merged (``estimate``), and the last of
    them alone (``latest``)."""

    estimate: ChanceEstimate
    latest: ChanceEstimate
    rounds: int = 1

    @property
    def next_round(self) -> int | None:
        """The round a face asks for next while the player is idle; ``None`` when more
        samples would add nothing worth showing (the policy's stop)."""
        e = self.estimate
        if e.certain or self.rounds >= MAX_ROUNDS or e.high - e.low <= STOP_WIDTH:
            return None
        return self.rounds


def decided(pos: Position) -> Pooled | None:
    """The chance of a game over: exact (1 won, else 0) and sampled by no one, so that
    neither the odds package nor the kernel (which need not handle ended games) is loaded
    for it; ``None`` while the game is played."""
    if pos.status == "playing":
        return None
    p = 1.0 if pos.status == "won" else 0.0
    exact = SimpleNamespace(probability=p, low=p, high=p, samples=0, wins=0, certain=True)  # an estimate's fields
    return Pooled(exact, exact)  # type: ignore[arg-type]


def pool(rounds: list[ChanceEstimate | None]) -> Pooled:
    """Rounds 0 … n − 1 of one position, in order, merged, up to the first not held
    (round 0 is)."""
    held: list[ChanceEstimate] = list(itertools.takewhile(lambda r: r is not None, rounds))  # type: ignore[arg-type]
    total = held[0]
    for est in held[1:]:
        if not (est.certain or total.certain):
            total = total.merge(est)
    return Pooled(total, held[-1], len(held))


class ChanceBook:
    """Round estimates by position, samples and round, so that each round is played once
    and the pooled figure is the same whoever asks. ``estimator`` replaces the sampler
    (tests)."""

    def __init__(self, estimator: Estimator | None = None) -> None:
        self.estimator = estimator
        self._rounds: Kept[tuple[str, int, int], ChanceEstimate] = Kept(BOOK_SIZE)

    def put(self, position: Position, round_: int, estimate: ChanceEstimate, samples: int = SAMPLES_PER_ROUND) -> None:
        self._rounds.put((str(position), samples, round_), estimate)

    def rounds(self, position: Position, round_: int, samples: int = SAMPLES_PER_ROUND) -> list[ChanceEstimate | None]:
        """Rounds ``0 … round_`` as held (``None``: not held)."""
        # The notation, not only what the player sees: the estimate shuffles the stock
        # in its turning order, so that order is part of what decides the samples.
        key = str(position)
        return [self._rounds.get((key, samples, r)) for r in range(round_ + 1)]

    def pooled(self, position: Position, round_: int) -> Pooled:
        """Rounds ``0 … round_`` of ``position`` pooled, the missing ones computed here
        (blocking: call it on a worker thread)."""
        rounds = self.rounds(position, round_)
        for r, held in enumerate(rounds):
            if held is None:
                rounds[r] = round_estimate(position, r, estimator=self.estimator)
                self.put(position, r, rounds[r])  # type: ignore[arg-type]
        return pool(rounds)


# ------------------------------------------------------------------------- stories
#: Stories a face keeps, by ``story_key``: a game that has not changed is told once.
STORIES_KEPT: Final = 64

StoryKey = tuple[int, str, str]


def story_key(game: Game) -> StoryKey:
    """What decides a game's story: its deal, variant and moves."""
    return (game.deal, game.variant.token, " ".join(str(m) for m in game.moves))


def tell_story(game: Game) -> Story:
    """``game``'s story by the faces' policy (blocking; module-level, so the site's
    computing worker can run it; ``ImportError`` where the odds are missing)."""
    from .story import story_of

    return story_of(game)


def story_book() -> Kept[StoryKey, Story]:
    return Kept(STORIES_KEPT)


def kept_story(stories: Kept[StoryKey, Story], game: Game) -> Story:
    """``game``'s story as kept in ``stories``, or told now and kept (blocking)."""
    key = story_key(game)
    story = stories.get(key)
    if story is None:
        story = tell_story(game)
        stories.put(key, story)
    return story
