"""Compiled forced line: the engine's forced line on ``uint64`` and ``int8``, with numba.

``firstlast.engine.Position`` is the rules; this module is a *derived* implementation
of its forced line (R2–R11, V1–V3, docs/rules.md) and of the deal-number random stream
(docs/rules.md §4), compiled for bulk odds and live chances. It is trusted only because
the tests prove it equal to the engine (``Game.autoplay``, ``Position.play_forced``,
the engine fed the sampler's own shuffles) and to the naive rank-list reference in
``tests/naive.py``, on every variant, including deal numbers near 2^64−1.

Public API (everything else here is private to the module and its tests):

* ``play_deal``, ``play_deals``: deals from their start, one or in bulk;
* ``RankPosition.of(position)``: a position as the kernels read it;
* ``play_line``: a position played out with a given stream for its redeals;
* ``sample_lines``: a position played out many times with the unseen stock shuffled
  and random redeals (live chances, ``odds.live``); ``sample_start`` is the stream
  sample ``i`` starts from, so that its shuffles can be replayed outside;
* ``UNLIMITED``, ``redeals_arg``: how the kernels spell V1.

Three things make the compiled line fast without changing a single result:

* the reserve is kept as a count per rank: ranks alone decide play, and which of two
  equal reserve cards leaves (the leftmost, R6) only decides which slot the refill
  lands in, which no later rule can see;
* turning scans the stock for the needed rank in a tight loop: while cards miss, none of
  the other sources can start to fit (a missing card pushed on the waste is not the
  needed rank, so not even V2's waste top changes that);
* the stock and the waste are two 104-slot buffers that swap roles on a redeal.

Every kernel is compiled once and cached on disk (``cache=True``): a second process
loads the machine code instead of compiling again (``jitcache`` finds a writable place,
or turns the cache off rather than fail).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from ..engine import Position, Variant
from ..engine.rng import RngState
from .jitcache import usable_cache

__all__ = [
    "UNLIMITED", "RankPosition", "play_deal", "play_deals", "play_line", "redeals_arg", "sample_lines",
    "sample_start",
]


def _cache_probe() -> None:
    """Never called: numba looks up the cache folder of this file through it."""


#: Whether the kernels below can be cached on disk (decided once, at import).
_CACHE = usable_cache(_cache_probe)

# numba turns mixed uint64/int64 arithmetic into float64: every constant is typed.
_U5 = np.uint64(5)
_U7 = np.uint64(7)
_U9 = np.uint64(9)
_U17 = np.uint64(17)
_U19 = np.uint64(19)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U45 = np.uint64(45)
_U57 = np.uint64(57)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)

#: Ranks 0…12 of the 104 cards in the unshuffled order of §4.4.
_RANKS0 = (np.arange(104) % 13).astype(np.int8)

#: ``redeals`` argument of the kernels for unlimited redeals (V1).
UNLIMITED = -1
#: Deals per block in the batch kernels: the unit a thread takes at a time.
_BLOCK = 4096


# ----------------------------------------------------------------------- random stream
@njit(cache=_CACHE, inline="always")
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return state, z ^ (z >> _U31)


@njit(cache=_CACHE)
def _seed(deal: np.uint64, s: np.ndarray) -> None:
    """§4.1: the xoshiro256** state of ``deal`` into ``s`` (uint64[4])."""
    st = deal
    for i in range(4):
        st, out = _splitmix(st)
        s[i] = out


@njit(cache=_CACHE, inline="always")
def _next(s: np.ndarray) -> np.uint64:
    """One xoshiro256** step on the state array ``s``."""
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    s3 = s[3]
    x = s1 * _U5
    result = ((x << _U7) | (x >> _U57)) * _U9
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << _U45) | (s3 >> _U19)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return np.uint64(result)


@njit(cache=_CACHE, inline="always")
def _below(s: np.ndarray, n: np.uint64) -> np.int64:
    """§4.2, Lemire's unbiased draw in [0, n) on 32-bit values."""
    m = (_next(s) >> _U32) * n
    low = m & _MASK32
    if low < n:
        t = (_TWO32 - n) % n
        while low < t:
            m = (_next(s) >> _U32) * n
            low = m & _MASK32
    return np.int64(m >> _U32)


@njit(cache=_CACHE)
def _shuffle(a: np.ndarray, length: int, s: np.ndarray) -> None:
    """§4.3, Fisher–Yates of ``a[:length]`` from the top down."""
    for i in range(length - 1, 0, -1):
        j = _below(s, np.uint64(i + 1))
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


