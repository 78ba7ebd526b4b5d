"""The fast forced line is the engine's forced line, on every variant (V1–V3), on every
route: the C kernel compiled natively, and the committed .wasm through wasmtime.

The engine (``Position``) is the rules; the kernel (src/firstlast/odds/forced_line.c)
is derived from it. Each route is checked against the engine itself (``play_out``,
``Game.autoplay``, ``Position.forced_move`` fed the sampler's own shuffles), against the
naive rank-list reference ``tests/naive.py`` (itself checked against the engine in
tests/engine) on more deals, and against the other route on many more.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random

import kernels
import naive
import pytest
from kernels import load_route, play_line, replay_sample, sample_start

from firstlast import runtime
from firstlast.cli.main import main
from firstlast.engine import Game, Position, Variant, play_out
from firstlast.engine import rng as ref
from firstlast.odds import fastline
from firstlast.odds.fastline import Kernel, RankPosition
from firstlast.odds.stats import STUCK_PASSES, Tally

TOP = 2**64 - 1
#: All 20 variants: redeals 0–3 and unlimited × waste playable × privileged last card.
VARIANTS = [Variant(r, wp, pr) for r in (0, 1, 2, 3, None) for wp in (False, True) for pr in (True, False)]
_rnd = random.Random(20261129)
# Small, huge (the very top of the range) and scattered deal numbers.
DEALS = [*range(1500), *range(TOP - 299, TOP + 1), *(_rnd.randrange(2**64) for _ in range(500))]
ENGINE_DEALS = [*range(40), *range(TOP - 9, TOP + 1), *(_rnd.randrange(2**64) for _ in range(30))]
AUTOPLAY_DEALS = [*range(12), TOP, TOP - 1, *(_rnd.randrange(2**64) for _ in range(6))]
ROUTES = ["native", "wasmtime"]


def _token(v: Variant) -> str:
    return v.token


@pytest.fixture(scope="module", params=ROUTES)
def k(request: pytest.FixtureRequest) -> Kernel:
    return load_route(request.param)


@pytest.fixture(scope="module")
def native() -> Kernel:
    return load_route("native")


@pytest.fixture(scope="module")
def wasm() -> Kernel:
    return load_route("wasmtime")


def _rows(lines: fastline.Lines) -> list[tuple[bool, int, int]]:
    return [(bool(w), s, p) for w, s, p in zip(*lines, strict=True)]


# The references are computed once and compared with both routes.
@functools.cache
def _naive(token: str) -> list[tuple[bool, int, int]]:
    v = Variant.from_token(token)
    return [naive.play_out(d, v) for d in DEALS]


@functools.cache
def _engine(token: str) -> list[tuple[bool, int, int]]:
    v = Variant.from_token(token)
    return [tuple(play_out(d, v)) for d in ENGINE_DEALS]  # type: ignore[misc]


@functools.cache
def _autoplay(token: str) -> list[tuple[bool, int, int]]:
    out = []
    for d in AUTOPLAY_DEALS:
        game = Game(d, Variant.from_token(token))
        game.autoplay()
        pos = game.position
        out.append((pos.status == "won", pos.score, pos.passes))
    return out


# ----------------------------------------------------------------- the stream (§4)
def test_seed_and_stream_match_rules_section_4(k: Kernel) -> None:
    for deal in (0, 1, 2**32, TOP, 0x9E3779B97F4A7C15, *(_rnd.randrange(2**64) for _ in range(20))):
        state = ref.seed(deal)
        assert kernels.seed(k, deal) == state
        want = []
        for _ in range(50):
            state, out = naive.next64(state)
            want.append(out)
        assert kernels.next64(k, kernels.seed(k, deal), 50) == (state, want)


@pytest.mark.parametrize("n", [1, 2, 104, 3 * 2**30, 2**32 - 1, 2**31 + 12345])
def test_bounded_draw_matches_lemire_reference_including_rejections(k: Kernel, n: int) -> None:
    # For n near 2^32 the rejection loop (§4.2) runs often; deals hit it only rarely.
    state = ref.seed(77)
    want = []
    for _ in range(2000):
        state, x = naive.below(state, n)
        want.append(x)
    assert kernels.below(k, ref.seed(77), n, 2000) == (state, want)


def test_shuffle_matches_reference(k: Kernel) -> None:
    for deal in (0, 5, TOP):
        items = list(range(104))
        state = ref.shuffle(ref.seed(deal), items)
        assert kernels.shuffled(k, ref.seed(deal), range(104)) == (state, items)


# ----------------------------------------------------------------- deals, every variant
@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_the_naive_reference(k: Kernel, variant: Variant) -> None:
    assert _rows(k.play_deals(DEALS, variant)) == _naive(variant.token)


@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_the_engines_play_out(k: Kernel, variant: Variant) -> None:
    assert _rows(k.play_deals(ENGINE_DEALS, variant)) == _engine(variant.token)


@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_game_autoplay(k: Kernel, variant: Variant) -> None:
    assert _rows(k.play_deals(AUTOPLAY_DEALS, variant)) == _autoplay(variant.token)


@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_native_and_wasm_agree_on_many_deals(native: Kernel, wasm: Kernel, variant: Variant) -> None:
    rnd = random.Random(variant.token)
    scattered = [rnd.randrange(2**64) for _ in range(20_000)]
    assert native.play_deals(scattered, variant) == wasm.play_deals(scattered, variant)
    for deals in (range(30_000), range(TOP - 9_999, TOP + 1)):
        assert native.play_deals(deals, variant) == wasm.play_deals(deals, variant)
    assert native.count_deals(range(50_000), variant) == wasm.count_deals(range(50_000), variant)


@pytest.mark.parametrize("variant", [Variant(), Variant(None, True, False), Variant(0)], ids=_token)
def test_range_list_serial_and_parallel_agree(k: Kernel, variant: Variant) -> None:
    for deals in (range(10_000, 30_000), range(TOP - 9_999, TOP + 1)):
        as_range = k.play_deals(deals, variant)
        as_list = k.play_deals(list(deals), variant, parallel=False)
        with pytest.MonkeyPatch.context() as mp:  # three threads, whatever the cores here
            mp.setattr(runtime, "cores", lambda: 3)
            assert as_range == as_list == k.play_deals(deals, variant)
        with pytest.MonkeyPatch.context() as mp:  # as in the browser: one thread
            mp.setattr(runtime, "THREADS", False)
            assert k.play_deals(deals, variant, parallel=True) == as_range
        assert k.count_deals(deals, variant) == Tally.of(variant, *as_range)
    assert len(k.play_deals(range(5), variant).won) == 5
    assert k.play_deals(range(0), variant) == k.play_deals([], variant)


def test_numpy_deal_arrays_play_as_the_same_list_does(native: Kernel) -> None:
    np = pytest.importorskip("numpy")
    deals = np.array([0, 1, TOP, 2**63], dtype=np.uint64)
    assert native.play_deals(deals, Variant()) == native.play_deals([0, 1, TOP, 2**63], Variant())


def test_deals_outside_the_range_are_refused(k: Kernel) -> None:
    with pytest.raises(ValueError):
        k.play_deals(range(TOP, TOP + 2), Variant())
    with pytest.raises(ValueError):
        k.play_deals(range(0, 10, 2), Variant())
    with pytest.raises(ValueError):
        k.play_deals([TOP + 1], Variant())
    with pytest.raises(ValueError):
        k.play_deals([-1], Variant())


def test_wasm_calls_larger_than_the_arena_are_cut(wasm: Kernel, native: Kernel) -> None:
    # The arena holds about 170,000 deals' results: a bigger batch is several calls.
    n = (wasm.calls.room or 0) // 6 + 1234
    assert wasm.play_deals(range(n), Variant(0)) == native.play_deals(range(n), Variant(0))


def test_huge_redeal_counts_play_as_the_engine(k: Kernel) -> None:
    # More redeals than 2^63 − 1 can never be used up: the kernel holds that many.
    v = Variant(10**20)
    assert _rows(k.play_deals(range(5), v)) == [tuple(play_out(d, v)) for d in range(5)]


@pytest.mark.parametrize("wp,pr", [(False, True), (True, True), (False, False), (True, False)])
def test_unlimited_redeals_win_every_deal(k: Kernel, wp: bool, pr: bool) -> None:
    c = k.count_deals(range(100_000), Variant(None, wp, pr))
    assert c.wins == c.games == c.scores[104] == 100_000
    won, _, _ = k.play_deals(range(TOP - 19_999, TOP + 1), Variant(None, wp, pr))
    assert all(won)


@pytest.mark.parametrize("wp,pr", [(False, True), (True, False)])
def test_finite_redeals_are_a_prefix_of_unlimited(k: Kernel, wp: bool, pr: bool) -> None:
    # Same deal, same stream for the shuffles: R redeals win exactly when the unlimited
    # game needs at most R + 1 passes. The plot's curves rely on this.
    deals = range(30_000)
    _, _, needed = k.play_deals(deals, Variant(None, wp, pr))
    for r in (0, 1, 2, 3, 5):
        won, _, passes = k.play_deals(deals, Variant(r, wp, pr))
        assert [bool(w) for w in won] == [n <= r + 1 for n in needed]
        assert max(passes) <= r + 1


FAMILIES = [(False, True), (True, True), (False, False), (True, False)]


@pytest.mark.parametrize("wp,pr", FAMILIES)
def test_one_unlimited_run_counts_every_finite_redeal_count(k: Kernel, wp: bool, pr: bool) -> None:
    # The table's rows with 0–3 redeals come from the unlimited runs (stats.UnlimitedTally):
    # whole tallies — wins, passes, scores — equal to direct runs, for every redeal count
    # the kernel records (0…15; few deals need more than 10 passes, so 12…15 are mostly
    # "every deal stops where the unlimited game stopped").
    deals = range(2**40, 2**40 + 20_000)
    u = k.count_unlimited(deals, Variant(None, wp, pr))
    assert u.unlimited == k.count_deals(deals, Variant(None, wp, pr))
    for r in (*range(6), 9, STUCK_PASSES - 1):
        v = Variant(r, wp, pr)
        assert u.finite(r) == k.count_deals(deals, v), v.token


@pytest.mark.parametrize("wp,pr", FAMILIES)
def test_each_deal_stops_where_the_unlimited_game_redeals(k: Kernel, wp: bool, pr: bool) -> None:
    # Deal by deal: counting one deal at a time, the score recorded for r redeals is the
    # score of that deal played with r redeals (top of the range included).
    deals = [*range(400), *range(TOP - 99, TOP + 1)]
    direct = {r: _rows(k.play_deals(deals, Variant(r, wp, pr))) for r in range(4)}
    for i, d in enumerate(deals):
        u = k.count_unlimited(range(d, d + 1), Variant(None, wp, pr))
        for r in range(4):
            won, score, passes = direct[r][i]
            t = u.finite(r)
            assert (t.wins, t.scores[score], len(t.passes_all) - 1) == (won, 1, passes), (d, r)


def test_count_unlimited_is_for_unlimited_redeals(k: Kernel) -> None:
    with pytest.raises(ValueError, match="unlimited"):
        k.count_unlimited(range(10), Variant(3))


def test_games_beyond_the_pass_bins_are_counted_from_their_lines(native: Kernel) -> None:
    # No real deal needs 256 passes; pretend a part had one: it is counted again from
    # its per-deal results, which must give the same counts.
    class Flagging:
        def __init__(self, calls: fastline.Calls) -> None:
            self.inner = calls
            self.name, self.order, self.room, self.parallel = calls.name, calls.order, calls.room, calls.parallel

        def call(self, fn: str, *args: fastline.Arg) -> None:
            self.inner.call(fn, *args)
            if fn in ("fl_tally_range", "fl_tally_stuck"):
                args[1][2] = 1  # type: ignore[index]

    flagged = Kernel(Flagging(native.calls))
    v = Variant(None)
    assert flagged.count_deals(range(5_000), v) == native.count_deals(range(5_000), v)
    assert flagged.count_unlimited(range(5_000), v) == native.count_unlimited(range(5_000), v)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_kernel_equals_the_naive_reference_many(k: Kernel, variant: Variant) -> None:
    deals = [_rnd.randrange(2**64) for _ in range(20_000)]
    assert _rows(k.play_deals(deals, variant)) == [naive.play_out(d, variant) for d in deals]


# ----------------------------------------------------------------- positions and samples
def test_kernel_plays_positions_as_the_engine_does(k: Kernel) -> None:
    for variant in (Variant(1, True), Variant(None, False, False), Variant(3)):
        for deal in (3, 9, TOP):
            g = Game(deal, variant)
            g.autoplay()
            want = (g.position.status == "won", g.position.score, g.position.passes)
            for pos in g.positions[:-1:25]:
                rp = RankPosition.of(pos)
                assert play_line(k, rp, pos.rng) == want
                assert play_line(k, rp, pos.rng) == want  # rp is not changed by playing it
    with pytest.raises(ValueError, match="won"):
        g = Game(3, Variant(None))
        g.autoplay()
        RankPosition.of(g.position)


@pytest.mark.parametrize("variant", VARIANTS, ids=_token)
def test_each_sample_is_the_engine_fed_the_samples_shuffles(k: Kernel, variant: Variant) -> None:
    # Sample i draws from its own stream the stock order, then each redeal's shuffle;
    # the engine walked move by move with those shuffles supplied as chance outcomes
    # (live.replay_sample, Position.apply(REDEAL, shuffle=…)) must give every sample.
    rnd = random.Random(f"samples {variant.token}")
    g = Game(rnd.randrange(2**64), variant)
    g.autoplay()
    redeals = 0
    for pos in (g.positions[0], g.positions[len(g.positions) // 3], g.positions[-2]):
        sd = rnd.randrange(2**64)
        start = rnd.choice([0, 2**63 - 20])
        got = _rows(k.sample_lines(RankPosition.of(pos), 8, sd, start))
        for i in range(8):
            end = replay_sample(pos, start + i, sd)
            assert got[i] == (end.status == "won", end.score, end.passes), (i, start)
            redeals += end.redeals_used - pos.redeals_used
        assert sample_start(k, sd, start) == sample_start(fastline.need(), sd, start)
    assert redeals > 0 or variant.redeals == 0


def test_native_and_wasm_sample_alike(native: Kernel, wasm: Kernel) -> None:
    for deal, variant in ((1, Variant()), (5, Variant(None, True)), (TOP, Variant(2, False, False))):
        g = Game(deal, variant)
        g.autoplay()
        for pos in g.positions[:-1:40]:
            rp = RankPosition.of(pos)
            assert native.sample_lines(rp, 3000, deal, 77) == wasm.sample_lines(rp, 3000, deal, 77)
            assert play_line(native, rp, pos.rng) == play_line(wasm, rp, pos.rng)
    assert sample_start(native, TOP, 2**63 - 1) == sample_start(wasm, TOP, 2**63 - 1)


def test_positions_the_kernel_cannot_play_are_refused(k: Kernel) -> None:
    rp = RankPosition.of(Position.deal(1))
    for bad in (dataclasses.replace(rp, stock=(*rp.stock[:-1], 13)), dataclasses.replace(rp, first=rp.first[:7]),
                dataclasses.replace(rp, rcount=(9, *rp.rcount[1:])), dataclasses.replace(rp, active=8),
                dataclasses.replace(rp, waste=(0,) * 17)):
        with pytest.raises(ValueError, match="not a position the kernel can play"):
            k.sample_lines(bad, 1, 0)


def test_samples_outside_their_range_are_refused(k: Kernel) -> None:
    rp = RankPosition.of(Position.deal(1))
    for bad in [(1, -1, 0), (1, 0, -1), (2, 0, 2**63 - 1), (1, TOP + 1, 0)]:
        with pytest.raises(ValueError):
            k.sample_lines(rp, bad[0], bad[1], bad[2])


# ----------------------------------------------------------------- callers
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
    assert all(isinstance(r[1], bool) for r in rows)
    won, score, passes = fastline.need().play_deals(range(first, TOP), v)
    assert rows == [(first + i, bool(won[i]), score[i], passes[i]) for i in range(len(rows))]
    for d, w, sc, p in rows[::100]:  # the engine itself, on a sample
        assert (w, sc, p) == tuple(play_out(d, v)), d
    # Without a fast line the engine plays every deal, with the same results.
    monkeypatch.setattr(fastline, "_chosen", [None])
    assert not fastline.available()  # what the command asks
    monkeypatch.setattr(engine_commands, "KERNEL_FROM", 50)
    assert _autoplay_json(capsys, f"{first}..{first + 60}", "--redeals", "1", "--waste-playable") == rows[:60]


def test_first_winnable_is_the_same_with_and_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    from firstlast.play.deals import first_winnable

    candidates = [_rnd.randrange(2**64) for _ in range(60)]
    for v in (Variant(), Variant(0, True)):
        fast = first_winnable(candidates, v)
        with monkeypatch.context() as m:
            m.setattr(fastline, "_chosen", [None])
            assert first_winnable(candidates, v) == fast
    assert first_winnable([1, 2, 3], Variant(0, False, False)) is None
