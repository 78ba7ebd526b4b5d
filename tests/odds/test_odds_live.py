"""Live chances: the position kernel is the engine's forced line, and sampling is fair."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest

from firstlast.engine import REDEAL, Game, Position, Variant, position_from_text
from firstlast.engine.rng import MASK64, seed, shuffle, splitmix64
from firstlast.odds.kernel import sample_start
from firstlast.odds.live import (
    ChanceEstimate,
    chance_to_come_out,
    play_position,
    replay_sample,
    sample_outcomes,
)

VARIANTS = [Variant(r, wp, pr) for r in (0, 1, 3, None) for wp in (False, True) for pr in (True, False)]


def _finish(pos: Position) -> Position:
    """The engine's forced line from ``pos`` to the end."""
    while (m := pos.forced_move()) is not None:
        pos, _ = pos.apply(m)
    return pos


def _outcome(pos: Position) -> tuple[bool, int, int]:
    return pos.status == "won", pos.score, pos.passes


def _walk_until(deal: int, variant: Variant, stop: int) -> Position:
    """The position of ``deal`` once ``redeals_left == 0`` and the stock holds ≤ ``stop`` cards."""
    g = Game(deal, variant)
    while g.position.status == "playing" and not (g.position.redeals_left == 0 and len(g.position.stock) <= stop):
        g.step()
    return g.position


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.token)
def test_play_position_equals_engine_everywhere_along_games(variant: Variant) -> None:
    rnd = random.Random(variant.token)
    for deal in (rnd.randrange(2**64) for _ in range(3)):
        g = Game(deal, variant)
        g.autoplay()
        want = _outcome(g.position)
        g.restart()
        i = 0
        while True:
            if i % 11 == 0:
                # Through the notation, as a client would send it.
                assert play_position(position_from_text(str(g.position))) == want, (deal, i)
            if g.step() is None:
                break
            i += 1
        assert play_position(g.position) == want


