"""Live odds: the chance that a position comes out, estimated by sampling the unknowns.

What the player cannot know is the order of the face-down stock and the shuffles of
future redeals. Everything visible (first row, reserve, piles, the waste in its order,
redeals used, variant) is kept. Each sample shuffles the stock uniformly and plays the
forced line to the end with random redeals, each sample from its own random stream
derived from ``seed``, so an estimate is reproducible.

>>> from firstlast.engine import Position
>>> est = chance_to_come_out(Position.deal(1), samples=2000)
>>> 0.0 <= est.low <= est.probability <= est.high <= 1.0
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import Position
from .kernel import _chance, _line, redeals_arg
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


@dataclass(frozen=True, slots=True)
class _Arrays:
    first: np.ndarray
    rcount: np.ndarray
    stock: np.ndarray
    waste: np.ndarray
    k: int
    held: int


def _arrays(pos: Position) -> _Arrays:
    """The position as the kernel's rank arrays (ranks 0…12, −1 for a gap)."""
    k = pos.active
    assert k is not None
    first = np.array([-1 if c is None else c.rank - 1 for c in pos.first], dtype=np.int8)
    rcount = np.zeros(13, dtype=np.int64)
    for c in pos.reserve:
        if c is not None:
            rcount[c.rank - 1] += 1
    stock = np.array([c.rank - 1 for c in pos.stock], dtype=np.int8)
    waste = np.array([c.rank - 1 for c in pos.waste], dtype=np.int8)
    return _Arrays(first, rcount, stock, waste, k, len(pos.piles[k]))


def play_position(pos: Position) -> tuple[bool, int, int]:
    """Play ``pos`` out as it stands (its stock order, its stream for the redeals),
    compiled: (won, score, passes), the same as walking ``pos.forced_move()`` to the end."""
    if pos.active is None:
        return True, 104, pos.passes
    a = _arrays(pos)
    v = pos.variant
    left = pos.redeals_left
    stock = np.empty(104, np.int8)
    stock[:a.stock.shape[0]] = a.stock
    waste = np.empty(104, np.int8)
    waste[:a.waste.shape[0]] = a.waste
    w, sc, p = _line(a.first, a.rcount, stock, 0, a.stock.shape[0], waste, a.waste.shape[0], a.k, a.held,
                     pos.redeals_used, redeals_arg(v) if left is None else left, v.waste_playable,
                     v.privileged_last, np.array(pos.rng, dtype=np.uint64))
    return bool(w), int(sc), int(p)


def sample_outcomes(pos: Position, samples: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-sample results (won, score, passes) of playing ``pos`` out; see the module doc."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples <= 0:
        raise ValueError(f"samples must be a whole number > 0, not {samples!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be 0…{MAX_SEED}, not {seed}")
    won = np.empty(samples, np.bool_)
    score = np.empty(samples, np.int8)
    passes = np.empty(samples, np.int32)
    if pos.active is None:  # already won: nothing is unknown
        won[:] = True
        score[:] = 104
        passes[:] = pos.passes
        return won, score, passes
    a = _arrays(pos)
    v = pos.variant
    left = pos.redeals_left
    _chance(a.first, a.rcount, a.stock, a.waste, a.k, a.held, pos.redeals_used,
            redeals_arg(v) if left is None else left, v.waste_playable, v.privileged_last,
            samples, np.uint64(seed), won, score, passes)
    return won, score, passes


def chance_to_come_out(position: Position, samples: int = 10_000, seed: int = 0) -> ChanceEstimate:
    """Chance that ``position`` comes out along the forced line, with a 95 % Wilson
    interval, from ``samples`` plays of the unseen stock order and future redeals."""
    won, _, _ = sample_outcomes(position, samples, seed)
    wins = int(np.count_nonzero(won))
    low, high = wilson(wins, samples)
    return ChanceEstimate(wins / samples, low, high, samples)
