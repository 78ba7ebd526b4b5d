"""The API tests' app fixtures (a fresh database each: ``store``, ``app``, ``clients``,
``client``) and the browser tests' ``server`` (``browser`` is tests/conftest.py's, one
per session); the browser tests' helpers are in ``browser.py`` (imports as ``browser``),
their rule for a missing chromium there too."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from spawn import spawn_server, stop_server
from starlette.applications import Starlette
from starlette.testclient import TestClient

from firstlast.store import GameStore
from firstlast.web import create_app

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


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(db_path: Path) -> GameStore:
    return GameStore(db_path)


@pytest.fixture
def app(store: GameStore) -> Starlette:
    return create_app(store)


@pytest.fixture
def clients(app: Starlette) -> Iterator[Callable[..., TestClient]]:
    """A factory of browsers (of ``app``, or of the app given), each with its own cookie
    jar, so each is its own player, and these headers. Each runs as a context (one event
    loop per client), as a real server would."""
    with ExitStack() as stack:

        def make(target: Starlette | None = None, **headers: str) -> TestClient:
            return stack.enter_context(TestClient(target or app, base_url="http://127.0.0.1",
                                                  follow_redirects=False, headers=headers))

        yield make


@pytest.fixture
def client(clients: Callable[..., TestClient]) -> TestClient:
    return clients()
