"""Writes to the play layer, off Textual's event loop: each on a worker thread, one at a
time, in the order asked (keys, autoplay's ticks), so a commit's fsync never holds up
the screen. A write's own error (the play layer's refusal) is raised as it is."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from textual.dom import DOMNode
from textual.worker import WorkerCancelled, WorkerFailed

T = TypeVar("T")


class Writer:
    """``await writer(call)``: ``call`` (a write: a commit, with its fsync) on a worker
    thread of ``node``, after the writes asked before it."""

    def __init__(self, node: DOMNode) -> None:
        self._node = node
        self._lock = asyncio.Lock()

    @property
    def busy(self) -> bool:
        """Whether a write is under way or waiting."""
        return self._lock.locked()

    async def __call__(self, call: Callable[[], T]) -> T:
        async with self._lock:
            worker = self._node.run_worker(call, group="write", thread=True, exit_on_error=False)
            try:
                return await worker.wait()
            except WorkerFailed as e:
                raise e.error from None
            except WorkerCancelled:  # the app is closing: the write finishes or not, on its own
                raise asyncio.CancelledError from None
