"""Shared by every test folder: the helpers' import path, and ``no_threads``."""

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

# Test helpers (tests/engine/builders.py) import as top-level modules.
sys.path.insert(0, str(Path(__file__).parent / "engine"))


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As in the browser (Pyodide, the static site): every thread start fails ("can't
    start new thread") and the package runs thread-free (``runtime.threads_off``)."""
    from firstlast import runtime

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    with runtime.threads_off():
        yield