def test_each_sample_is_the_engine_fed_the_samples_shuffles() -> None:
    # The sampler draws, from sample i's own stream, the stock order and then each
    # redeal's shuffle. Feeding those same shuffles to the engine as chance outcomes
    # (Position.apply(REDEAL, shuffle=…)) must give every sample's result exactly.
    rnd = random.Random(99)
    checked = redeals = 0
    for variant in VARIANTS:
        g = Game(rnd.randrange(2**64), variant)
        g.autoplay()
        for pos in (g.positions[0], g.positions[len(g.positions) // 3], g.positions[-2]):
            sd = rnd.randrange(2**64)
            won, score, passes = sample_outcomes(pos, 12, seed=sd)
            for i in range(12):
                end = replay_sample(pos, i, sd)
                assert (end.status == "won", end.score, end.passes) == (
                    bool(won[i]), int(score[i]), int(passes[i])), (variant.token, i)
                redeals += end.redeals_used - pos.redeals_used
                checked += 1
    assert checked == 16 * 3 * 12 and redeals > 300  # the redeal shuffles were exercised


def test_replayed_samples_draw_the_documented_stream() -> None:
    # sample_start: §4.1 seeding of (SplitMix64 output of the seed) + i, modulo 2^64; the
    # stream then shuffles the stock, then each redeal's waste, in that order.
    for sd in (0, 1, 2**64 - 1):
        for i in (0, 1, 2**63 - 1):
            assert sample_start(sd, i) == seed((splitmix64(sd)[1] + i) & MASK64)
    with pytest.raises(ValueError):
        sample_start(0, -1)
    pos = Position.deal(1)
    end = replay_sample(pos, 3, 5)
    stream = sample_start(5, 3)
    order = list(range(len(pos.stock)))
    stream = shuffle(stream, order)
    walk = dataclasses.replace(pos, stock=tuple(pos.stock[j] for j in order))
    while (m := walk.forced_move()) is not None:
        if m == REDEAL:
            order = list(range(len(walk.waste)))
            stream = shuffle(stream, order)
        walk, _ = walk.apply(m, shuffle=order if m == REDEAL else None)
    assert walk == end and end.redeals_used == 3


def test_fully_known_positions_are_certain() -> None:
    # No redeals left and a stock of at most one card: nothing is unknown any more.
    seen = set()
    for deal in range(40):
        pos = position_from_text(str(_walk_until(deal, Variant(), 1)))
        won = _finish(pos).status == "won"
        est = chance_to_come_out(pos, samples=500, seed=deal)
        assert est.probability == (1.0 if won else 0.0), deal
        assert est.samples == 500
        assert (est.low == 0.0) if not won else (est.high == 1.0)
        seen.add(won)
    assert seen == {True, False}


def test_won_position_has_chance_one() -> None:
    g = Game(3, Variant(None))
    g.autoplay()
    assert g.position.status == "won"
    assert chance_to_come_out(g.position, samples=100).probability == 1.0


@pytest.mark.parametrize("deal,variant", [(7, Variant()), (8, Variant()), (11, Variant(1, True))])
def test_chance_matches_exact_enumeration_of_the_stock(deal: int, variant: Variant) -> None:
    # Four unseen cards, no redeals left: the exact chance is the share of the 24 stock
    # orders that come out (engine), which the estimate must cover.
    pos = _walk_until(deal, variant, 4)
    assert len(pos.stock) == 4 and pos.redeals_left == 0
    orders = list(itertools.permutations(pos.stock))
    exact = sum(_finish(dataclasses.replace(pos, stock=o)).status == "won" for o in orders) / len(orders)
    assert 0 < exact < 1
    est = chance_to_come_out(pos, samples=40_000, seed=1)
    assert est.low <= exact <= est.high
    assert abs(est.probability - exact) < 0.01


def test_chance_with_redeals_left_agrees_with_engine_sampling() -> None:
    # Redeals still to come: sample the engine itself (stock shuffled, random stream for
    # the redeals) and compare with the kernel's estimate, well within both errors.
    pos = Position.deal(1)
    rnd = random.Random(5)
    n = 600
    wins = 0
    for _ in range(n):
        stock = list(pos.stock)
        rnd.shuffle(stock)
        rng = tuple(rnd.getrandbits(64) | 1 for _ in range(4))
        wins += _finish(dataclasses.replace(pos, stock=tuple(stock), rng=rng)).status == "won"  # type: ignore[arg-type]
    est = chance_to_come_out(pos, samples=20_000, seed=3)
    p_engine = wins / n
    sigma = math.sqrt(est.probability * (1 - est.probability) * (1 / n + 1 / est.samples))
    assert abs(p_engine - est.probability) < 4 * sigma
    assert 0.1 < est.probability < 0.5  # deal 1: neither hopeless nor certain


def test_estimates_are_reproducible_and_seeded() -> None:
    pos = Position.deal(42)
    a = chance_to_come_out(pos, samples=3000, seed=9)
    assert a == chance_to_come_out(pos, samples=3000, seed=9)
    won_a, _, _ = sample_outcomes(pos, 3000, seed=9)
    won_b, _, _ = sample_outcomes(pos, 3000, seed=10)
    assert (won_a != won_b).any()
    assert isinstance(a, ChanceEstimate) and a.low <= a.probability <= a.high
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.probability = 0.5  # type: ignore[misc]


def test_sampling_does_not_change_the_position() -> None:
    pos = Position.deal(4)
    text = str(pos)
    chance_to_come_out(pos, samples=100)
    assert str(pos) == text


@pytest.mark.parametrize("samples", [0, -1, 1.5, True])
def test_bad_sample_counts_are_refused(samples: object) -> None:
    with pytest.raises(ValueError):
        chance_to_come_out(Position.deal(0), samples=samples)  # type: ignore[arg-type]


def test_bad_seed_is_refused() -> None:
    with pytest.raises(ValueError):
        chance_to_come_out(Position.deal(0), samples=10, seed=-1)