# ----------------------------------------------------------------------- the forced line
@njit(cache=_CACHE)
def _forced_line(first: np.ndarray, rcount: np.ndarray, stock: np.ndarray, sp: int, sl: int,
                 waste: np.ndarray, wl: int, k: int, held: int, redeals: int,
                 redeals_left: int, waste_playable: bool, privileged: bool,
                 s: np.ndarray) -> tuple[bool, int, int]:
    """Play the forced line from any position to its end: (won, score, passes).

    ``first``: ranks at F1…F8 (−1 for a gap); ``rcount``: reserve cards per rank;
    ``stock[sp:sl]`` in turning order; ``waste[:wl]`` bottom to top (both buffers hold
    104); ``k``: active pile, ``held``: its cards without the base; ``redeals``: made so
    far; ``redeals_left``: −1 for unlimited; ``s``: the stream the redeals continue.
    All arrays are changed in place.
    """
    done = 13 * k
    need = (first[k] + 1 + held) % 13 if k < 8 else 0
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
            if wl > 0:  # R7 refill: waste top, else stock, else a gap
                wl -= 1
                first[7] = waste[wl]
            elif sp < sl:
                first[7] = stock[sp]
                sp += 1
            else:
                first[7] = -1
        elif rcount[need] > 0:  # a reserve card (which slot cannot matter)
            rcount[need] -= 1
            if wl > 0:
                wl -= 1
                rcount[waste[wl]] += 1
            elif sp < sl:
                rcount[stock[sp]] += 1
                sp += 1
        elif waste_playable and wl > 0 and waste[wl - 1] == need:  # V2
            wl -= 1
        elif sp < sl:  # R9: turn until a card fits
            while sp < sl and stock[sp] != need:
                waste[wl] = stock[sp]
                wl += 1
                sp += 1
            if sp == sl:
                continue
            sp += 1
        elif wl > 0 and redeals_left != 0:  # R10, §4.6: the waste, shuffled, turned from 0
            _shuffle(waste, wl, s)
            tmp = stock
            stock = waste
            waste = tmp
            sp = 0
            sl = wl
            wl = 0
            redeals += 1
            redeals_left -= 1
            continue
        else:  # R11
            return False, done + held, redeals + 1
        held += 1
        need = (need + 1) % 13


@njit(cache=_CACHE)
def _play_deal(deal: np.uint64, redeals: int, waste_playable: bool, privileged: bool,
               ranks: np.ndarray, first: np.ndarray, rcount: np.ndarray, stock: np.ndarray,
               waste: np.ndarray, s: np.ndarray) -> tuple[bool, int, int]:
    """Deal ``deal`` (R2, §4.5) and play it out, using the caller's scratch buffers."""
    ranks[:] = _RANKS0
    _seed(deal, s)
    _shuffle(ranks, 104, s)
    rcount[:] = 0
    for i in range(8):
        first[i] = ranks[i]
        rcount[ranks[8 + i]] += 1
    for i in range(88):
        stock[i] = ranks[16 + i]
    return _forced_line(first, rcount, stock, 0, 88, waste, 0, 0, 0, 0, redeals, waste_playable, privileged, s)


@njit(cache=_CACHE)
def _play_one(deal: np.uint64, redeals: int, waste_playable: bool,
              privileged: bool) -> tuple[bool, int, int]:
    return _play_deal(deal, redeals, waste_playable, privileged, np.empty(104, np.int8),
                      np.empty(8, np.int8), np.empty(13, np.int64), np.empty(104, np.int8),
                      np.empty(104, np.int8), np.empty(4, np.uint64))


@njit(cache=_CACHE)
def _play_block(deals: np.ndarray, start: np.uint64, lo: int, hi: int, redeals: int,
                waste_playable: bool, privileged: bool, won: np.ndarray, score: np.ndarray,
                passes: np.ndarray) -> None:
    """Results of deals ``lo…hi−1``: ``deals[i]`` when ``deals`` is non-empty, else
    ``start + i`` (a range without an array of deal numbers)."""
    ranks = np.empty(104, np.int8)
    first = np.empty(8, np.int8)
    rcount = np.empty(13, np.int64)
    stock = np.empty(104, np.int8)
    waste = np.empty(104, np.int8)
    s = np.empty(4, np.uint64)
    explicit = deals.shape[0] > 0
    for i in range(lo, hi):
        deal = deals[i] if explicit else start + np.uint64(i)
        w, sc, p = _play_deal(deal, redeals, waste_playable, privileged, ranks, first, rcount, stock, waste, s)
        won[i] = w
        score[i] = sc
        passes[i] = p


