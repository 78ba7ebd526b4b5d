"""Batches of deals: which deals a run plays (``deal_block``), and where they are played
(docs/odds.md, "Commands"): chunks tallied by the kernel (counts, no per-deal results)
on this machine's threads or as tasks on a Dask cluster; tallies are sums, so the order
chunks finish in does not matter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Final, TypeVar

from ..engine import Variant
from . import fastline
from .stats import FAMILIES, TABLE_REDEALS, Tally, UnlimitedTally

SEED_SPAN: Final = 2**32
MAX_SEED: Final = 2**32 - 1
MAX_GAMES: Final = SEED_SPAN
CHUNK: Final = 1 << 20

Progress = Callable[[int], None]
T = TypeVar("T", Tally, UnlimitedTally)


class SchedulerError(RuntimeError):
    """The Dask scheduler could not be reached or failed the run."""


def deal_block(seed: int, games: int) -> range:
    """The deals of a run: ``games`` consecutive deals from ``seed · 2^32``."""
    if isinstance(games, bool) or not isinstance(games, int) or not 0 < games <= MAX_GAMES:
        raise ValueError(f"games must be a whole number 1…{MAX_GAMES:,}, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number 0…{MAX_SEED}, not {seed!r}")
    start = seed * SEED_SPAN
    return range(start, start + games)


def chunks(deals: range, size: int = CHUNK) -> list[range]:
    """``deals`` cut into consecutive ranges of at most ``size`` deals."""
    return [range(a, min(a + size, deals.stop)) for a in range(deals.start, deals.stop, size)]


def tally_chunk(token: str, start: int, stop: int) -> Tally:
    """Tally deals [start, stop) of the variant named ``token`` on the calling thread (a
    Dask worker's, or one of a local run's); plain arguments, so that a Dask task pickles
    nothing of ours but the result."""
    return fastline.need().count_deals(range(start, stop), Variant.from_token(token))


def tally_unlimited_chunk(token: str, start: int, stop: int) -> UnlimitedTally:
    """``tally_chunk`` of an unlimited-redeal variant, with what the deals do with fewer
    redeals (``Kernel.count_unlimited``)."""
    return fastline.need().count_unlimited(range(start, stop), Variant.from_token(token))


def connect(address: str, timeout: float = 5.0) -> Any:
    """A ``dask.distributed.Client`` for the scheduler at ``address`` (short timeout).

    The client is made in a daemon thread that is abandoned after ``timeout`` (plus a
    grace second): distributed's ``timeout`` bounds the TCP connect but not the handshake
    that follows, so a server that accepts and then says nothing (an HTTP server, say)
    would hang the command forever, and one that answers garbage makes distributed raise
    anything (even a MemoryError for a bogus frame length)."""
    import contextlib
    import threading
    from concurrent.futures import Future

    from distributed import Client

    made: Future[Any] = Future()

    def make() -> None:
        try:
            made.set_result(Client(address, timeout=f"{timeout}s"))  # type: ignore[no-untyped-call]
        except BaseException as e:  # reported below, in the caller's thread
            made.set_exception(e)

    threading.Thread(target=make, name="firstlast-dask-connect", daemon=True).start()
    with contextlib.suppress(Exception):  # what went wrong is the future's to say
        return made.result(timeout + 1.0)
    if not made.done():  # given up on: a client made later is closed then
        made.add_done_callback(_close_late)
        raise SchedulerError(f"cannot reach the Dask scheduler at {address!r}: no Dask answer within {timeout:g} s")
    e = made.exception()
    if e is None:  # made just now
        return made.result()
    if isinstance(e, OSError | TimeoutError | ValueError):
        detail = str(e) or type(e).__name__
    else:
        detail = f"it does not answer as a Dask scheduler ({type(e).__name__})"
    raise SchedulerError(f"cannot reach the Dask scheduler at {address!r}: {detail}") from None


def _close_late(made: Any) -> None:
    if made.exception() is None:
        made.result().close()


def _gather(fn: Callable[[str, int, int], T], variants: Sequence[Variant], empty: Callable[[Variant], T],
            games: int, seed: int, workers: int | None, client: Any, progress: Progress | None,
            chunk: int) -> list[T]:
    """The run (``seed``, ``games``) of each of ``variants`` (each once), chunk by chunk:
    ``fn(token, start, stop)`` on ``workers`` threads here, each chunk on one thread
    (the kernel lets go of the interpreter lock), or as one Dask task per chunk on
    ``client``."""
    if len(set(variants)) != len(variants):
        raise ValueError("each variant once")
    jobs = [(v.token, part) for v in variants for part in chunks(deal_block(seed, games), chunk)]
    total = {v.token: empty(v) for v in variants}
    if client is None:
        most = fastline.max_threads()
        if workers is not None and not 1 <= workers <= most:
            raise ValueError(f"workers must be 1…{most} on this machine, not {workers}")
        pool = ThreadPoolExecutor(max_workers=workers or most, thread_name_prefix="firstlast-odds")
    else:
        pool = client.get_executor(pure=True)  # a concurrent.futures executor of Dask tasks
    which = {pool.submit(fn, tok, part.start, part.stop): (tok, part) for tok, part in jobs}
    try:
        for fut in as_completed(which):
            tok, part = which[fut]
            total[tok] += fut.result()
            if progress:
                progress(len(part))
    except Exception as e:
        if client is None:
            raise
        raise SchedulerError(f"the Dask run failed: {type(e).__name__}: {e}") from e  # a worker's failure
    finally:
        if client is None:  # on an error, the chunks not started are dropped
            pool.shutdown(cancel_futures=True)
    return [total[v.token] for v in variants]


def table(games: int, seed: int = 0, workers: int | None = None, client: Any = None,
          progress: Progress | None = None, chunk: int = CHUNK) -> tuple[list[Tally], list[UnlimitedTally]]:
    """Every variant of the table (redeals 0–3 and unlimited × the four families, 20
    rows) from the run (``seed``, ``games``) of each family's unlimited-redeal variant,
    which counts what the same deals do with fewer redeals too: (rows, the four
    ``UnlimitedTally`` they come from). Played as ``run`` plays."""
    variants = [Variant(None, wp, pr) for wp, pr in FAMILIES]
    unlimited = _gather(tally_unlimited_chunk, variants, lambda v: UnlimitedTally(Tally(v)), games, seed, workers,
                        client, progress, chunk)
    return [t for u in unlimited for t in u.rows(TABLE_REDEALS)], unlimited


def run(variants: Iterable[Variant], games: int, seed: int = 0, workers: int | None = None,
        client: Any = None, progress: Progress | None = None, chunk: int = CHUNK) -> list[Tally]:
    """Tally the run (``seed``, ``games``) for each variant (each once), locally (whole
    chunks on ``workers`` threads) or on ``client``."""
    return _gather(tally_chunk, list(variants), Tally, games, seed, workers, client, progress, chunk)
