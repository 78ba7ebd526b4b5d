"""The kernel: the forced line of ``forced_line.c`` through one route (``abi.Calls``).
Results come as ``array.array`` (``Lines``: no numpy needed) or as counts
(``stats.Tally``); a count is one call's, on the caller's thread (``odds.runner`` shares
a run's chunks out), a batch played out is shared out over cores (``Kernel._shared``).
"""

from __future__ import annotations

import array
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from ... import runtime
from ...engine import Position, Variant
from ..stats import STUCK_PASSES, Tally, UnlimitedTally
from .abi import JOB_BYTES, PASS_BINS, Calls

#: ``redeals`` of the kernels for unlimited redeals (V1).
UNLIMITED: Final = -1
#: Deals per thread at least, when a batch is shared out.
BLOCK: Final = 4096
#: Largest count one call takes (the C side counts in 32 bits).
_MAX_CALL: Final = 1 << 30
_I64_MAX: Final = 2**63 - 1
_TOP: Final = 2**64 - 1
#: Tally layout (``fl_tally_range``): games, wins, beyond the pass bins, 105 scores, bins.
_T_SCORES: Final = 3
_T_ALL: Final = _T_SCORES + 105
_T_WON: Final = _T_ALL + PASS_BINS
_T_SIZE: Final = _T_WON + PASS_BINS
#: ``fl_tally_stuck``: the same, then STUCK_PASSES histograms of 105 scores.
_S_SIZE: Final = _T_SIZE + 105 * STUCK_PASSES


class Lines(NamedTuple):
    """Per deal or per sample: won (0/1), score (cards on the piles), passes."""

    won: array.array[int]
    score: array.array[int]
    passes: array.array[int]


def _flags(waste_playable: bool, privileged: bool) -> int:
    return (1 if waste_playable else 0) | (2 if privileged else 0)


def _left(redeals: int) -> int:
    """Redeals still allowed, as the kernel holds them (int64): more than 2^63 − 1 can
    never be used up (each takes a pass), so they are as good as that many."""
    if redeals < UNLIMITED:
        raise ValueError(f"redeals must be ≥ 0 or UNLIMITED, not {redeals}")
    return min(redeals, _I64_MAX)


@dataclass(frozen=True, slots=True)
class RankPosition:
    """A position that is still playing, as the kernels read it: ranks 0…12 (ace…king),
    −1 for a gap. Build it with ``RankPosition.of(position)``.

    ``first``: F1…F8; ``rcount``: how many reserve cards of each rank (which slot holds
    a card never matters to the forced line, see forced_line.c); ``stock``: in turning
    order; ``waste``: bottom to top; ``active``: the active pile (R3), ``held``: its
    cards without the base; ``redeals_left``: a count, or ``UNLIMITED``."""

    first: tuple[int, ...]
    rcount: tuple[int, ...]
    stock: tuple[int, ...]
    waste: tuple[int, ...]
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
        rcount = [0] * 13
        for c in pos.reserve:
            if c is not None:
                rcount[c.rank - 1] += 1
        left = pos.redeals_left
        v = pos.variant
        return cls(tuple(-1 if c is None else c.rank - 1 for c in pos.first), tuple(rcount),
                   tuple(c.rank - 1 for c in pos.stock), tuple(c.rank - 1 for c in pos.waste), k,
                   len(pos.piles[k]), pos.redeals_used, UNLIMITED if left is None else left, v.waste_playable,
                   v.privileged_last)


