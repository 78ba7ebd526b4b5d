"""The game store at start-up and under storage faults: a corrupt file, a read-only
database, a path that is not a regular file. Each is refused (or warned about) in one
line before anything is served or written; a write that fails at run time answers JSON
503 with one sentence."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from reading import read
from starlette.testclient import TestClient

from firstlast.cli.main import main
from firstlast.engine import Game
from firstlast.play import PlayService
from firstlast.store import GameStore, StoredGame, StoreError, Transaction
from firstlast.web import create_app, server

warnings.filterwarnings("ignore", message=".*httpx.*")

BASE = "http://127.0.0.1"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[GameStore]:
    """``firstlast play`` up to the point where it would serve: the store it would serve."""
    calls: list[GameStore] = []
    monkeypatch.setattr(server, "serve", lambda store, **kw: calls.append(store))
    return calls


def _games_db(path: Path, games: int = 60) -> str:
    """A database with ``games`` games, closed (no -wal/-shm left); its local player."""
    store = GameStore(path)
    player = PlayService(store).local_player()
    with store.transaction() as tx:
        for deal in range(games):
            tx.insert(StoredGame.new(player, Game(deal)))
    store.close()
    return player


# ---------------------------------------------------------------------------- corrupt file
def _corrupt(path: Path) -> None:
    """Garbage over every page but the first: the header and schema still read, so only
    a check of the pages finds it (before, the server started and then died)."""
    size = path.stat().st_size
    page = 4096
    assert size > 4 * page
    with path.open("r+b") as f:
        f.seek(page)
        f.write(bytes((i * 97 + 13) % 251 for i in range(size - page)))


def test_corrupt_pages_are_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    _games_db(db)
    _corrupt(db)
    before = db.read_bytes()
    with pytest.raises(StoreError) as e:
        GameStore(db)
    message = str(e.value)
    assert "not a usable firstlast database" in message and "malformed" in message and "\n" not in message
    assert db.read_bytes() == before  # refused without writing


def test_play_on_a_corrupt_database_is_a_one_line_refusal(tmp_path: Path) -> None:
    # Regression: `firstlast play` on a file with garbage pages died with a traceback.
    db = tmp_path / "games.sqlite3"
    _games_db(db)
    _corrupt(db)
    r = subprocess.run([sys.executable, "-m", "firstlast.cli.main", "play", "--no-browser", "--db", str(db)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith("firstlast: error:") and r.stderr.count("\n") == 1, r.stderr
    assert "malformed" in r.stderr and "Traceback" not in r.stderr + r.stdout
    assert "served at" not in r.stdout


def test_a_storage_failure_while_signing_in_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # serve() signs the local player in before it listens; a failure there is no traceback.
    def failing_serve(store: GameStore, **kw: object) -> None:
        raise StoreError("database disk image is malformed")

    monkeypatch.setattr(server, "serve", failing_serve)
    assert main(["play", "--no-browser", "--db", str(tmp_path / "g.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("firstlast: error:") and "malformed" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------- not a regular file
@pytest.mark.parametrize("kind", ["device", "fifo", "folder", "link to a device", "link to a fifo"])
def test_a_path_that_is_not_a_regular_file_is_refused(kind: str, tmp_path: Path) -> None:
    if kind.endswith("fifo"):
        target = tmp_path / "fifo"
        os.mkfifo(target)
    elif kind.endswith("device"):
        target = Path(os.devnull)
        if not target.is_char_device():
            pytest.skip("no character device at os.devnull")
    else:
        target = tmp_path / "folder"
        target.mkdir()
    path = target
    if kind.startswith("link"):
        path = tmp_path / "link.sqlite3"
        path.symlink_to(target)
    journals = [Path(f"{path}{s}") for s in ("-journal", "-wal", "-shm")]
    journals += [Path(f"{target}{s}") for s in ("-journal", "-wal", "-shm")]
    existed = {j for j in journals if j.exists()}
    with pytest.raises(StoreError) as e:
        GameStore(path)  # a FIFO would block here if SQLite opened it
    what = {"device": "a device", "fifo": "a FIFO", "folder": "a folder"}[kind.split()[-1]]
    assert str(e.value) == f"{path}: is {what}, not a database file"
    # Refused before SQLite touched it: no journal beside it (--db /dev/null had left
    # /dev/null-journal behind).
    assert {j for j in journals if j.exists()} == existed


def test_play_with_db_dev_null_is_refused(served: list[GameStore], capsys: pytest.CaptureFixture[str]) -> None:
    if not Path(os.devnull).is_char_device():
        pytest.skip("no character device at os.devnull")
    journal = Path(f"{os.devnull}-journal")
    existed = journal.exists()
    assert main(["play", "--no-browser", "--db", os.devnull]) == 1
    err = capsys.readouterr().err
    assert err == f"firstlast: error: {os.devnull}: is a device, not a database file\n"
    assert not served and journal.exists() == existed


# ---------------------------------------------------------------------------- read-only
@pytest.fixture
def read_only_db(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A database this process really cannot write, with its local player.

    Not root: ``chmod 444``. Root writes through file modes, so there the file is made
    immutable (``chattr +i``, which binds root too); where that is not possible (no
    CAP_LINUX_IMMUTABLE, a file system without the flag) the test is skipped rather
    than faked."""
    db = tmp_path / "games.sqlite3"
    player = _games_db(db, games=3)
    if os.geteuid() != 0:
        db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
        yield db, player
        db.chmod(stat.S_IRUSR | stat.S_IWUSR)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(db)], capture_output=True).returncode != 0:
        pytest.skip("running as root, and the file cannot be made immutable here (chattr +i)")
    try:
        yield db, player
    finally:
        subprocess.run([chattr, "-i", str(db)], check=True)


