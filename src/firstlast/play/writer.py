"""Group commit: the play layer's writes, many actions to one fsync.

Every write of ``PlayService`` is a *job*: a function that reads and writes through a
``Transaction``. ``GroupWriter.run(job)`` returns the job's answer only once what it
wrote is committed (on disk: the store's connections run ``synchronous=FULL``).

Jobs that arrive while a commit is under way are queued and done together, in arrival
order, in one transaction: one ``BEGIN IMMEDIATE`` and one ``COMMIT`` (one fsync) for the
batch. Each job runs in its own ``SAVEPOINT``, so a job that fails (a refused move, a
bug) is rolled back alone and answered with its own error, and the others in the batch
are kept. Every waiter is answered after its batch's ``COMMIT`` returned; if the
``COMMIT`` fails (a full disk, a lock held too long), nothing of the batch is stored and
every job in it is answered ``PlayError('storage')`` — a refusal included, since it may
have been decided on a write of the batch that is now gone — and the ``GameCache`` drops
everything, so no state that was never stored is ever served.

The first caller to find no batch under way *leads* — it takes the queue, runs the
batch and commits it — and when it is done it hands the lead to the first job queued
meanwhile, whose caller then does the next batch. A lone caller (one request at a time)
thus runs its job on its own thread, with no hop to another thread and no wait;
concurrent callers share fsyncs. A job queued from an event loop (``run_async``) cannot
lead there (a commit's fsync would stall the loop): its lead goes to the writer's own
thread, made when first needed, and its answer comes back to the loop as a future.

Where no thread can start (the browser: ``runtime.THREADS`` is false) the same queue,
transaction, savepoints and commit run inline: a loop's job leads its batch itself, on
the loop, and is answered after the ``COMMIT`` as everywhere else. The browser has one
player, so nothing else is kept waiting meanwhile.

``close`` stops a writer for good (a server that stops): jobs queued are committed and
answered, later ones are refused ``PlayError('stopping')``, and its thread is joined.
An answer for an event loop that has closed meanwhile (the server stopped while a batch
was under way) is dropped: nobody waits for it, and the lead still passes on, so no
thread waiting in ``run`` is ever left behind.

``GameCache`` keeps the games as last committed or read, so that neither an action nor
a read replays the move list. Entries written by a batch are *pending* (seen only by the
later jobs of the same batch, which run in the same transaction) until the batch
commits; an entry is used only when its version is the stored one, read in the same
transaction, so an entry that another process overtook is never used.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Final, Generic, TypeVar

from .. import runtime
from ..store import GameStore, StoreConflict, StoredGame, StoreError, Transaction, TransactionBroken, UnknownGame
from .errors import PlayError
from .kept import Kept

T = TypeVar("T")
#: Most jobs in one batch (the rest wait for the next one).
MAX_BATCH: Final = 64
#: Games kept in the cache.
CACHED_GAMES: Final = 256


def storage_error(e: BaseException) -> PlayError:
    """``PlayError('storage')`` for a failure of the store itself."""
    return PlayError("storage", reason=str(e) or type(e).__name__)


class GameCache:
    """The games as this process last committed or read them, by id (``Kept``: the least
    recently kept go), and those the batch under way wrote (*pending*: seen only by its
    later jobs, which share its transaction, until it commits). An entry is never
    changed once kept: readers share it, and a job changes a ``StoredGame.copy``; so a
    read at an entry's version needs no replay (issue 25.5). Pending entries are only
    touched by the leading job of a ``GroupWriter`` (jobs run one at a time)."""

    def __init__(self, size: int = CACHED_GAMES) -> None:
        self._committed: Kept[str, StoredGame] = Kept(size)
        self._pending: dict[str, StoredGame] = {}

    def peek(self, game_id: str, version: int, pending: bool = False) -> StoredGame | None:
        """The entry for ``game_id`` if it is at ``version`` (shared: to read); with
        ``pending`` (a write job), the batch's own entries first."""
        stored = (self._pending.get(game_id) if pending else None) or self._committed.get(game_id)
        return stored if stored is not None and stored.version == version else None

    def put(self, stored: StoredGame) -> None:
        """``stored`` is the game as written by the batch under way (pending until it
        commits)."""
        self._pending[stored.id] = stored

    def keep(self, stored: StoredGame) -> None:
        """``stored`` was read as committed."""
        self._committed.put(stored.id, stored)

    def drop(self, game_id: str) -> None:
        self._pending.pop(game_id, None)
        self._committed.pop(game_id)

    def committed(self) -> None:
        """The batch committed: its entries are the stored games now."""
        for stored in self._pending.values():
            self._committed.put(stored.id, stored)
        self._pending.clear()

    def clear(self) -> None:
        """Forget everything (the batch failed: nothing it wrote was stored)."""
        self._pending.clear()
        self._committed.clear()

    def __len__(self) -> int:
        return len(self._committed)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._committed


