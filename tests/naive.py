"""Naive reference implementations the tests check the fast code against.

Kept in the tests, not in the package (stumpy's habit): nothing ships that depends on
them. ``firstlast.engine.Position`` is the rules; ``play_out`` here is a second,
independent reading of the same rules (R2–R11, V1–V3, docs/rules.md) on bare rank
lists, written for reading, not speed. The tests prove it equal to the engine, and then
use it, being a few times faster than the engine, to check the compiled kernel
(``firstlast.odds.fastline``) on many more deals than the engine alone could.

``next64`` and ``below`` are §4.1 and §4.2 written out step by step, which the engine's
``rng.shuffle`` inlines: the tests check that shuffle and the kernel's draws against them.
"""

from __future__ import annotations

from firstlast.engine import CANONICAL, CARDS, Variant
from firstlast.engine.rng import MASK64, RngState, seed, shuffle

_RANKS0 = [c.rank - 1 for c in CARDS]  # ranks 0…12, in unshuffled card order


def play_out(deal: int, variant: Variant = CANONICAL) -> tuple[bool, int, int]:
    """(won, score, passes) of deal ``deal`` along the forced line, on ranks alone."""
    ranks = _RANKS0.copy()
    rng = shuffle(seed(deal), ranks)  # R2, §4.5
    first = ranks[0:8]
    reserve = ranks[8:16]
    stock = ranks[:15:-1]  # reversed: stock.pop() turns the next card
    return play_ranks(first, reserve, stock, [], 0, 0, 0, variant, rng)


def play_ranks(first: list[int], reserve: list[int], stock: list[int], waste: list[int], k: int, held: int,
               redeals: int, variant: Variant, rng: RngState) -> tuple[bool, int, int]:
    """Play the forced line from a position given on ranks 0…12 (−1 for a gap) to its
    end. ``stock`` is reversed (its last element is turned next), ``waste`` runs bottom
    to top; ``k`` is the active pile, ``held`` its cards without the base, ``redeals``
    the redeals made so far; ``rng`` the stream the redeals continue (§4.6)."""
    redeals_left = -1 if variant.redeals is None else max(0, variant.redeals - redeals)
    privileged = variant.privileged_last
    waste_playable = variant.waste_playable
    done = 13 * k  # cards on completed piles
    if k == 8:
        return True, 104, redeals + 1
    need = (first[k] + 1 + held) % 13
    while True:
        if held == 12:  # R5: the base ends the pile
            done += 13
            k += 1
            if k == 8:
                return True, 104, redeals + 1
            held = 0
            need = (first[k] + 1) % 13
            continue
        if privileged and k < 7 and first[7] == need:  # R8, with precedence
            first[7] = waste.pop() if waste else (stock.pop() if stock else -1)  # R7
        elif need in reserve:  # leftmost reserve card
            i = reserve.index(need)
            reserve[i] = waste.pop() if waste else (stock.pop() if stock else -1)  # R7
        elif waste_playable and waste and waste[-1] == need:  # V2
            waste.pop()
        elif stock:  # R9
            card = stock.pop()
            if card != need:
                waste.append(card)
                continue
        elif waste and redeals_left != 0:  # R10, §4.6: bottom to top, shuffled, element 0 first
            rng = shuffle(rng, waste)
            waste.reverse()
            stock = waste
            waste = []
            redeals += 1
            redeals_left -= 1
            continue
        else:  # R11
            return False, done + held, redeals + 1
        held += 1
        need = (need + 1) % 13


def next64(state: RngState) -> tuple[RngState, int]:
    """One xoshiro256** step (§4.1): (new state, 64-bit output)."""
    s0, s1, s2, s3 = state
    x = (s1 * 5) & MASK64
    result = ((((x << 7) | (x >> 57)) & MASK64) * 9) & MASK64
    t = (s1 << 17) & MASK64
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 45) | (s3 >> 19)) & MASK64
    return (s0, s1, s2, s3), result


def below(state: RngState, n: int) -> tuple[RngState, int]:
    """A literal transcription of §4.2: Lemire's unbiased draw in [0, n) from 32-bit
    values, 1 ≤ n < 2^32."""
    state, r = next64(state)
    x = r >> 32
    m = x * n
    lo = m % 2**32
    if lo < n:
        t = (2**32 - n) % n
        while lo < t:
            state, r = next64(state)
            x = r >> 32
            m = x * n
            lo = m % 2**32
    return state, m >> 32
