"""The compiled forced line is the engine's forced line, on every variant (V1–V3).

The engine (``Position``) is the rules; the kernel is derived from it. It is checked
against the engine itself, and, on many more deals, against the naive rank-list
reference ``tests/naive.py`` (itself checked against the engine in tests/engine).
"""

from __future__ import annotations

import json
import random
import sys

import naive
import numpy as np
import pytest

from firstlast.cli.main import main
from firstlast.engine import Game, Variant, play_out
from firstlast.engine import rng as ref
from firstlast.odds.kernel import _below, _next, _seed, _shuffle, play_deal, play_deals

TOP = 2**64 - 1
VARIANTS = [Variant(r, wp, pr) for r in (0, 1, 3, None) for wp in (False, True) for pr in (True, False)]
_rnd = random.Random(20261129)
# Small, huge (the very top of the range) and scattered deal numbers.
DEALS = [*range(1500), *range(TOP - 299, TOP + 1), *(_rnd.randrange(2**64) for _ in range(500))]


def _token(v: Variant) -> str:
    return v.token


def test_seed_and_stream_match_rules_section_4() -> None:
    for deal in (0, 1, 2**32, TOP, 0x9E3779B97F4A7C15, *(_rnd.randrange(2**64) for _ in range(20))):
        s = np.empty(4, np.uint64)
        _seed(np.uint64(deal), s)
        state = ref.seed(deal)
        assert tuple(int(w) for w in s) == state
        for _ in range(50):
            state, out = ref.next64(state)
            assert int(_next(s)) == out
        assert tuple(int(w) for w in s) == state


@pytest.mark.parametrize("n", [1, 2, 104, 3 * 2**30, 2**32 - 1, 2**31 + 12345])
def test_bounded_draw_matches_lemire_reference_including_rejections(n: int) -> None:
    # For n near 2^32 the rejection loop (§4.2) runs often; deals hit it only rarely.
    state = ref.seed(77)
    s = np.array(state, dtype=np.uint64)
    for _ in range(2000):
        state, want = ref.below(state, n)
        assert int(_below(s, np.uint64(n))) == want
    assert tuple(int(w) for w in s) == state


def test_shuffle_matches_reference() -> None:
    for deal in (0, 5, TOP):
        items = list(range(104))
        state = ref.shuffle(ref.seed(deal), items)
        a = np.arange(104, dtype=np.int8)
        s = np.empty(4, np.uint64)
        _seed(np.uint64(deal), s)
        _shuffle(a, 104, s)
        assert a.tolist() == items
        assert tuple(int(w) for w in s) == state


@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_the_naive_reference(variant: Variant) -> None:
    won, score, passes = play_deals(np.array(DEALS, dtype=np.uint64), variant)
    got = [(bool(w), int(s), int(p)) for w, s, p in zip(won, score, passes, strict=True)]
    want = [naive.play_out(d, variant) for d in DEALS]
    assert got == want


@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_the_engines_play_out(variant: Variant) -> None:
    deals = [*range(40), *range(TOP - 9, TOP + 1), *(_rnd.randrange(2**64) for _ in range(30))]
    won, score, passes = play_deals(np.array(deals, dtype=np.uint64), variant)
    for i, d in enumerate(deals):
        assert (bool(won[i]), int(score[i]), int(passes[i])) == tuple(play_out(d, variant)), d


@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_game_autoplay(variant: Variant) -> None:
    deals = [*range(12), TOP, TOP - 1, *(_rnd.randrange(2**64) for _ in range(6))]
    for d in deals:
        game = Game(d, variant)
        game.autoplay()
        pos = game.position
        assert play_deal(d, variant) == (pos.status == "won", pos.score, pos.passes), d


@pytest.mark.parametrize("variant", [Variant(), Variant(None, True, False), Variant(0)], ids=_token)
def test_range_array_serial_and_parallel_agree(variant: Variant) -> None:
    for deals in (range(10_000, 30_000), range(TOP - 9_999, TOP + 1)):
        as_range = play_deals(deals, variant)
        as_array = play_deals(np.array(list(deals), dtype=np.uint64), variant, parallel=False)
        for a, b in zip(as_range, as_array, strict=True):
            assert np.array_equal(a, b)
    assert play_deals(range(5), variant)[0].shape == (5,)


