"""The deal-number random stream, exactly as docs/rules.md §4 specifies.

xoshiro256** seeded by four SplitMix64 outputs from state N (§4.1), Lemire's bounded
draw on 32-bit values (§4.2) and Fisher–Yates from the top down (§4.3). The generator
state is a plain tuple of four 64-bit ints, so positions can carry and print it; a
redeal continues the deal's stream (§4.6, ``Position.apply``).
"""

from __future__ import annotations

from typing import Final, TypeVar

MASK64: Final = (1 << 64) - 1
MAX_DEAL: Final = MASK64
RngState = tuple[int, int, int, int]
T = TypeVar("T")


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def seed(deal: int) -> RngState:
    """The xoshiro256** state for deal number ``deal`` (0 … 2^64−1)."""
    if not 0 <= deal <= MAX_DEAL:
        raise ValueError(f"deal number out of range 0…{MAX_DEAL}: {deal}")
    s, a = splitmix64(deal)
    s, b = splitmix64(s)
    s, c = splitmix64(s)
    return a, b, c, splitmix64(s)[1]


def shuffle(state: RngState, items: list[T]) -> RngState:
    """Fisher–Yates ``items`` in place (§4.3) and return the advanced state.

    The generator and Lemire's draw (§4.1, §4.2) are inlined: this runs for every deal
    and every redeal, and is most of the time the engine spends playing a game out.
    ``tests/naive.py`` keeps them written out, to check this and the compiled kernel.
    """
    s0, s1, s2, s3 = state
    m64 = MASK64
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        while True:
            x = (s1 * 5) & m64
            r = ((((x << 7) | (x >> 57)) & m64) * 9) & m64
            t = (s1 << 17) & m64
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = ((s3 << 45) | (s3 >> 19)) & m64
            m = (r >> 32) * n
            low = m & 0xFFFFFFFF
            # Lemire: reject only when low < (2^32 − n) mod n, which implies low < n.
            if low >= n or low >= ((1 << 32) - n) % n:
                break
        j = m >> 32
        items[i], items[j] = items[j], items[i]
    return (s0, s1, s2, s3)
