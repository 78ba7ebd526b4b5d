"""Intervals and tallies of many games, with the standard library only: the live chance
needs nothing beyond the default install, and a ``Tally`` holds counts, never per-game
results (``Kernel.count_deals`` answers one), so a run of millions of games needs no numpy.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress, zip_longest
from statistics import NormalDist
from typing import Final

from ..engine import Variant

#: The four families of the odds table (waste playable, privileged last card), in its
#: order (docs/odds.md; the story's what-if names them too, so the site ships it here).
FAMILIES: Final = ((False, True), (True, True), (False, False), (True, False))
#: The table's redeal counts (None: unlimited), within each family.
TABLE_REDEALS: Final = (0, 1, 2, 3, None)
#: The table's 20 variants, in its order.
VARIANTS: Final = tuple(Variant(r, wp, pr) for wp, pr in FAMILIES for r in TABLE_REDEALS)
#: Redeal counts 0 … STUCK_PASSES − 1 that an ``UnlimitedTally`` counts too (as many as
#: the kernel's ``fl_tally_stuck`` records).
STUCK_PASSES: Final = 16


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval for ``successes`` out of ``trials`` (trials > 0),
    without continuity correction (Wilson 1927; Newcombe 1998, method 3)."""
    if trials <= 0:
        raise ValueError("trials must be > 0")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be 0…{trials}, not {successes}")
    n = int(trials)
    p = int(successes) / n
    z = NormalDist().inv_cdf(0.975)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # The exact ends: no successes, no interval below 0; all successes, none above 1.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def _trim(counts: Sequence[int]) -> tuple[int, ...]:
    """``counts`` without trailing zeros, at least one entry."""
    n = len(counts)
    while n > 1 and counts[n - 1] == 0:
        n -= 1
    return tuple(counts[:n]) if n else (0,)


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip_longest(a, b, fillvalue=0))


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
        object.__setattr__(self, "passes_won", _trim(self.passes_won))
        object.__setattr__(self, "passes_all", _trim(self.passes_all))

    @classmethod
    def of(cls, variant: Variant, won: Iterable[int | bool], score: Iterable[int], passes: Iterable[int]) -> Tally:
        """Tally per-game results (the kernels' ``Lines``, lists, numpy arrays)."""
        won_l = [bool(w) for w in won]
        score_c = Counter(int(s) for s in score)
        passes_l = [int(p) for p in passes]
        if len(passes_l) != len(won_l) or sum(score_c.values()) != len(won_l):
            raise ValueError("won, score and passes must have one entry per game")
        if any(not 0 <= s <= 104 for s in score_c) or any(p < 0 for p in passes_l):
            raise ValueError("scores are 0…104 and passes ≥ 0")
        every, won_c = Counter(passes_l), Counter(compress(passes_l, won_l))
        top = max(every, default=0) + 1
        return cls(variant, len(won_l), sum(won_l), tuple(won_c.get(p, 0) for p in range(top)),
                   tuple(every.get(p, 0) for p in range(top)), tuple(score_c.get(s, 0) for s in range(105)))

    def __add__(self, other: Tally) -> Tally:
        if other.variant != self.variant:
            raise ValueError("cannot add tallies of different variants")
        return Tally(self.variant, self.games + other.games, self.wins + other.wins,
                     _add(self.passes_won, other.passes_won), _add(self.passes_all, other.passes_all),
                     _add(self.scores, other.scores))

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
    tally of those deals with r redeals, exactly (docs/odds.md, "Passes needed")."""

    unlimited: Tally
    stuck: tuple[tuple[int, ...], ...] = field(default=((0,) * 105,) * STUCK_PASSES)

    def __post_init__(self) -> None:
        if self.unlimited.variant.redeals is not None:
            raise ValueError(f"an unlimited tally is of unlimited redeals, not {self.unlimited.variant.token}")
        if len(self.stuck) != STUCK_PASSES or any(len(h) != 105 for h in self.stuck):
            raise ValueError(f"stuck holds {STUCK_PASSES} histograms of 105 scores")
        object.__setattr__(self, "stuck", tuple(tuple(h) for h in self.stuck))

    @property
    def variant(self) -> Variant:
        return self.unlimited.variant

    def __add__(self, other: UnlimitedTally) -> UnlimitedTally:
        if other.variant != self.variant:
            raise ValueError("cannot add tallies of different variants")
        return UnlimitedTally(self.unlimited + other.unlimited,
                              tuple(_add(a, b) for a, b in zip(self.stuck, other.stuck, strict=True)))

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

    def rows(self, redeals: Iterable[int | None]) -> list[Tally]:
        """Tallies of these deals with each of ``redeals`` (None: the unlimited run itself)."""
        return [self.unlimited if r is None else self.finite(r) for r in redeals]