class _Job(Generic[T]):
    __slots__ = ("done", "error", "fn", "future", "lead", "loop", "value", "wake")

    def __init__(self, fn: Callable[[Transaction], T]) -> None:
        self.fn = fn
        self.value: T | None = None
        self.error: BaseException | None = None
        self.done = False
        self.lead = False
        self.wake = threading.Event()
        # Set for a job queued from an event loop (``run_async``): answered through these.
        self.loop: asyncio.AbstractEventLoop | None = None
        self.future: asyncio.Future[T] | None = None


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., object], *args: object) -> bool:
    """``loop.call_soon_threadsafe(fn, *args)``; ``False`` when the loop has closed."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:  # "Event loop is closed": the server stopped; nobody awaits
        return False
    return True


def _settle(future: asyncio.Future[T], value: T | None, error: BaseException | None) -> None:
    """Answer an awaiting ``run_async`` (in its loop's thread)."""
    if future.done():  # the awaiting task was cancelled: nobody listens any more
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)  # type: ignore[arg-type]


class GroupWriter:
    """Runs write jobs in batches, one transaction and one commit per batch (see the
    module's docstring)."""

    def __init__(self, store: GameStore, cache: GameCache) -> None:
        self.store = store
        self.cache = cache
        self._mutex = threading.Lock()
        self._queue: list[_Job[object]] = []
        self._leading = False
        self._leader: int | None = None  # the thread running a batch's jobs
        # The writer's own thread, which leads the batches an event loop's job should lead.
        self._thread: threading.Thread | None = None
        self._lead_wanted = threading.Event()
        self._closed = False  # ``close``: no more jobs
        #: Batches committed and jobs done in them, for the curious (bench, tests).
        self.batches = 0
        self.jobs = 0

    def run(self, fn: Callable[[Transaction], T]) -> T:
        """Do ``fn(tx)`` in a write transaction and answer once it is committed: its
        value, or the exception it raised (its writes rolled back), or
        ``PlayError('storage')`` when the batch could not be committed."""
        if self._leader == threading.get_ident():
            raise RuntimeError("a write job cannot wait for another write job (it would wait for itself)")
        job: _Job[T] = _Job(fn)
        self._enqueue(job)
        while not job.done:
            if job.lead:
                self._lead(job)
            else:
                job.wake.wait()
                job.wake.clear()
        if job.error is not None:
            raise job.error
        return job.value  # type: ignore[return-value]

    async def run_async(self, fn: Callable[[Transaction], T]) -> T:
        """``run`` for a caller on an event loop: the same batching and guarantees, the
        answer awaited instead of waited for on a thread."""
        loop = asyncio.get_running_loop()
        job: _Job[T] = _Job(fn)
        job.loop, job.future = loop, loop.create_future()
        self._enqueue(job)
        if job.lead:
            if runtime.THREADS:
                self._hand_lead()
            else:
                self._lead(job)  # no threads: the batch is committed here, on the loop
        return await job.future

    def _enqueue(self, job: _Job[T]) -> None:
        with self._mutex:
            if self._closed:
                raise PlayError("stopping")
            self._queue.append(job)  # type: ignore[arg-type]
            if not self._leading:
                self._leading = job.lead = True

    def close(self, timeout: float = 10.0) -> None:
        """Stop for good: later jobs are refused ``PlayError('stopping')``; those queued
        are committed and answered (waited for up to ``timeout`` seconds); then the
        writer's thread ends and is joined."""
        with self._mutex:
            self._closed = True
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._mutex:
                if not self._leading:
                    break
            time.sleep(0.005)
        with self._mutex:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._lead_wanted.set()  # it sees ``_closed`` with nothing to lead, and returns
            thread.join(max(0.0, deadline - time.monotonic()))

    def _hand_lead(self) -> None:
        """Let the writer's thread lead the next batch (started when first needed)."""
        with self._mutex:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._lead_for_loops, name="firstlast-writer", daemon=True)
                self._thread.start()
        self._lead_wanted.set()

    def _lead_for_loops(self) -> None:
        while True:
            self._lead_wanted.wait()
            self._lead_wanted.clear()
            with self._mutex:
                first = self._queue[0] if self._queue else None
                if first is None and self._closed:
                    return
            if first is not None and first.lead and first.future is not None:
                self._lead(first)

    def _lead_queued(self, job: _Job[T]) -> None:
        """Lead the batch ``job`` heads, if it still has the lead (no threads: on the loop)."""
        if job.lead and not job.done:
            self._lead(job)

    def _lead(self, me: _Job[T]) -> None:
        with self._mutex:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
        me.lead = False
        try:
            self._commit(batch)
        finally:
            with self._mutex:
                following = self._queue[0] if self._queue else None
                if following is None:
                    self._leading = False
                else:
                    following.lead = True  # the lead passes on (self._leading stays True)
            for job in batch:
                job.done = True
                if job.future is not None and job.loop is not None:
                    _call_soon(job.loop, _settle, job.future, job.value, job.error)
                elif job is not me:
                    job.wake.set()
            if following is not None:
                if following.future is not None and runtime.THREADS:
                    self._hand_lead()
                elif following.future is not None:
                    # No threads: the job's own loop leads it; a loop that has closed
                    # cannot, so it is led here and now.
                    assert following.loop is not None
                    if not _call_soon(following.loop, self._lead_queued, following):
                        self._lead(following)
                else:
                    following.wake.set()

    def _commit(self, batch: list[_Job[object]]) -> None:
        self._leader = threading.get_ident()
        try:
            with self.store.transaction() as tx:
                for job in batch:
                    self._one(tx, job)
        except BaseException as e:  # the batch is lost: nothing of it was stored
            self.cache.clear()
            for job in batch:
                job.value, job.error = None, storage_error(e)
            if not isinstance(e, Exception):
                raise  # KeyboardInterrupt and the like: the waiters are answered first (finally)
            return
        finally:
            self._leader = None
        self.cache.committed()
        self.batches += 1
        self.jobs += len(batch)

    @staticmethod
    def _one(tx: Transaction, job: _Job[object]) -> None:
        try:
            with tx.savepoint():
                job.value = job.fn(tx)
        except TransactionBroken:
            raise  # its writes could not be undone: the batch fails (nothing of it is stored)
        except Exception as e:  # the job's own failure, its writes undone: it alone is answered with it
            job.error = _as_play_error(e)


def _as_play_error(e: Exception) -> Exception:
    """A job's failure as its caller sees it: storage failures are ``PlayError('storage')``."""
    if isinstance(e, StoreError) and not isinstance(e, UnknownGame | StoreConflict):
        return storage_error(e)
    if isinstance(e, sqlite3.Error):
        return storage_error(e)
    return e