def test_a_read_only_database_opens_for_reading(read_only_db: tuple[Path, str]) -> None:
    db, player = read_only_db
    store = GameStore(db)
    assert store.read_only
    assert len(read(store).games(player)) == 3 and PlayService(store).local_player() == player
    with pytest.raises(StoreError, match="readonly"), store.transaction() as tx:
        tx.new_player()


def test_play_on_a_read_only_database_warns_in_one_line(read_only_db: tuple[Path, str], served: list[GameStore],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: it started silently, then failed every write.
    db, _ = read_only_db
    assert main(["play", "--no-browser", "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"Warning: {db} is read-only:"), err
    assert len(served) == 1 and served[0].read_only


def test_chmod_444_as_root_is_not_read_only(tmp_path: Path) -> None:
    # What really happens as root: file modes do not stop root, so there is nothing to
    # warn about, and writes go through.
    if os.geteuid() != 0:
        pytest.skip("only root writes through chmod 444")
    db = tmp_path / "games.sqlite3"
    player = _games_db(db, games=1)
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    store = GameStore(db)
    assert not store.read_only
    with store.transaction() as tx:
        tx.insert(StoredGame.new(player, Game(5)))
    assert len(read(store).games(player)) == 2


def test_a_writable_database_is_not_read_only_and_the_probe_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    _games_db(db, games=2)
    before = db.read_bytes()
    store = GameStore(db)
    assert not store.read_only
    assert db.read_bytes() == before


class _ReadOnlyConnections(GameStore):
    """``GameStore.transaction`` with every connection opened read-only by SQLite
    (``mode=ro``): what a read-only file gives, for any user, root included."""

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        uri = f"{self.path.as_uri()}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=10, isolation_level=None)) as db, \
                self._begin(db) as tx:
            yield tx


def test_writes_to_a_read_only_store_answer_json_503(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    player = _games_db(db, games=1)
    game = read(GameStore(db)).games(player)[0].id
    store = _ReadOnlyConnections(db)
    # The double is honest: SQLite itself refuses the write.
    with store.transaction() as tx, pytest.raises(sqlite3.OperationalError, match="readonly"):
        tx.new_player()
    app = create_app(store)
    with TestClient(app, base_url=BASE, follow_redirects=False) as client:
        # Signs in (as a typed address): a cookie, no write.
        assert client.get(f"/?player={player}", headers={"sec-fetch-site": "none"}).status_code == 303
        assert len(client.get("/api/games").json()["games"]) == 1  # reading still works
        for method, path, body in [("POST", "/api/games", {"deal": 3}), ("POST", f"/api/games/{game}/step", {}),
                                   ("PUT", "/api/settings", {"speed": 1})]:
            r = client.request(method, path, json=body)
            assert r.status_code == 503, (path, r.text)
            assert r.headers["content-type"].startswith("application/json")
            answer = r.json()
            assert answer["code"] == "storage"
            assert answer["error"] == "the game store cannot be used right now: attempt to write a readonly database"
    assert len(read(GameStore(db)).games(player)) == 1


def test_a_storage_error_that_escapes_the_play_layer_is_json_503(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Last resort: PlayService turns these into PlayError('storage'); one that slips past
    # it is still JSON 503, not a plain-text 500 (nor a 422, as any FirstLastError was).
    exc = StoreError("the store is gone")

    def broken(*args: object, **kwargs: object) -> object:
        raise exc

    monkeypatch.setattr(PlayService, "games", broken)
    app = create_app(GameStore(tmp_path / "g.sqlite3"))
    with TestClient(app, base_url=BASE, raise_server_exceptions=False) as client:
        r = client.get("/api/games")
    assert r.status_code == 503 and r.json()["code"] == "storage"
    assert r.json()["error"] == f"the game store cannot be used right now: {exc}"
