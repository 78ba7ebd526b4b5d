"""Deal numbers (docs/rules.md §4): the generator, bounded draws, shuffles, check vectors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from naive import below, next64

from firstlast.engine import CARDS, MAX_DEAL, Position
from firstlast.engine.rng import MASK64, seed, shuffle, splitmix64


def test_splitmix64_reference_values() -> None:
    # First outputs of SplitMix64 from state 0 (Vigna's reference implementation).
    s, a = splitmix64(0)
    s, b = splitmix64(s)
    assert (a, b) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


def test_xoshiro_seeded_by_four_splitmix_outputs() -> None:
    s = 7
    words = []
    for _ in range(4):
        s, out = splitmix64(s)
        words.append(out)
    assert seed(7) == tuple(words)
    state, out = next64(seed(7))
    # xoshiro256**: rotl(s1 * 5, 7) * 9
    s1 = seed(7)[1]
    x = (s1 * 5) & MASK64
    assert out == ((((x << 7) | (x >> 57)) & MASK64) * 9) & MASK64
    assert state != seed(7)


def test_below_rejection_path_is_taken() -> None:
    # With n = 3·2^30 about a quarter of the draws are rejected.
    n = 3 * 2**30
    state = seed(5)
    redraws = 0
    for _ in range(200):
        before = state
        state, _ = below(state, n)
        if state != next64(before)[0]:
            redraws += 1
    assert redraws > 10


@given(st.integers(0, MAX_DEAL), st.integers(0, 120))
def test_inlined_shuffle_is_fisher_yates_with_below(deal: int, length: int) -> None:
    items = list(range(length))
    expected = list(range(length))
    state = seed(deal)
    for i in range(length - 1, 0, -1):
        state, j = below(state, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffle(seed(deal), items) == state and items == expected


@pytest.mark.parametrize(
    ("deal", "first", "reserve"),
    [(1, "Jc 5d As Qh 9h Kc Jc 9s", "8s Kh 6d 5h 7s 5c 5s 4h")],
)
def test_check_vector(deal: int, first: str, reserve: str) -> None:
    pos = Position.deal(deal)
    assert " ".join(map(str, pos.first)) == first
    assert " ".join(map(str, pos.reserve)) == reserve


@pytest.mark.parametrize("bad", [-1, MAX_DEAL + 1])
def test_deal_numbers_out_of_range_are_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        Position.deal(bad)


def test_every_deal_is_a_permutation_of_the_104_cards() -> None:
    for deal in (0, 1, 2, 12345, MAX_DEAL):
        pos = Position.deal(deal)
        cards = [*pos.first, *pos.reserve, *pos.stock]
        assert sorted(cards) == list(CARDS)  # type: ignore[type-var]
    assert Position.deal(0) != Position.deal(1)
