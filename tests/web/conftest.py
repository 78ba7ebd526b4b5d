"""The browser tests' ``server`` fixture (``browser`` is tests/conftest.py's, one per
session); their helpers are in ``browser.py`` (imports as ``browser``), their rule for a
missing chromium there too."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from spawn import spawn_server, stop_server

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`firstlast play --no-browser --port 0` on a fresh database (one per test module);
    yields its base URL."""
    db = tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]) / "games.sqlite3"
    try:
        proc, url = spawn_server(db)
    except RuntimeError as e:
        pytest.fail(str(e))
    yield url
    stop_server(proc)
