"""Live odds: the chance that a position comes out, estimated by sampling the unknowns.

What the player cannot know is the order of the face-down stock and the shuffles of
future redeals. Everything visible (first row, reserve, piles, the waste in its order,
redeals used, variant) is kept. Each sample shuffles the stock uniformly and plays the
forced line to the end with random redeals, each sample from its own random stream
derived from ``seed``, so an estimate is reproducible.

The sampling runs in the compiled kernel (``odds.kernel``, a derived implementation).
``replay_sample`` plays any one sample with the engine instead: the same stock order
and the same redeal shuffles, supplied to ``Position`` as chance outcomes
(``Position.apply(REDEAL, shuffle=…)``), so every sample can be checked against the
rules themselves.

>>> from firstlast.engine import Position
>>> est = chance_to_come_out(Position.deal(1), samples=2000)
>>> 0.0 <= est.low <= est.probability <= est.high <= 1.0
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..engine import REDEAL, Position
from ..engine.rng import shuffle
from .kernel import RankPosition, play_line, sample_lines, sample_start
from .stats import wilson

#: Largest seed: seeds are 64-bit, like deal numbers.
MAX_SEED = 2**64 - 1


@dataclass(frozen=True, slots=True)
class ChanceEstimate:
    """Estimated probability of coming out, with its 95 % Wilson interval."""

    probability: float
    low: float
    high: float
    samples: int

    def __str__(self) -> str:
        return (f"{100 * self.probability:.1f} % (95 % CI {100 * self.low:.1f}–{100 * self.high:.1f} %, "
                f"{self.samples:,} samples)")

    def to_json(self) -> dict[str, float | int]:
        return {"probability": self.probability, "low": self.low, "high": self.high, "samples": self.samples}


def play_position(pos: Position) -> tuple[bool, int, int]:
    """Play ``pos`` out as it stands (its stock order, its stream for the redeals),
    compiled: (won, score, passes), the same as ``pos.play_forced()``."""
    if pos.active is None:
        return True, 104, pos.passes
    return play_line(RankPosition.of(pos), pos.rng)


def sample_outcomes(pos: Position, samples: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-sample results (won, score, passes) of playing ``pos`` out; see the module doc."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples <= 0:
        raise ValueError(f"samples must be a whole number > 0, not {samples!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be 0…{MAX_SEED}, not {seed}")
    if pos.active is None:  # already won: nothing is unknown
        return (np.ones(samples, np.bool_), np.full(samples, 104, np.int8),
                np.full(samples, pos.passes, np.int32))
    return sample_lines(RankPosition.of(pos), samples, seed)


def replay_sample(pos: Position, i: int, seed: int = 0) -> Position:
    """Sample ``i`` of ``sample_outcomes(pos, …, seed)`` played by the engine: the end
    of its forced line, whose outcome (won, score, passes) is the sample's.

    The sample's stream (``kernel.sample_start``) first shuffles the stock (Fisher–Yates
    of the stock in turning order, §4.3), then the shuffle of each redeal (§4.6); here
    those shuffles are drawn in Python and supplied to ``Position`` as the redeals'
    chance outcomes, so the rules, not the kernel, play the line."""
    stream = sample_start(seed, i)
    order = list(range(len(pos.stock)))
    stream = shuffle(stream, order)
    pos = dataclasses.replace(pos, stock=tuple(pos.stock[j] for j in order))
    while (move := pos.forced_move()) is not None:
        if move == REDEAL:
            order = list(range(len(pos.waste)))
            stream = shuffle(stream, order)
            pos, _ = pos.apply(move, shuffle=order)
        else:
            pos, _ = pos.apply(move)
    return pos


def chance_to_come_out(position: Position, samples: int = 10_000, seed: int = 0) -> ChanceEstimate:
    """Chance that ``position`` comes out along the forced line, with a 95 % Wilson
    interval, from ``samples`` plays of the unseen stock order and future redeals."""
    won, _, _ = sample_outcomes(position, samples, seed)
    wins = int(np.count_nonzero(won))
    low, high = wilson(wins, samples)
    return ChanceEstimate(wins / samples, low, high, samples)
