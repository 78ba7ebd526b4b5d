"""The runtime the package runs in, decided here and nowhere else.

firstlast runs natively (CPython: worker threads, a real file system, SQLite in WAL mode)
and in the browser (the static site, docs/site.md: Pyodide in a Web Worker, where no
thread can start and the database file lives in IndexedDB). Code that would assume
threads asks this module instead:

* ``THREADS``: whether worker threads may be started. The play layer's group writer and
  the web routes read it (through ``run_blocking`` and ``run_cpu``), so the thread-free
  mode is the same code, and tests run it on CPython too (``threads_off``).
* ``JOURNAL_MODE``: the SQLite journal. WAL natively (readers never wait for a commit's
  fsync); a rollback journal in the browser, where the file system is synced to
  IndexedDB whole-file after each commit and a growing ``-wal`` file would be rewritten
  every time.
* ``run_blocking``: play-layer work (SQLite) off the event loop: a worker thread, or
  inline where there are none.
* ``run_cpu``: long computations (chance estimates, stories): a worker thread natively;
  in the browser, another Web Worker when the site installed one (``set_offload``), so
  that a move never waits behind an estimate; else inline.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:  # anyio is imported when first needed: the store and the CLI need none of it
    import anyio

T = TypeVar("T")

#: Running under Pyodide (the static site's Web Worker).
BROWSER: Final = sys.platform == "emscripten"
#: Whether worker threads may be started (not under Pyodide). A variable, not a
#: constant: ``threads_off`` turns it off for tests of the thread-free mode.
THREADS: bool = not BROWSER
#: SQLite's journal mode for the store's database file.
JOURNAL_MODE: Final = "DELETE" if BROWSER else "WAL"

#: In the browser, how long computations leave the play worker: set by the site
#: (``firstlast.site.bridge``). Takes a pickled ``(fn, args)`` and answers the pickled
#: ``("ok", value)`` or ``("error", exception)``.
Offload = Callable[[bytes], Awaitable[bytes]]
_offload: Offload | None = None


def set_offload(offload: Offload | None) -> None:
    """Send ``run_cpu``'s computations to ``offload`` (another worker), or back inline."""
    global _offload
    _offload = offload


@contextmanager
def threads_off() -> Iterator[None]:
    """Within the block, behave as in the browser: no worker thread is started."""
    global THREADS
    before, THREADS = THREADS, False
    try:
        yield
    finally:
        THREADS = before


async def run_blocking(fn: Callable[..., T], *args: Any, limiter: anyio.CapacityLimiter | None = None) -> T:
    """``fn(*args)`` without blocking the event loop where threads exist; inline where
    they do not (the browser has one player: nothing else waits meanwhile)."""
    if THREADS:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)
    return fn(*args)


def call_pickled(payload: bytes) -> bytes:
    """The other side of ``offload``: run a pickled ``(fn, args)`` and pickle what came
    of it (an exception that cannot be pickled is sent as a ``RuntimeError``)."""
    fn, args = pickle.loads(payload)
    try:
        outcome: tuple[str, object] = ("ok", fn(*args))
    except Exception as e:
        outcome = ("error", e)
    try:
        return pickle.dumps(outcome)
    except Exception:
        return pickle.dumps(("error", RuntimeError(str(outcome[1]))))


async def run_cpu(fn: Callable[..., T], *args: Any, limiter: anyio.CapacityLimiter | None = None) -> T:
    """``fn(*args)``, a long computation, beside play: a worker thread natively, the
    site's computing worker in the browser (``fn`` must then be a module-level function
    and ``args`` picklable), else inline."""
    if THREADS:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)
    if _offload is None:
        return fn(*args)
    kind, value = pickle.loads(await _offload(pickle.dumps((fn, args))))
    if kind == "error":
        assert isinstance(value, BaseException)
        raise value
    return value  # type: ignore[no-any-return]
