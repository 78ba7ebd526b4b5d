"""Wilson intervals and tallies."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from firstlast.engine import Variant
from firstlast.odds import fastline
from firstlast.odds.stats import Tally, wilson

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# method 3 (score interval without continuity correction).
NEWCOMBE = [((81, 263), (0.2553, 0.3662)), ((15, 148), (0.0624, 0.1605)),
            ((0, 20), (0.0, 0.1611)), ((1, 29), (0.0061, 0.1718))]


@pytest.mark.parametrize("counts,want", NEWCOMBE)
def test_wilson_matches_published_values(counts: tuple[int, int], want: tuple[float, float]) -> None:
    low, high = wilson(*counts)
    assert low == pytest.approx(want[0], abs=5e-5)
    assert high == pytest.approx(want[1], abs=5e-5)


@pytest.mark.parametrize("k,n", [(5, 10), (0, 10), (10, 10), (274_180, 1_000_000), (3, 10_000_000)])
def test_wilson_matches_the_formula(k: int, n: int) -> None:
    z = 1.959963984540054  # the 97.5 % normal quantile
    assert NormalDist().inv_cdf(0.975) == pytest.approx(z, abs=1e-12)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = wilson(k, n)
    assert low == pytest.approx(max(0.0, centre - half), abs=1e-12)
    assert high == pytest.approx(min(1.0, centre + half), abs=1e-12)


def test_wilson_needs_trials() -> None:
    with pytest.raises(ValueError):
        wilson(0, 0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_wilson_is_stdlib_only() -> None:
    # The live chance (default install) imports the interval without numpy or scipy.
    import subprocess
    import sys

    code = ("import sys; sys.modules['numpy'] = sys.modules['scipy'] = None; "
            "from firstlast.odds.stats import wilson; print(wilson(81, 263))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    low, high = (float(x) for x in out.strip("()\n").split(","))
    assert (low, high) == pytest.approx((0.2553, 0.3662), abs=5e-5)


def test_tallies_of_parts_add_up_to_the_whole() -> None:
    v = Variant(1)
    k = fastline.need()
    whole = Tally.of(v, *k.play_deals(range(0, 30_000), v))
    parts = Tally.of(v, *k.play_deals(range(0, 12_345), v)) + Tally.of(v, *k.play_deals(range(12_345, 30_000), v))
    assert parts == whole
    assert whole.games == 30_000
    assert whole.wins == sum(whole.passes_won) == whole.scores[104]
    assert sum(whole.passes_all) == sum(whole.scores) == 30_000
    assert whole != Tally.of(v, *k.play_deals(range(1, 30_001), v))
    # The kernel's own counts (what runs use) are the same tally.
    assert k.count_deals(range(0, 30_000), v) == whole
    with pytest.raises(ValueError):
        _ = whole + Tally(Variant(2))


def test_tally_json_has_the_published_keys() -> None:
    v = Variant()
    t = Tally.of(v, [True, False, False], [104, 50, 61], [2, 4, 4])
    j = t.to_json()
    assert (j["games"], j["wins"], j["variant"]) == (3, 1, "r3")
    assert j["win_rate"] == pytest.approx(1 / 3)
    assert (j["ci_low"], j["ci_high"]) == pytest.approx(wilson(1, 3))
    assert j["passes_won"] == {"2": 1} and j["passes_all"] == {"2": 1, "4": 2}
    assert t.mean_score() == pytest.approx((104 + 50 + 61) / 3)
    assert t.mean_passes_won() == 2.0


def test_tallies_of_numpy_arrays_and_one_spelling_of_each() -> None:
    np = pytest.importorskip("numpy")  # the lab's per-game arrays tally the same
    v = Variant()
    t = Tally.of(v, np.array([True, False, False]), np.array([104, 50, 61], np.int8), np.array([2, 4, 4], np.int32))
    assert t == Tally.of(v, [1, 0, 0], [104, 50, 61], [2, 4, 4])
    # Trailing zeros do not make another tally.
    assert Tally(v, 3, 1, (0, 0, 1, 0, 0), (0, 0, 1, 0, 2, 0), t.scores) == t
    with pytest.raises(ValueError):
        Tally(v, scores=(0,) * 104)
    with pytest.raises(ValueError):
        Tally.of(v, [True], [104, 3], [1])


def test_unlimited_tallies_add_up_and_derive_only_what_they_hold() -> None:
    from firstlast.odds.stats import STUCK_PASSES, UnlimitedTally

    v = Variant(None, True, False)
    a = fastline.need().count_unlimited(range(0, 3_000), v)
    b = fastline.need().count_unlimited(range(3_000, 5_000), v)
    whole = fastline.need().count_unlimited(range(5_000), v)
    assert a + b == whole and UnlimitedTally(Tally(v)) + whole == whole
    assert whole.rows((2, None)) == [whole.finite(2), whole.unlimited]
    assert whole.finite(3).variant == Variant(3, True, False)
    for bad in (-1, STUCK_PASSES, True, 1.0):
        with pytest.raises(ValueError, match="redeals must be"):
            whole.finite(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="different variants"):
        whole + UnlimitedTally(Tally(Variant(None)))
    with pytest.raises(ValueError, match="unlimited redeals"):
        UnlimitedTally(Tally(Variant(3)))
    broken = UnlimitedTally(whole.unlimited, ((0,) * 105,) * STUCK_PASSES)
    with pytest.raises(ValueError, match="do not add up"):
        broken.finite(0)
