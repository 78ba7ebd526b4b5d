"""The runtime the package runs in, decided here and nowhere else (docs/site.md, "One
implementation, several runtimes"): natively CPython, with threads and child processes;
in the browser Pyodide in a Web Worker, where neither can start. Code that would assume
them asks this module, so the browser's mode is the same code (tests run it on CPython
too, with ``THREADS`` off).
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:  # anyio is imported when first needed: the store and the CLI need none of it
    from concurrent.futures import ProcessPoolExecutor

    import anyio

T = TypeVar("T")

#: Running under Pyodide (the static site's Web Worker).
BROWSER: Final = sys.platform == "emscripten"
#: Whether worker threads may be started (not under Pyodide). A variable, not a
#: constant: tests of the thread-free mode turn it off.
THREADS: bool = not BROWSER
#: Whether child processes may be started (not under Pyodide): ``run_apart``.
PROCESSES: bool = not BROWSER
#: SQLite's journal mode for the store's database file: in the browser a rollback
#: journal, since the file is synced to IndexedDB whole after each commit and a growing
#: ``-wal`` would be rewritten every time (docs/site.md, "Storage").
JOURNAL_MODE: Final = "DELETE" if BROWSER else "WAL"

#: In the browser, how long computations leave the play worker: set by the site's play
#: worker (``static/site/worker.js``), which hands each call to its computing worker.
#: Takes a pickled ``(fn, args)`` and answers the pickled ``("ok", value)`` or ``("error",
#: exception)``, both as latin-1 text: strings cross to JavaScript and back unconverted.
Offload = Callable[[str], Awaitable[str]]
_offload: Offload | None = None


def set_offload(offload: Offload | None) -> None:
    """Send ``run_cpu``'s computations to ``offload`` (another worker), or back inline."""
    global _offload
    _offload = offload


async def run_blocking(fn: Callable[..., T], *args: Any, limiter: anyio.CapacityLimiter | None = None) -> T:
    """``fn(*args)`` without blocking the event loop where threads exist; inline where
    they do not (the browser has one player: nothing else waits meanwhile)."""
    if THREADS:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)
    return fn(*args)


def call_pickled(payload: str) -> str:
    """The other side of ``Offload`` (the site's computing worker, ``static/files/compute.js``): run
    a pickled ``(fn, args)`` and pickle what came of it (an exception that cannot be
    pickled is sent as a ``RuntimeError``)."""
    fn, args = pickle.loads(payload.encode("latin-1"))
    try:
        outcome: tuple[str, object] = ("ok", fn(*args))
    except Exception as e:
        outcome = ("error", e)
    try:
        return pickle.dumps(outcome).decode("latin-1")
    except Exception:
        return pickle.dumps(("error", RuntimeError(str(outcome[1])))).decode("latin-1")


async def run_cpu(fn: Callable[..., T], *args: Any, limiter: anyio.CapacityLimiter | None = None) -> T:
    """``fn(*args)``, a long computation, beside play: a worker thread natively, the
    site's computing worker in the browser (``fn`` must then be a module-level function
    and ``args`` picklable), else inline."""
    if THREADS or _offload is None:
        return await run_blocking(fn, *args, limiter=limiter)
    answer = await _offload(pickle.dumps((fn, args)).decode("latin-1"))
    kind, value = pickle.loads(str(answer).encode("latin-1"))
    if kind == "error":
        assert isinstance(value, BaseException)
        raise value
    return value  # type: ignore[no-any-return]


class ApartStopped(RuntimeError):
    """A ``run_apart`` call was cancelled by ``stop_apart`` (the program is stopping),
    or its helper process died twice."""


_apart: ProcessPoolExecutor | None = None
_apart_lock = threading.Lock()


