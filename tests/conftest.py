"""Shared by every test folder: the helpers' import path, ``no_threads``, and what the
markers mean, the same in every folder:

* ``slow``: long checks, skipped unless asked for (``-m slow``, or any marker expression
  naming it, or ``FIRSTLAST_SLOW=1``);
* ``browser``: the test drives Chromium. A test that takes the ``browser`` fixture gets
  the marker here, so ``-m "not browser"`` leaves out every one of them."""

import os
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    run_slow = "slow" in (config.getoption("-m") or "") or os.environ.get("FIRSTLAST_SLOW") == "1"
    skip = pytest.mark.skip(reason="slow: run with -m slow or FIRSTLAST_SLOW=1")
    for item in items:
        if "slow" in item.keywords and not run_slow:
            item.add_marker(skip)
        if "browser" in getattr(item, "fixturenames", ()) and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)
