"""A database that can only be read where it lies (issue 29.5): in a read-only folder or
on a read-only mount, where SQLite cannot make the files it keeps beside a database
(``-shm``, ``-wal``). It opens read-only (SQLite's ``immutable=1``) with a warning for
``firstlast play``, ``export`` and the terminal; every write is then refused as a storage
fault; ``import`` is refused in one line. Before, all of them said "not a usable
firstlast database (unable to open database file)". The fixture ``read_only_folder``
(tests/conftest.py) makes the folder read-only for root too."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import loops
import pytest
from reading import read
from spawn import drain_output, spawn_server, stop_server

from firstlast.cli import tui_commands
from firstlast.cli.main import main
from firstlast.engine import Game
from firstlast.play import PlayService
from firstlast.store import GameStore, StoredGame, StoreError
from firstlast.tui import FirstLastApp
from firstlast.web import server

if TYPE_CHECKING:
    from conftest import ReadOnlyFolder  # tests/conftest.py: the fixture read_only_folder

pytestmark = pytest.mark.timeout(120)


def _frozen_db(place: ReadOnlyFolder, games: int = 3, on_table: int | None = 5) -> tuple[Path, str, str | None]:
    """A closed database of ``games`` games in ``place``, then made read-only; its local
    player and the game on its table (a new game of deal ``on_table``)."""
    db = place.path / "games.sqlite3"
    store = GameStore(db)
    play = PlayService(store)
    player = play.local_player()
    with store.transaction() as tx:
        for deal in range(games):
            tx.insert(StoredGame.new(player, Game(deal)))
    table = None
    if on_table is not None:
        table = play.start(player, "number", on_table, None).id
    store.close()
    assert sorted(os.listdir(place.path)) == ["games.sqlite3"]  # closed cleanly: no -wal, no -shm
    place.freeze()
    return db, player, table


@pytest.fixture
def frozen(read_only_folder: ReadOnlyFolder) -> Iterator[tuple[Path, str, str | None]]:
    yield _frozen_db(read_only_folder)


def test_it_opens_read_only_and_refuses_writes(frozen: tuple[Path, str, str | None]) -> None:
    db, player, table = frozen
    with pytest.raises(OSError):  # the folder really is read-only, for root too
        (db.parent / "probe").write_text("x")
    store = GameStore(db)
    assert store.read_only
    play = PlayService(store)
    assert play.local_player() == player
    assert len(read(store).games(player)) == 4
    assert play.current(player) is not None and play.current(player).id == table  # type: ignore[union-attr]
    with pytest.raises(StoreError, match="readonly"), store.transaction() as tx:
        tx.new_player()
    store.close()
    assert sorted(os.listdir(db.parent)) == ["games.sqlite3"]


def test_play_warns_in_one_line(frozen: tuple[Path, str, str | None], monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    db, _, _ = frozen
    served: list[GameStore] = []
    monkeypatch.setattr(server, "serve", lambda store, **kw: served.append(store))
    assert main(["--lang", "en", "play", "--no-browser", "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"Warning: {db} is read-only:"), err
    assert len(served) == 1 and served[0].read_only


def test_export_warns_and_writes_every_game(frozen: tuple[Path, str, str | None], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db, _, _ = frozen
    out = tmp_path / "backup.json"
    assert main(["--lang", "en", "export", str(out), "--db", str(db)]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith(f"Note: {db} is read-only:"), captured.err
    assert len(json.loads(out.read_text())["games"]) == 4


def test_import_is_refused_in_one_line(frozen: tuple[Path, str, str | None], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    db, _, _ = frozen
    other = tmp_path / "other.sqlite3"
    assert main(["export", str(tmp_path / "b.json"), "--db", str(other)]) == 0
    capsys.readouterr()
    assert main(["--lang", "en", "import", str(tmp_path / "b.json"), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err == f"firstlast: error: {db} is read-only: nothing can be imported into it. Make it writable, or" \
                  " import into another database (--db).\n", err


def test_the_terminal_warns_and_says_each_refused_write(frozen: tuple[Path, str, str | None],
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db, _, table = frozen
    apps: list[FirstLastApp] = []
    monkeypatch.setattr(FirstLastApp, "run", lambda self, *a, **k: apps.append(self))
    monkeypatch.setattr(tui_commands, "has_terminal", lambda: True)
    assert main(["--lang", "en", "tui", "--db", str(db), "--no-chance"]) == 0
    assert capsys.readouterr().err.startswith(f"Warning: {db} is read-only:")
    [app] = apps
    assert app.session.game_id == table

    async def script() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = app.game_screen
            assert screen.error and screen.message.startswith("the database is read-only: games can be viewed"), \
                screen.message
            assert "the database is read-only" in str(screen.query_one("#status").render())
            moves = len(screen.session.game)
            await pilot.press("t")
            await pilot.pause()
            assert screen.error and "attempt to write a readonly database" in screen.message, screen.message
            assert len(screen.session.game) == moves

    loops.run(script())


def test_the_terminal_with_nothing_to_show_says_why(read_only_folder: ReadOnlyFolder,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # Nothing on the table: the terminal would deal a game, a write.
    db, _, _ = _frozen_db(read_only_folder, games=0, on_table=None)
    monkeypatch.setattr(tui_commands, "has_terminal", lambda: True)
    assert main(["--lang", "en", "tui", "--db", str(db), "--no-chance"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"Warning: {db} is read-only:")
    assert err[1:] == [f"firstlast: error: {db}: the game store cannot be used: attempt to write a readonly"
                       " database"], err


def test_changes_left_in_a_wal_are_refused_in_words(read_only_folder: ReadOnlyFolder, tmp_path: Path) -> None:
    # A copy taken while a writer still held its changes in the -wal (no -shm beside it):
    # reading the file alone would show it as it was before them.
    source = tmp_path / "live.sqlite3"
    store = GameStore(source)
    player = PlayService(store).local_player()
    with closing(sqlite3.connect(source)) as db:
        db.execute("PRAGMA wal_autocheckpoint=0")
        with store.transaction() as tx:
            tx.insert(StoredGame.new(player, Game(9)))
        assert source.with_name("live.sqlite3-wal").stat().st_size > 0
        target = read_only_folder.path / "games.sqlite3"
        shutil.copyfile(source, target)
        shutil.copyfile(f"{source}-wal", f"{target}-wal")
    read_only_folder.freeze()
    with pytest.raises(StoreError, match=r"its last changes are still in .*games\.sqlite3-wal"):
        GameStore(target)


def test_the_server_reads_and_answers_writes_503(frozen: tuple[Path, str, str | None]) -> None:
    db, player, table = frozen
    proc, url = spawn_server(db)
    output, drain = drain_output(proc)
    try:
        with httpx.Client(base_url=url, timeout=20, cookies={}) as http:
            # A typed address (as firstlast play opens it) signs in at once (issue 29.6).
            assert http.get(f"/?player={player}", headers={"sec-fetch-site": "none"}).status_code in (200, 303)
            current = http.get("/api/games/current")
            assert current.status_code == 200 and current.json()["id"] == table
            assert len(http.get("/api/games").json()["games"]) == 4
            for r in (http.post(f"/api/games/{table}/moves", json={"move": "turn"}),
                      http.put("/api/settings", json={"speed": 1}), http.post("/api/games", json={"deal": "7"})):
                assert r.status_code == 503, r.text
                assert r.json()["code"] == "storage" and "readonly" in r.json()["params"]["reason"]
            assert proc.poll() is None
        stop_server(proc)
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    drain.join(timeout=5)
    text = "".join(output)
    assert "Traceback" not in text and text.strip().endswith("Stopped."), text