def run_apart(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, a short pure computation, in the one helper process natively (a
    module-level ``fn``, picklable ``args``; calls from several threads take turns there,
    first come first served), inline where no process can start. Blocks the calling
    thread (never call it on an event loop). Raises ``ApartStopped`` when ``stop_apart``
    cancelled it; a helper process that died is replaced once."""
    if not PROCESSES:
        return fn(*args)
    from concurrent.futures import CancelledError
    from concurrent.futures.process import BrokenProcessPool

    global _apart
    for _ in range(2):
        with _apart_lock:
            if _apart is None:
                import atexit
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                # spawn, not fork: the caller is a threaded server, and a forked child
                # would inherit its locks in whatever state they were.
                _apart = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_apart_child)
                atexit.unregister(stop_apart)  # once, and last: shut down while the interpreter is
                atexit.register(stop_apart)  # whole (no noise at exit)
            pool = _apart
        try:
            future = pool.submit(fn, *args)
        except BrokenProcessPool:  # (a RuntimeError too: caught first) the helper died
            future = None
        except RuntimeError as e:  # stop_apart shut the pool down meanwhile
            raise ApartStopped("stopping") from e
        try:
            if future is not None:
                return future.result()
        except CancelledError:
            raise ApartStopped("stopping") from None
        except BrokenProcessPool:
            pass
        with _apart_lock:  # the helper died (killed, out of memory): a new one next time
            if _apart is pool:
                _apart = None
    raise ApartStopped("the helper process died")


def _apart_child() -> None:
    """Ctrl-C reaches the whole process group; stopping is the parent's to decide, so the
    helper ignores it (else it would print a traceback of its own)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_apart(wait: bool = True) -> None:
    """End the helper process, if one runs, for a program that is stopping: calls queued
    are cancelled (``ApartStopped``), the one under way is let finish (``wait``: and
    waited for). A later ``run_apart`` starts a new one."""
    global _apart
    with _apart_lock:
        pool, _apart = _apart, None
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)


def cores() -> int:
    """Threads worth running side by side here: this process's cores (1 where no thread
    may start)."""
    if not THREADS:
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _private_dir(path: Path) -> bool:
    """Whether ``path`` (made, 0700, if missing) and its parent only this user can write."""
    import stat

    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        stats = [path.lstat(), path.parent.lstat()]
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or all(st.st_uid == os.getuid() and not st.st_mode & 0o022 for st in stats)
    return mine and all(stat.S_ISDIR(st.st_mode) for st in stats)


def private_cache_dirs(name: str) -> list[Path]:
    """Where builds called ``name`` are kept, in order: the user's cache folder, else a
    private folder in the system's temporary folder. A folder others can write is never
    answered: what is kept there is loaded and run."""
    import tempfile

    import platformdirs

    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    places = [Path(platformdirs.user_cache_dir("firstlast")) / name,
              Path(tempfile.gettempdir()) / f"firstlast-{user}" / name]
    return [p for p in places if _private_dir(p)]


#: What ``FIRSTLAST_FASTLINE`` may ask for (diagnostics, tests): one route, or none.
KERNEL_CHOICES: Final = {"auto": ("native", "wasmtime"), "native": ("native",), "wasm": ("wasmtime",), "none": ()}


def kernel_routes() -> tuple[tuple[str, ...], str | None]:
    """The routes the fast forced line may take here, in the order tried, and a note
    when ``FIRSTLAST_FASTLINE`` narrowed them or was not understood: in the browser the
    page's WebAssembly (``pyodide``); natively a build with the system's C compiler
    (``native``), else the committed .wasm through ``wasmtime``."""
    wanted = os.environ.get("FIRSTLAST_FASTLINE", "").strip().lower() or "auto"
    here = ("pyodide",) if BROWSER else KERNEL_CHOICES.get(wanted, KERNEL_CHOICES["auto"])
    if wanted not in KERNEL_CHOICES:
        return here, f"FIRSTLAST_FASTLINE={wanted!r} is not one of {', '.join(KERNEL_CHOICES)}"
    return ((), "FIRSTLAST_FASTLINE=none") if wanted == "none" else (here, None)
