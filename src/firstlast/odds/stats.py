"""Intervals and tallies of many games (standard library only).

The Wilson score interval lives in ``odds.interval`` and is re-exported here. A
``Tally`` holds counts, never per-game results: the kernel counts a run's deals itself
(``fastline.count_deals``), so a run of millions of games needs no numpy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import Variant
from .fastline import DealCounts, add_counts, count_lines, trim_counts
from .interval import wilson

__all__ = ["Tally", "wilson"]


@dataclass(frozen=True)
class Tally:
    """Counts from a set of games of one variant; tallies of disjoint sets add up.

    ``passes_won[p]``: games won using p passes; ``passes_all[p]``: games (won or lost)
    that used p passes (both without trailing zeros, at least one entry);
    ``scores[s]``: games ending with s cards on the piles (105 entries, 104 = won).
    """

    variant: Variant
    games: int = 0
    wins: int = 0
    passes_won: tuple[int, ...] = (0,)
    passes_all: tuple[int, ...] = (0,)
    scores: tuple[int, ...] = field(default=(0,) * 105)

    def __post_init__(self) -> None:  # one spelling of each tally, so that == compares counts
        if len(self.scores) != 105:
            raise ValueError("scores has 105 entries (0…104 cards on the piles)")
        object.__setattr__(self, "scores", tuple(self.scores))
        object.__setattr__(self, "passes_won", trim_counts(self.passes_won))
        object.__setattr__(self, "passes_all", trim_counts(self.passes_all))

    @classmethod
    def of_counts(cls, variant: Variant, counts: DealCounts) -> Tally:
        """The tally of the counts the kernel made (``fastline.count_deals``)."""
        return cls(variant, counts.games, counts.wins, counts.passes_won, counts.passes_all, counts.scores)

    @classmethod
    def of(cls, variant: Variant, won: Iterable[int | bool], score: Iterable[int], passes: Iterable[int]) -> Tally:
        """Tally per-game results (the kernels' ``Lines``, lists, numpy arrays)."""
        return cls.of_counts(variant, count_lines(won, score, passes))

    def counts(self) -> DealCounts:
        return DealCounts(self.games, self.wins, self.scores, self.passes_all, self.passes_won)

    def __add__(self, other: Tally) -> Tally:
        if other.variant != self.variant:
            raise ValueError("cannot add tallies of different variants")
        return Tally.of_counts(self.variant, add_counts(self.counts(), other.counts()))

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def mean_score(self) -> float:
        return sum(s * n for s, n in enumerate(self.scores)) / self.games if self.games else 0.0

    def mean_passes_won(self) -> float:
        """Mean passes the won games needed (NaN when none was won)."""
        if not self.wins:
            return float("nan")
        return sum(p * n for p, n in enumerate(self.passes_won)) / self.wins

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
            "passes_won": {str(p): n for p, n in enumerate(self.passes_won) if n},
            "passes_all": {str(p): n for p, n in enumerate(self.passes_all) if n},
            "scores": {str(s): n for s, n in enumerate(self.scores) if n},
        }