class Kernel:
    """The forced line through one route (``calls``)."""

    def __init__(self, calls: Calls) -> None:
        self.calls = calls
        self.name = calls.name
        self._head = struct.Struct(calls.order + "4Q3q6i")

    # --------------------------------------------------------------- jobs
    def _job(self, *, rng: Sequence[int], first_index: int = 0, redeals_left: int = 0,
             count: int = 0, flags: int = 0, rp: RankPosition | None = None) -> bytes:
        if rp is None:  # no position (a deal from its start, or a stream alone): no redeal made
            head = self._head.pack(*rng, first_index, 0, redeals_left, count, 0, 0, 0, 0, flags)
            return head + bytes(JOB_BYTES - self._head.size)
        # Checked here: the C side trusts every index it is given.
        if not (len(rp.first) == 8 and len(rp.rcount) == 13 and len(rp.stock) + len(rp.waste) <= 104
                and 0 <= rp.active < 8 and 0 <= rp.held <= 12 and all(-1 <= r <= 12 for r in rp.first)
                and 0 <= rp.first[rp.active] <= 12 and all(0 <= n <= 8 for n in rp.rcount)
                and all(0 <= r <= 12 for r in (*rp.stock, *rp.waste))):
            raise ValueError("not a position the kernel can play")
        if not 0 <= rp.redeals_used <= _I64_MAX:
            raise OverflowError(f"redeals made {rp.redeals_used} do not fit the kernel's 64-bit count")
        head = self._head.pack(*rng, first_index, rp.redeals_used, _left(rp.redeals_left), count, rp.active,
                               rp.held, len(rp.stock), len(rp.waste), _flags(rp.waste_playable, rp.privileged))

        def ranks(xs: Sequence[int], size: int) -> bytes:
            return array.array("b", [*xs, *([0] * (size - len(xs)))]).tobytes()

        return head + ranks(rp.first, 8) + ranks(rp.rcount, 16) + ranks(rp.stock, 104) + ranks(rp.waste, 104)

    def _deal_job(self, variant: Variant, start: int, count: int) -> bytes:
        redeals = UNLIMITED if variant.redeals is None else variant.redeals
        return self._job(rng=(start, 0, 0, 0), redeals_left=_left(redeals), count=count,
                         flags=_flags(variant.waste_playable, variant.privileged_last))

    def _chunk(self, per_item: int, fixed: int = 0) -> int:
        room = self.calls.room
        return _MAX_CALL if room is None else max(1, (room - JOB_BYTES - fixed - 64) // per_item)

    # --------------------------------------------------------------- deals
    def _in_calls(self, count: int, per_item: int, call: Callable[[int, int, Lines], None]) -> Lines:
        """``Lines`` of ``count`` items, played ``call(offset, n, part)`` by as many calls
        as the route's room needs (``per_item``: bytes an item takes in a call)."""
        step = self._chunk(per_item)
        if 0 < count <= step:
            call(0, count, out := _lines(count))
            return out
        won, score, passes = _lines(count)
        for lo in range(0, count, step):
            n = min(step, count - lo)
            call(lo, n, part := _lines(n))
            won[lo:lo + n], score[lo:lo + n], passes[lo:lo + n] = part
        return Lines(won, score, passes)

    def _play_range(self, variant: Variant, start: int, count: int) -> Lines:
        return self._in_calls(count, 6, lambda lo, n, part: self.calls.call(
            "fl_play_range", self._deal_job(variant, (start + lo) & _TOP, n), *part))

    def _play_list(self, variant: Variant, deals: array.array[int]) -> Lines:
        return self._in_calls(len(deals), 14, lambda lo, n, part: self.calls.call(
            "fl_play_list", self._deal_job(variant, 0, n), deals[lo:lo + n].tobytes(), *part))

    def _tally(self, variant: Variant, start: int, count: int,
               unlimited: bool) -> tuple[Tally, tuple[tuple[int, ...], ...]]:
        """The kernel's counts of deals start … start+count−1 (``fl_tally_range``); with
        ``unlimited``, also each redeal count's stuck scores (``fl_tally_stuck``)."""
        size = _S_SIZE if unlimited else _T_SIZE
        tally = Tally(variant)
        stuck = [0] * (105 * STUCK_PASSES)
        step = self._chunk(1, 8 * size)
        for lo in range(0, count, step):
            n = min(step, count - lo)
            t = array.array("Q", bytes(8 * size))
            first = (start + lo) & _TOP
            self.calls.call("fl_tally_stuck" if unlimited else "fl_tally_range", self._deal_job(variant, first, n), t)
            if t[2]:  # a game beyond the pass bins: count this part from its lines (the rest holds)
                tally += Tally.of(variant, *self._play_range(variant, first, n))
            else:
                tally += Tally(variant, t[0], t[1], tuple(t[_T_WON:_T_SIZE]), tuple(t[_T_ALL:_T_WON]),
                               tuple(t[_T_SCORES:_T_ALL]))
            if unlimited:
                stuck = [a + b for a, b in zip(stuck, t[_T_SIZE:], strict=True)]
        return tally, tuple(tuple(stuck[105 * r:105 * (r + 1)]) for r in range(STUCK_PASSES))

    def _shared(self, count: int, parallel: bool, fn: Callable[[int, int], Lines]) -> list[Lines]:
        """``fn(offset, size)`` over the parts a batch is shared out in: one per thread,
        where the route runs calls side by side and threads may start (``fn`` lets go of
        the interpreter lock, as the native kernel does)."""
        n = 1
        if parallel and self.calls.parallel:
            n = max(1, min(runtime.cores(), -(-count // BLOCK)))
        size = -(-count // n) if count else 0
        parts = [(lo, min(size, count - lo)) for lo in range(0, count, size)] if count else []
        if len(parts) <= 1 or not runtime.THREADS:
            return [fn(*p) for p in parts]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=len(parts), thread_name_prefix="firstlast-fan") as pool:
            return list(pool.map(lambda p: fn(*p), parts))

    def play_deals(self, deals: range | Iterable[int], variant: Variant, parallel: bool = True) -> Lines:
        """Play many deals from their start: ``Lines``, one entry per deal.

        ``deals``: a ``range`` of deal numbers (step 1; no list is built for it) or any
        sequence of them (a list, ``array('Q')``, a numpy array). ``parallel``: share
        the deals out over this process's cores where the route allows;
        ``False`` for callers that bring their own parallelism (Dask worker threads)."""
        if isinstance(deals, range):
            start, count = _check_range(deals)
            parts = self._shared(count, parallel, lambda lo, n: self._play_range(variant, (start + lo) & _TOP, n))
        else:
            try:
                arr = array.array("Q", (int(d) for d in deals))
            except OverflowError:
                raise ValueError("deal numbers must be 0…2^64−1") from None
            parts = self._shared(len(arr), parallel, lambda lo, n: self._play_list(variant, arr[lo:lo + n]))
        if len(parts) == 1:
            return parts[0]
        out = _lines(0)
        for part in parts:
            for column, more in zip(out, part, strict=True):
                column.extend(more)
        return out

    def count_deals(self, deals: range, variant: Variant) -> Tally:
        """The tally of ``deals`` (a ``range``) played out, without per-deal results."""
        return self._tally(variant, *_check_range(deals), False)[0]

    def count_unlimited(self, deals: range, variant: Variant) -> UnlimitedTally:
        """``deals`` (a ``range``) played out with unlimited redeals (``variant.redeals``
        is None), counted together with what the same deals do with 0 … STUCK_PASSES − 1
        redeals (``UnlimitedTally``): one run of the unlimited game counts them all."""
        if variant.redeals is not None:
            raise ValueError(f"count_unlimited plays unlimited redeals, not {variant.token}")
        return UnlimitedTally(*self._tally(variant, *_check_range(deals), True))

    # --------------------------------------------------------------- positions
    def sample_lines(self, rp: RankPosition, samples: int, seed: int, start: int = 0) -> Lines:
        """Play ``rp`` out as samples ``start … start+samples−1``, sample ``i`` with the
        unseen stock shuffled uniformly and random redeals, all drawn from its own
        stream (``live.sample_stream``): ``Lines``, one entry per sample. The same seed gives
        the same results, and a run cut in parts (``start``) the same samples."""
        if not (0 <= seed <= _TOP):
            raise ValueError(f"seed must be 0…2^64−1, not {seed}")
        if not (samples >= 0 and start >= 0 and start + samples <= 2**63):
            raise ValueError(f"samples start…start+samples−1 must lie in 0…2^63−1, not {start}, {samples}")
        return self._in_calls(samples, 6, lambda lo, n, part: self.calls.call(
            "fl_sample_lines", self._job(rng=(seed, 0, 0, 0), first_index=start + lo, count=n, rp=rp), *part))


def _lines(n: int) -> Lines:
    return Lines(array.array("B", bytes(n)), array.array("b", bytes(n)), array.array("i", bytes(4 * n)))


def _check_range(deals: range) -> tuple[int, int]:
    if deals.step != 1:
        raise ValueError("a range of deals must have step 1")
    if len(deals) and not (deals.start >= 0 and deals.stop - 1 <= _TOP):
        raise ValueError("deal numbers must be 0…2^64−1")
    return (deals.start if len(deals) else 0), len(deals)
