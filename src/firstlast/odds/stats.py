"""Intervals and tallies of many games (numpy: the ``fast`` extra).

The Wilson score interval lives in ``odds.interval`` (standard library only) and is
re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine import Variant
from .interval import wilson

__all__ = ["Tally", "wilson"]


def _add_hist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = max(a.shape[0], b.shape[0])
    out = np.zeros(n, np.int64)
    out[:a.shape[0]] += a
    out[:b.shape[0]] += b
    return out


@dataclass(frozen=True)
class Tally:
    """Counts from a set of games of one variant; tallies of disjoint sets add up.

    ``passes_won[p]``: games won using p passes; ``passes_all[p]``: games (won or lost)
    that used p passes; ``scores[s]``: games ending with s cards on the piles (104 = won).
    """

    variant: Variant
    games: int = 0
    wins: int = 0
    passes_won: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    passes_all: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    scores: np.ndarray = field(default_factory=lambda: np.zeros(105, np.int64))

    @classmethod
    def of(cls, variant: Variant, won: np.ndarray, score: np.ndarray, passes: np.ndarray) -> Tally:
        """Tally the per-game result arrays of the kernels."""
        return cls(
            variant=variant,
            games=int(won.shape[0]),
            wins=int(np.count_nonzero(won)),
            passes_won=np.bincount(passes[won], minlength=1).astype(np.int64),
            passes_all=np.bincount(passes, minlength=1).astype(np.int64),
            scores=np.bincount(score.astype(np.int64), minlength=105).astype(np.int64),
        )

    def __add__(self, other: Tally) -> Tally:
        if other.variant != self.variant:
            raise ValueError("cannot add tallies of different variants")
        return Tally(self.variant, self.games + other.games, self.wins + other.wins,
                     _add_hist(self.passes_won, other.passes_won), _add_hist(self.passes_all, other.passes_all),
                     _add_hist(self.scores, other.scores))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        return (self.variant == other.variant and self.games == other.games and self.wins == other.wins
                and _same(self.passes_won, other.passes_won) and _same(self.passes_all, other.passes_all)
                and _same(self.scores, other.scores))

    __hash__ = None  # type: ignore[assignment]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def mean_score(self) -> float:
        return float((np.arange(self.scores.shape[0]) * self.scores).sum() / self.games) if self.games else 0.0

    def mean_passes_won(self) -> float:
        """Mean passes the won games needed (NaN when none was won)."""
        if not self.wins:
            return float("nan")
        return float((np.arange(self.passes_won.shape[0]) * self.passes_won).sum() / self.wins)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval() if self.games else (0.0, 1.0)
        return {
            "variant": self.variant.token,
            "description": self.variant.describe(),
            "redeals": self.variant.redeals,
            "waste_playable": self.variant.waste_playable,
            "privileged_last": self.variant.privileged_last,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci_low": low,
            "ci_high": high,
            "mean_score": self.mean_score(),
            "passes_won": {str(p): int(n) for p, n in enumerate(self.passes_won) if n},
            "passes_all": {str(p): int(n) for p, n in enumerate(self.passes_all) if n},
            "scores": {str(s): int(n) for s, n in enumerate(self.scores) if n},
        }


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    n = max(a.shape[0], b.shape[0])
    return bool(np.array_equal(np.pad(a, (0, n - a.shape[0])), np.pad(b, (0, n - b.shape[0]))))
