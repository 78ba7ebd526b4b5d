"""Long odds checks are marked ``slow`` and run only when asked for: ``-m slow`` (or any
marker expression naming it) or ``FIRSTLAST_SLOW=1``, so the default run stays short."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# ``tests/naive.py`` (the naive reference implementations) imports as ``naive``.
_TESTS = str(Path(__file__).parent.parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("-m") or "") or os.environ.get("FIRSTLAST_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow or FIRSTLAST_SLOW=1")
    here = os.path.dirname(__file__)
    for item in items:
        if "slow" in item.keywords and str(item.path).startswith(here):
            item.add_marker(skip)
