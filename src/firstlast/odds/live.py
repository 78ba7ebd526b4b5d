"""Live odds: the chance that a position comes out, estimated by sampling what the player
cannot know, the stock's order and the redeals' shuffles (docs/odds.md, "Live chance of
a position"). Sample ``i`` draws everything from its own stream (``sample_stream``), so
the fast forced line (``sample_outcomes``) and the engine (``engine_sample``) play the
very same sample ``i``, and ``refine_seed`` seeds reproducible, independent rounds that
``merge`` pools.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..engine import Position
from ..engine.cards import Card
from ..engine.rng import MASK64, RngState, shuffle, splitmix64
from ..engine.rng import seed as rng_seed
from . import fastline
from .stats import wilson

#: Largest seed: seeds are 64-bit, like deal numbers.
MAX_SEED = 2**64 - 1

Sampler = Literal["auto", "kernel", "engine"]


@dataclass(frozen=True, slots=True)
class ChanceEstimate:
    """Estimated probability of coming out: ``wins`` of ``samples``, with its 95 % Wilson
    interval. ``certain``: nothing about the position is unknown any more (won, stuck,
    or at most one stock card and no redeal left), so ``probability`` is exact, 0 or 1."""

    probability: float
    low: float
    high: float
    samples: int
    wins: int
    certain: bool = False

    @classmethod
    def of(cls, wins: int, samples: int, certain: bool = False) -> ChanceEstimate:
        """The estimate of ``wins`` out of ``samples``, its interval computed."""
        low, high = wilson(wins, samples)
        return cls(wins / samples, low, high, samples, wins, certain)

    def merge(self, other: ChanceEstimate) -> ChanceEstimate:
        """Both estimates pooled (docs/odds.md): only for independent estimates of one
        position, such as refinement rounds; the same samples counted twice would give an
        interval narrower than the evidence."""
        if self.certain != other.certain or (self.certain and self.probability != other.probability):
            raise ValueError("cannot merge estimates of different positions (one is certain, the other not)")
        return ChanceEstimate.of(self.wins + other.wins, self.samples + other.samples, self.certain)

    def to_json(self) -> dict[str, float | int | bool]:
        return dataclasses.asdict(self)


def position_key(position: Position) -> str:
    """What the player can see of ``position``, as text (the stock's cards sorted: their
    order is what the estimate does not know). Positions that look alike share it."""
    def row(cards: Iterable[Card | None]) -> str:
        return " ".join("--" if c is None else c.token for c in cards)

    piles = "/".join(row(p) for p in position.piles)
    stock = " ".join(sorted(c.token for c in position.stock))
    return (f"{position.variant.token}|{row(position.first)}|{row(position.reserve)}|{stock}|"
            f"{row(position.waste)}|{piles}|{position.redeals_used}")


def refine_seed(position: Position, round: int) -> int:
    """The sampling seed of refinement round ``round`` (0, 1, 2, …) for ``position``
    (docs/odds.md, "Refinement rounds")."""
    if isinstance(round, bool) or not isinstance(round, int) or not 0 <= round < 2**63:
        raise ValueError(f"round must be a whole number 0…2^63−1, not {round!r}")
    digest = hashlib.blake2b(f"{position_key(position)}#{round}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def sample_stream(seed: int, i: int) -> RngState:
    """The stream sample ``i`` of ``seed`` draws from (the kernel's ``fl_sample_start``,
    in pure Python): the §4.1 seeding of (the SplitMix64 output of ``seed``) + ``i``, modulo
    2^64. It shuffles the stock (Fisher–Yates in turning order, §4.3), then each redeal
    it makes (§4.6)."""
    if not (0 <= seed <= MAX_SEED and 0 <= i < 2**63):
        raise ValueError(f"seed 0…2^64−1 and sample 0…2^63−1, not {seed}, {i}")
    return rng_seed((splitmix64(seed)[1] + i) & MASK64)


def sample_position(pos: Position, i: int, seed: int) -> Position:
    """Sample ``i``'s version of ``pos``: the stock in the order the sample's stream
    shuffles it to, and that stream (after the shuffle) as the position's ``rng``, which
    its redeals continue (§4.6). Nothing else changes."""
    stock = list(pos.stock)
    stream = shuffle(sample_stream(seed, i), stock)
    return dataclasses.replace(pos, stock=tuple(stock), rng=stream)


def engine_sample(pos: Position, i: int, seed: int) -> tuple[bool, int, int]:
    """Sample ``i`` played by the engine: (won, score, passes) of ``play_forced`` from
    ``sample_position(pos, i, seed)``; the same as the kernel's sample ``i``."""
    if pos.active is None:
        return True, 104, pos.passes
    end = sample_position(pos, i, seed).play_forced()
    return end.status == "won", end.score, end.passes


def sample_outcomes(pos: Position, samples: int, seed: int = 0) -> fastline.Lines:
    """Per-sample results (won, score, passes) of samples 0 … ``samples`` − 1 of a position
    still playing, played by the fast forced line (``fastline.Unavailable`` where none
    runs): ``engine_sample``'s, all at once."""
    return fastline.need().sample_lines(fastline.RankPosition.of(pos), samples, seed)


def chance_to_come_out(position: Position, samples: int = 10_000, seed: int = 0,
                       sampler: Sampler = "auto") -> ChanceEstimate:
    """Chance that ``position`` comes out along the forced line, with a 95 % Wilson
    interval, from ``samples`` plays of the unseen stock order and future redeals (no
    clock: the same figure on every machine). ``sampler``: ``"kernel"`` (the fast forced
    line), ``"engine"`` (pure Python) or ``"auto"`` (the kernel where it runs)."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples <= 0:
        raise ValueError(f"samples must be a whole number > 0, not {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be 0…{MAX_SEED}, not {seed!r}")
    if sampler not in ("auto", "kernel", "engine"):
        raise ValueError(f"sampler must be 'auto', 'kernel' or 'engine', not {sampler!r}")
    if position.active is None:  # already won: nothing is unknown
        return ChanceEstimate.of(samples, samples, certain=True)
    if sampler == "kernel" or (sampler == "auto" and fastline.available()):
        wins = sample_outcomes(position, samples, seed).won.count(1)
    else:
        wins = sum(engine_sample(position, i, seed)[0] for i in range(samples))
    # Nothing is unknown when stuck (R11), or with a stock of at most one card (its order
    # known) and no redeal left (no shuffle to come): every sample plays the same line.
    certain = position.status != "playing" or (len(position.stock) <= 1 and position.redeals_left == 0)
    return ChanceEstimate.of(wins, samples, certain=certain)
