from __future__ import annotations

from pathlib import Path

import pytest

from firstlast.store import GameStore


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    """A database of the test's own."""
    return GameStore(tmp_path / "games.sqlite3")