def test_range_outside_deal_numbers_is_refused() -> None:
    with pytest.raises(ValueError):
        play_deals(range(TOP, TOP + 2), Variant())
    with pytest.raises(ValueError):
        play_deals(range(0, 10, 2), Variant())


@pytest.mark.parametrize("wp,pr", [(False, True), (True, True), (False, False), (True, False)])
def test_unlimited_redeals_win_every_deal(wp: bool, pr: bool) -> None:
    won, score, _ = play_deals(range(200_000), Variant(None, wp, pr))
    assert won.all()
    assert (score == 104).all()
    won, _, _ = play_deals(range(TOP - 49_999, TOP + 1), Variant(None, wp, pr))
    assert won.all()


@pytest.mark.parametrize("wp,pr", [(False, True), (True, False)])
def test_finite_redeals_are_a_prefix_of_unlimited(wp: bool, pr: bool) -> None:
    # Same deal, same stream for the shuffles: R redeals win exactly when the unlimited
    # game needs at most R + 1 passes. The plot's curves rely on this.
    deals = range(50_000)
    _, _, needed = play_deals(deals, Variant(None, wp, pr))
    for r in (0, 1, 2, 3, 5):
        won, _, passes = play_deals(deals, Variant(r, wp, pr))
        assert np.array_equal(won, needed <= r + 1)
        assert (passes <= r + 1).all()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_the_naive_reference_many(variant: Variant) -> None:
    deals = [_rnd.randrange(2**64) for _ in range(20_000)]
    won, score, passes = play_deals(np.array(deals, dtype=np.uint64), variant)
    for i, d in enumerate(deals):
        assert (bool(won[i]), int(score[i]), int(passes[i])) == naive.play_out(d, variant)


def _autoplay_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[tuple[int, bool, int, int]]:
    assert main(["autoplay", *args, "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [(r["deal"], r["won"], r["score"], r["passes"]) for r in rows]


def test_autoplay_range_goes_through_the_kernel_and_equals_the_engine(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from firstlast.cli import engine_commands

    monkeypatch.setattr(engine_commands, "KERNEL_BLOCK", 700)  # several blocks, the last one short
    first = TOP - 2_499
    rows = _autoplay_json(capsys, f"{first}..{TOP}", "--redeals", "1", "--waste-playable")
    v = Variant(1, True)
    assert [r[0] for r in rows] == list(range(first, TOP))
    assert len(rows) >= engine_commands.KERNEL_FROM
    won, score, passes = play_deals(range(first, TOP), v)
    assert rows == [(first + i, bool(won[i]), int(score[i]), int(passes[i])) for i in range(len(rows))]
    for d, w, sc, p in rows[::100]:  # the engine itself, on a sample
        assert (w, sc, p) == tuple(play_out(d, v)), d
    # Without numba the engine plays every deal, with the same results.
    monkeypatch.setitem(sys.modules, "firstlast.odds.kernel", None)  # import fails
    assert engine_commands._kernel() is None
    monkeypatch.setattr(engine_commands, "KERNEL_FROM", 50)
    assert _autoplay_json(capsys, f"{first}..{first + 60}", "--redeals", "1", "--waste-playable") == rows[:60]


def test_kernel_plays_positions_as_the_engine_does() -> None:
    from firstlast.odds.kernel import RankPosition, play_line

    for deal in (3, 9, TOP):
        g = Game(deal, Variant(1, True))
        g.autoplay()
        want = (g.position.status == "won", g.position.score, g.position.passes)
        for pos in g.positions[:-1:25]:
            rp = RankPosition.of(pos)
            assert play_line(rp, pos.rng) == want
            assert play_line(rp, pos.rng) == want  # rp is not changed by playing it
    with pytest.raises(ValueError, match="won"):
        g = Game(3, Variant(None))
        g.autoplay()
        RankPosition.of(g.position)
