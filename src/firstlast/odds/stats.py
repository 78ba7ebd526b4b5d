"""Intervals and tallies of many games (standard library only).

The Wilson score interval lives in ``odds.interval`` and is re-exported here. A
``Tally`` holds counts, never per-game results: the kernel counts a run's deals itself
(``fastline.count_deals``), so a run of millions of games needs no numpy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import Variant
from .fastline import STUCK_PASSES, DealCounts, UnlimitedCounts, add_counts, add_unlimited, count_lines, trim_counts
from .interval import wilson

__all__ = ["STUCK_PASSES", "Tally", "UnlimitedTally", "wilson"]


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


@dataclass(frozen=True)
class UnlimitedTally:
    """A run with unlimited redeals (``unlimited``, a ``Tally``) and what the same deals
    do with r = 0 … STUCK_PASSES − 1 redeals: ``stuck[r][s]`` deals that do not come out
    with r redeals and stop with s cards on the piles. ``finite(r)`` is then the whole
    tally of those deals with r redeals, exactly as a run of them would count it.

    Why (docs/odds.md): a game with r redeals plays exactly the first r + 1 passes of the
    same deal with unlimited redeals — the same cards, the same stream for the shuffles
    (rules §4.6) — so it is won exactly when the unlimited game needs at most r + 1
    passes, in as many passes, and otherwise stops after pass r + 1 where the unlimited
    game makes its (r + 1)-th redeal (``fastline.count_unlimited`` records that score)."""

    unlimited: Tally
    stuck: tuple[tuple[int, ...], ...] = field(default=((0,) * 105,) * STUCK_PASSES)

    def __post_init__(self) -> None:
        if self.unlimited.variant.redeals is not None:
            raise ValueError(f"an unlimited tally is of unlimited redeals, not {self.unlimited.variant.token}")
        if len(self.stuck) != STUCK_PASSES or any(len(h) != 105 for h in self.stuck):
            raise ValueError(f"stuck holds {STUCK_PASSES} histograms of 105 scores")
        object.__setattr__(self, "stuck", tuple(tuple(h) for h in self.stuck))

    @classmethod
    def of_counts(cls, variant: Variant, counts: UnlimitedCounts) -> UnlimitedTally:
        """The tally of what ``fastline.count_unlimited`` counted."""
        return cls(Tally.of_counts(variant, counts.counts), counts.stuck)

    @classmethod
    def empty(cls, variant: Variant) -> UnlimitedTally:
        return cls(Tally(variant))

    @property
    def variant(self) -> Variant:
        return self.unlimited.variant

    @property
    def games(self) -> int:
        return self.unlimited.games

    def __add__(self, other: UnlimitedTally) -> UnlimitedTally:
        if other.variant != self.variant:
            raise ValueError("cannot add tallies of different variants")
        got = add_unlimited(UnlimitedCounts(self.unlimited.counts(), self.stuck),
                            UnlimitedCounts(other.unlimited.counts(), other.stuck))
        return UnlimitedTally.of_counts(self.variant, got)

    def finite(self, redeals: int) -> Tally:
        """The tally of the same deals with ``redeals`` redeals (0 … STUCK_PASSES − 1).

        Wins: the games the unlimited run won within redeals + 1 passes, in as many
        passes; every other game stops after at most redeals + 1 passes (a game the
        unlimited run itself lost earlier — none is — stops there as it did), with the
        score recorded in ``stuck[redeals]``."""
        if isinstance(redeals, bool) or not isinstance(redeals, int) or not 0 <= redeals < STUCK_PASSES:
            raise ValueError(f"redeals must be 0…{STUCK_PASSES - 1}, not {redeals!r}")
        u = self.unlimited
        last = redeals + 1  # passes the game has at most
        passes_won = u.passes_won[:last + 1]
        wins = sum(passes_won)
        lost = self.stuck[redeals]
        if wins + sum(lost) != u.games:
            raise ValueError("inconsistent counts: the stuck histogram and the passes do not add up")
        ended = list(u.passes_all[:last])  # games over within `redeals` passes: as they were
        passes_all = [*ended, *([0] * (last - len(ended))), u.games - sum(ended)]
        scores = list(lost)
        scores[104] += wins
        return Tally(Variant(redeals, self.variant.waste_playable, self.variant.privileged_last), u.games, wins,
                     passes_won, tuple(passes_all), tuple(scores))

    def rows(self, redeals: Iterable[int | None] = (0, 1, 2, 3, None)) -> list[Tally]:
        """Tallies of these deals with each of ``redeals`` (None: the unlimited run itself)."""
        return [self.unlimited if r is None else self.finite(r) for r in redeals]
