"""``asyncio.run`` for the tests, on a thread of its own (``run``).

The browser tests drive one Chromium per test process (tests/conftest.py's ``browser``)
through Playwright's sync API, which keeps its event loop marked as running in the main
thread for as long as it lives; ``asyncio.run`` refuses to start in a thread with a running
loop, so the tests that run a coroutine (the terminal's pilot, the web app called in
process) run it here, where none is.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar, cast

T = TypeVar("T")

#: Taken at import, before any test's ``no_threads`` refuses thread starts: this thread is
#: the harness's, not the code's under test (which still finds every start refused).
_start = threading.Thread.start


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on a fresh thread; its answer, or its exception raised here."""
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append((True, asyncio.run(main)))
        except BaseException as e:  # handed to the caller, KeyboardInterrupt included
            outcome.append((False, e))

    thread = threading.Thread(target=target, name="asyncio-run")
    _start(thread)
    thread.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return cast(T, value)
