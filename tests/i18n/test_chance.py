"""The chance figure's one display rule (i18n.chance_parts / chance_text, issue 11):
only the precision the samples support, the same numbers in both languages."""

from __future__ import annotations

import random
import re

import pytest

from firstlast.i18n import LANGS, ChanceParts, chance_parts, chance_text, help_markdown
from firstlast.odds.live import ChanceEstimate

NB = "\u00a0"


def est(wins: int, samples: int, certain: bool = False) -> ChanceEstimate:
    return ChanceEstimate.of(wins, samples, certain)


def test_issue_11_two_thousand_samples_show_no_single_number() -> None:
    # Deal 1's start, 2,000 samples of seed 0: 453 wins, 22.7 % (95 % CI 20.9–24.5 %).
    e = est(453, 2000)
    for lang in LANGS:
        text = chance_text(e, lang)
        assert "22.7" not in text and "22,7" not in text and "23" not in text
        assert text == f"20–25{NB}%"  # the interval alone, rounded outward
    assert chance_parts(e) == ChanceParts("range", 0, None, 20.0, 25.0)


def test_issue_11_twenty_thousand_samples_show_whole_percent_and_interval() -> None:
    e = est(5000, 20000)  # 25.0 % ± 0.6
    assert chance_text(e, "en") == f"25{NB}% (24–26{NB}%)"
    assert chance_text(e, "ru") == f"25{NB}% (24–26{NB}%)"
    assert chance_parts(e) == ChanceParts("point", 0, 25.0, 24.0, 26.0)


def test_decimals_only_with_the_samples_for_them_and_a_russian_comma() -> None:
    # The canonical odds from 12 million deals: 27.3647 % (27.3395–27.3899 %), ±0.025 points.
    e = est(3_283_765, 12_000_000)
    assert chance_text(e, "en") == f"27.4{NB}% (27.3–27.4{NB}%)"
    assert chance_text(e, "ru") == f"27,4{NB}% (27,3–27,4{NB}%)"
    # r0: 877 of 12 million, ±0.0005 points: small, but known well enough for three decimals.
    assert chance_text(est(877, 12_000_000), "ru") == f"0,007{NB}% (0,006–0,008{NB}%)"


def test_hundred_and_zero_only_when_certain() -> None:
    assert chance_text(est(500, 500, certain=True), "en") == f"100{NB}%"
    assert chance_text(est(0, 500, certain=True), "ru") == f"0{NB}%"
    # The same counts from sampling an undecided position: an interval, never a bare 0 or 100.
    assert chance_text(est(500, 500), "en") == f"99–100{NB}%"
    assert chance_text(est(0, 500), "en") == f"0–1{NB}%"
    # A figure that would round to 0 % is shown as its interval too.
    assert chance_parts(est(40, 1_000_000)).kind == "point"  # 0.004 %, known to ±0.0012
    assert chance_parts(est(3, 1000)).kind == "range"


@pytest.mark.parametrize("seed", range(4))
def test_the_shown_numbers_always_contain_the_interval(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(500):
        samples = rnd.choice([1, 24, 160, 2000, 5000, 10_000, 50_000, 500_000, 5_000_000])
        wins = rnd.randint(0, samples)
        e = est(wins, samples)
        parts = chance_parts(e)
        half = 100 * (e.high - e.low) / 2
        # Outward rounding: the shown ends still hold the whole 95 % interval.
        assert parts.low <= 100 * e.low + 1e-9 and parts.high >= 100 * e.high - 1e-9
        assert parts.kind != "certain"
        if parts.kind == "point":
            assert parts.point is not None and half <= 1.5
            assert parts.low <= parts.point <= parts.high
            assert 0 < parts.point < 100
            # Never finer than the interval: one decimal needs a half-width of 0.15 points.
            assert half <= 1.5 / 10**parts.decimals
        else:
            assert parts.point is None
            # An interval alone: too wide for a figure, or a figure that would read 0 or 100.
            rounded = round(100 * e.probability, parts.decimals)
            assert (half > 1.5 and parts.decimals == 0) or rounded in (0, 100)
        for lang in LANGS:
            text = chance_text(e, lang)
            assert re.fullmatch(r"[\d.,]+\u00a0%( \([\d.,]+–[\d.,]+\u00a0%\))?|[\d.,]+–[\d.,]+\u00a0%", text), text
            assert ("." in text) == (lang == "en" and parts.decimals > 0)
            assert ("," in text) == (lang == "ru" and parts.decimals > 0)


@pytest.mark.parametrize("lang", LANGS)
def test_help_states_this_rule_and_the_refinement(lang: str) -> None:
    text = help_markdown(lang)
    start = text.index("## The chance to come out" if lang == "en" else "## Шанс, что пасьянс выйдет")
    section = text[start:text.index("\n## ", start)]
    point, comma = ("1.5", "0.15") if lang == "en" else ("1,5", "0,15")
    assert point in section and comma in section
    # The help's examples are exactly what the rule prints.
    assert chance_text(est(5000, 20000), lang).replace(NB, " ") in section
    assert chance_text(est(453, 2000), lang).replace(NB, " ") in section
    assert "100 %" in section and "0 %" in section
    assert ("round" in section) if lang == "en" else ("порци" in section)


def test_the_live_estimate_of_issue_11_is_shown_as_its_interval() -> None:
    from firstlast.engine import Position
    from firstlast.odds.live import chance_to_come_out

    e = chance_to_come_out(Position.deal(1), samples=2000, seed=0)
    assert f"{100 * e.probability:.1f}" == "22.7"  # what the page used to print
    assert chance_text(e, "en") == f"20–25{NB}%"


def test_the_meters_short_figure_is_at_most_eight_characters() -> None:
    """Issue 26: the page's meter shows the figure without its interval (its help has the
    whole text), so its width never reflows the status bar: "0.00–0.02 %" under r0n was one
    of its widest."""
    assert chance_text(est(5000, 20000), "en", short=True) == f"25{NB}%"
    assert chance_text(est(453, 2000), "ru", short=True) == f"20–25{NB}%"
    assert chance_text(est(3_283_765, 12_000_000), "ru", short=True) == f"27,4{NB}%"
    assert chance_text(est(877, 12_000_000), "en", short=True) == f"<{NB}1{NB}%"
    assert chance_text(est(2, 400_000), "en", short=True) == f"<{NB}1{NB}%"
    assert chance_text(est(399_990, 400_000), "ru", short=True) == f">{NB}99{NB}%"
    assert chance_text(est(500, 500, certain=True), "en", short=True) == f"100{NB}%"
    rng = random.Random(26)
    for _ in range(2000):
        samples = rng.choice((100, 2000, 20_000, 400_000, 12_000_000))
        e = est(rng.randint(0, samples), samples)
        for lang in LANGS:
            short = chance_text(e, lang, short=True)
            assert len(short) <= 8, short
            assert short.startswith(("<", ">")) or chance_text(e, lang).startswith(short), short