@njit(cache=_CACHE, nogil=True)  # Dask worker threads run it side by side
def _play_many_serial(deals: np.ndarray, start: np.uint64, count: int, redeals: int,
                      waste_playable: bool, privileged: bool, won: np.ndarray, score: np.ndarray,
                      passes: np.ndarray) -> None:
    _play_block(deals, start, 0, count, redeals, waste_playable, privileged, won, score, passes)


@njit(cache=_CACHE, parallel=True)
def _play_many_parallel(deals: np.ndarray, start: np.uint64, count: int, redeals: int,
                        waste_playable: bool, privileged: bool, won: np.ndarray, score: np.ndarray,
                        passes: np.ndarray) -> None:
    # Blocks, not single deals, per prange step: each block allocates its buffers once.
    blocks = (count + _BLOCK - 1) // _BLOCK
    for b in prange(blocks):
        lo = b * _BLOCK
        hi = min(lo + _BLOCK, count)
        _play_block(deals, start, lo, hi, redeals, waste_playable, privileged, won, score, passes)


# ----------------------------------------------------------------------- live chances
@njit(cache=_CACHE)
def _sample_stream(seed: np.uint64, i: int, s: np.ndarray) -> None:
    """Sample ``i``'s own stream: §4.1 seeding of (a SplitMix64 mix of ``seed``) + i, so
    samples of one seed, and the streams of different seeds, are unrelated."""
    _, base = _splitmix(seed)
    _seed(base + np.uint64(i), s)


@njit(cache=_CACHE, nogil=True)  # servers may ask from several threads
def _sample_lines(first0: np.ndarray, rcount0: np.ndarray, stock0: np.ndarray, waste0: np.ndarray,
                  k: int, held: int, redeals_used: int, redeals_left: int,
                  waste_playable: bool, privileged: bool, samples: int, seed: np.uint64, start: int,
                  won: np.ndarray, score: np.ndarray, passes: np.ndarray) -> None:
    """Play a position out as samples ``start … start+samples−1`` (results at 0…samples−1),
    each from the sample's own stream (``_sample_stream``): first the unseen stock is shuffled with it (Fisher–Yates of
    the stock in turning order, §4.3), then the forced line is played with the redeals
    continuing it (§4.6); results per sample."""
    first = np.empty(8, np.int8)
    rcount = np.empty(13, np.int64)
    stock = np.empty(104, np.int8)
    waste = np.empty(104, np.int8)
    s = np.empty(4, np.uint64)
    sl = stock0.shape[0]
    wl = waste0.shape[0]
    for i in range(samples):
        first[:] = first0
        rcount[:] = rcount0
        stock[:sl] = stock0
        waste[:wl] = waste0
        _sample_stream(seed, start + i, s)
        _shuffle(stock, sl, s)
        w, sc, p = _forced_line(first, rcount, stock, 0, sl, waste, wl, k, held, redeals_used, redeals_left,
                                waste_playable, privileged, s)
        won[i] = w
        score[i] = sc
        passes[i] = p


# ----------------------------------------------------------------------- Python entry points
def redeals_arg(variant: Variant) -> int:
    """The kernels' ``redeals``: a count, or ``UNLIMITED``."""
    return UNLIMITED if variant.redeals is None else variant.redeals


@dataclass(frozen=True, slots=True)
class RankPosition:
    """A position that is still playing, as the kernels read it: ranks 0…12 (ace…king)
    as ``int8``, −1 for a gap. Build it with ``RankPosition.of(position)``.

    ``first``: F1…F8; ``rcount``: how many reserve cards of each rank (which slot holds
    a card never matters to the forced line, see the module doc); ``stock``: in turning
    order; ``waste``: bottom to top; ``active``: the active pile (R3), ``held``: its
    cards without the base; ``redeals_left``: a count, or ``UNLIMITED``."""

    first: np.ndarray
    rcount: np.ndarray
    stock: np.ndarray
    waste: np.ndarray
    active: int
    held: int
    redeals_used: int
    redeals_left: int
    waste_playable: bool
    privileged: bool

    @classmethod
    def of(cls, pos: Position) -> RankPosition:
        """``pos`` in ranks; ``ValueError`` if it is already won (nothing to play)."""
        k = pos.active
        if k is None:
            raise ValueError("the position is won: there is no line to play")
        first = np.array([-1 if c is None else c.rank - 1 for c in pos.first], dtype=np.int8)
        rcount = np.zeros(13, dtype=np.int64)
        for c in pos.reserve:
            if c is not None:
                rcount[c.rank - 1] += 1
        stock = np.array([c.rank - 1 for c in pos.stock], dtype=np.int8)
        waste = np.array([c.rank - 1 for c in pos.waste], dtype=np.int8)
        left = pos.redeals_left
        v = pos.variant
        return cls(first, rcount, stock, waste, k, len(pos.piles[k]), pos.redeals_used,
                   UNLIMITED if left is None else left, v.waste_playable, v.privileged_last)


