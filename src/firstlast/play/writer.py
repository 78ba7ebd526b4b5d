"""One writer: the play layer's writes (*jobs*, ``Writer.run``), on one thread with a
queue, many to one fsync, and the games as committed (``GameCache``); docs/play.md,
"Writes and speed", tells the policy."""

from __future__ import annotations

import asyncio
import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from contextlib import suppress
from typing import Final, TypeVar

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
    """The games as this process last committed them, by id, and those the batch under
    way wrote (*pending* until it commits; docs/play.md, "Writes and speed"). Only the
    ``Writer``'s jobs, one at a time, touch the pending ones."""

    def __init__(self, size: int = CACHED_GAMES) -> None:
        self._committed: Kept[str, StoredGame] = Kept(size)
        self._pending: dict[str, StoredGame] = {}

    def peek(self, game_id: str, version: int, pending: bool = False) -> StoredGame | None:
        """The entry for ``game_id`` if it is at ``version``, to read: the committed one,
        or with ``pending`` (in a write job) the batch's own first."""
        stored = (pending and self._pending.get(game_id)) or self._committed.get(game_id)
        return stored if stored is not None and stored.version == version else None

    def put(self, stored: StoredGame) -> None:
        """``stored`` is the game as the batch under way wrote it."""
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


#: A write job and the future of its answer (``None`` in the queue: closed, no more jobs).
_Job = tuple[Callable[[Transaction], object], Future[object]]


def _write(jobs: queue.SimpleQueue[_Job | None], writer: weakref.ref[Writer]) -> None:
    """The writer's thread: what is queued, a batch at a time, until ``None``. It holds
    the queue, never the writer: a writer nobody holds any more is freed (and its
    store's connections with it), which closes the queue, and the thread ends."""
    while True:
        batch = [jobs.get()]
        while batch[-1] is not None and len(batch) < MAX_BATCH and not jobs.empty():
            batch.append(jobs.get())
        closed = batch[-1] is None
        held = writer()
        if held is None:
            return
        if batch[0] is not None:
            held._commit([job for job in batch if job is not None])
        del held, batch  # nothing of them is kept while the thread waits
        if closed:
            return


class Writer:
    """Runs write jobs on one thread, in batches: one transaction and one commit per batch."""

    def __init__(self, store: GameStore, cache: GameCache) -> None:
        self.store = store
        self.cache = cache
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closing = threading.Lock()  # no job is queued after the ``None`` that closes
        self._closed = False
        self._thread: threading.Thread | None = None
        self._writing: int | None = None  # the thread running a batch's jobs
        weakref.finalize(self, self._jobs.put, None)
        #: Batches committed (``PlayService.commits``).
        self.batches = 0

    def run(self, fn: Callable[[Transaction], T]) -> T:
        """Do ``fn(tx)`` in a write transaction and answer once it is committed: its
        value, or the exception it raised (its writes rolled back), or
        ``PlayError('storage')`` when the batch could not be committed."""
        if self._writing == threading.get_ident():
            raise RuntimeError("a write job cannot wait for another write job (it would wait for itself)")
        return self._enqueue(fn).result()

    async def run_async(self, fn: Callable[[Transaction], T]) -> T:
        """``run`` for a caller on an event loop: the answer awaited."""
        return await asyncio.wrap_future(self._enqueue(fn))

    def _enqueue(self, fn: Callable[[Transaction], T]) -> Future[T]:
        """Queue ``fn`` for the writer's thread, or do it here and now where no thread
        can start (the browser: ``runtime.THREADS``)."""
        future: Future[T] = Future()
        with self._closing:
            if self._closed:
                raise PlayError("stopping")
            if runtime.THREADS:
                self._jobs.put((fn, future))  # type: ignore[arg-type]
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=_write, args=(self._jobs, weakref.ref(self)),
                                                    name="firstlast-writer", daemon=True)
                    self._thread.start()
                return future
        self._commit([(fn, future)])  # type: ignore[list-item]
        return future

    def close(self, timeout: float = 10.0) -> None:
        """Stop for good: later jobs are refused ``PlayError('stopping')``; those queued
        are committed and answered (waited for up to ``timeout`` seconds); then the
        writer's thread ends and is joined."""
        with self._closing:
            self._closed = True
            self._jobs.put(None)
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)

    def _commit(self, batch: list[_Job]) -> None:
        answers: list[tuple[object, BaseException | None]] = []
        self._writing = threading.get_ident()
        try:
            with self.store.transaction() as tx:
                answers = [self._one(tx, fn) for fn, _ in batch]
        except BaseException as e:  # the batch is lost: nothing of it was stored
            self.cache.clear()
            answers = [(None, storage_error(e))] * len(batch)
            if not isinstance(e, Exception):
                raise  # KeyboardInterrupt and the like: the waiters are answered first (finally)
        else:
            self.cache.committed()
            self.batches += 1
        finally:
            self._writing = None
            for (_, future), (value, error) in zip(batch, answers, strict=True):
                with suppress(InvalidStateError):  # its awaiting task was cancelled: nobody listens
                    if error is None:
                        future.set_result(value)
                    else:
                        future.set_exception(error)

    @staticmethod
    def _one(tx: Transaction, fn: Callable[[Transaction], object]) -> tuple[object, BaseException | None]:
        try:
            with tx.savepoint():
                return fn(tx), None
        except TransactionBroken:
            raise  # its writes could not be undone: the batch fails (nothing of it is stored)
        except Exception as e:  # the job's own failure, its writes undone: it alone is answered with it
            return None, as_play_error(e)


def as_play_error(e: Exception) -> Exception:
    """A failure as a play-layer caller sees it: the store's own, SQLite's among them (not
    an unknown game or a conflict, which are answers), is ``PlayError('storage')``."""
    if isinstance(e, StoreError) and not isinstance(e, UnknownGame | StoreConflict):
        return storage_error(e)
    return e