def play_line(rp: RankPosition, rng: RngState) -> tuple[bool, int, int]:
    """Play ``rp`` out as it stands (its stock order; its redeals shuffled with the
    stream ``rng``, as ``Position.rng`` is): (won, score, passes), the same as walking
    ``Position.forced_move()`` to the end. ``rp`` is not changed."""
    stock = np.empty(104, np.int8)
    sl = rp.stock.shape[0]
    stock[:sl] = rp.stock
    waste = np.empty(104, np.int8)
    wl = rp.waste.shape[0]
    waste[:wl] = rp.waste
    w, sc, p = _forced_line(rp.first.copy(), rp.rcount.copy(), stock, 0, sl, waste, wl, rp.active, rp.held,
                            rp.redeals_used, rp.redeals_left, rp.waste_playable, rp.privileged,
                            np.array(rng, dtype=np.uint64))
    return bool(w), int(sc), int(p)


def sample_start(seed: int, i: int) -> RngState:
    """The stream sample ``i`` of ``sample_lines(…, seed)`` starts from: the §4.1 seeding
    of (the SplitMix64 output of ``seed``) + ``i``, modulo 2^64. The sample draws from it,
    in order, the shuffle of the stock, then the shuffle of each redeal it makes.
    ``seed``: 0…2^64−1; ``i``: 0…2^63−1."""
    if not (0 <= seed <= 2**64 - 1 and 0 <= i < 2**63):
        raise ValueError(f"seed 0…2^64−1 and sample 0…2^63−1, not {seed}, {i}")
    s = np.empty(4, np.uint64)
    _sample_stream(np.uint64(seed), i, s)
    return (int(s[0]), int(s[1]), int(s[2]), int(s[3]))


def sample_lines(rp: RankPosition, samples: int, seed: int, start: int = 0,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``rp`` out as samples ``start … start+samples−1``, sample ``i`` with the
    unseen stock shuffled uniformly and random redeals, all drawn from its own stream
    (``sample_start``): arrays (won bool, score int8, passes int32), one entry per
    sample. ``seed`` is 0…2^64−1; the same seed gives the same results, and a run
    cut in parts (``start``) gives the same samples as one run."""
    if not (start >= 0 and start + samples <= 2**63):
        raise ValueError(f"samples start…start+samples−1 must lie in 0…2^63−1, not {start}, {samples}")
    won = np.empty(samples, np.bool_)
    score = np.empty(samples, np.int8)
    passes = np.empty(samples, np.int32)
    _sample_lines(rp.first, rp.rcount, rp.stock, rp.waste, rp.active, rp.held, rp.redeals_used,
                  rp.redeals_left, rp.waste_playable, rp.privileged, samples, np.uint64(seed), start,
                  won, score, passes)
    return won, score, passes


def play_deal(deal: int, variant: Variant) -> tuple[bool, int, int]:
    """One deal along the forced line, compiled: (won, score, passes) as ``play_out``."""
    w, sc, p = _play_one(np.uint64(deal), redeals_arg(variant), variant.waste_playable, variant.privileged_last)
    return bool(w), int(sc), int(p)


def play_deals(deals: np.ndarray | range, variant: Variant, parallel: bool = True,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play many deals: arrays (won bool, score int8, passes int32), one entry per deal.

    ``deals`` is a ``range`` of deal numbers (no array is built for it) or an array of
    them (``uint64``). ``parallel`` uses every numba thread; the serial kernel is for
    callers that bring their own parallelism (Dask worker threads, processes).
    """
    if isinstance(deals, range):
        if deals.step != 1:
            raise ValueError("a range of deals must have step 1")
        if len(deals) and not (deals.start >= 0 and deals.stop - 1 <= 2**64 - 1):
            raise ValueError("deal numbers must be 0…2^64−1")
        arr = np.empty(0, np.uint64)
        start = np.uint64(deals.start if len(deals) else 0)
        count = len(deals)
    else:
        arr = np.ascontiguousarray(deals, dtype=np.uint64)
        start = np.uint64(0)
        count = arr.shape[0]
    won = np.empty(count, np.bool_)
    score = np.empty(count, np.int8)
    passes = np.empty(count, np.int32)
    fn = _play_many_parallel if parallel else _play_many_serial
    fn(arr, start, count, redeals_arg(variant), variant.waste_playable, variant.privileged_last,
       won, score, passes)
    return won, score, passes
