"""A database made immutable while the server runs (``chattr +i`` on the file, its WAL
and its index map): the issue found the server killed by SIGBUS (exit −7, no word).
Now every request that needs the store is a JSON 503 with a log line, the server stays
up, plays on once the files can be written again, and stops cleanly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from reading import read
from spawn import drain_output, spawn_server, stop_server

from firstlast.store import GameStore

pytestmark = pytest.mark.timeout(120)

WAL_FILES = ("", "-wal", "-shm")


def _chattr(flag: str, db: Path) -> None:
    files = [f"{db}{suffix}" for suffix in WAL_FILES if os.path.exists(f"{db}{suffix}")]
    subprocess.run(["chattr", flag, *files], check=True, capture_output=True)


@pytest.fixture
def can_chattr(tmp_path: Path) -> Iterator[None]:
    """``chattr +i`` needs root and a file system that keeps the flag; the test script
    (FIRSTLAST_NO_SKIP) runs as root on one that does, so there a refusal fails."""
    probe = tmp_path / "probe"
    probe.write_text("x")
    try:
        if shutil.which("chattr") is None:
            raise OSError("no chattr")
        subprocess.run(["chattr", "+i", str(probe)], check=True, capture_output=True)
        subprocess.run(["chattr", "-i", str(probe)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        if os.environ.get("FIRSTLAST_NO_SKIP"):
            pytest.fail(f"chattr +i is not possible here: {e}")
        pytest.skip(f"chattr +i is not possible here: {e}")
    yield


def test_an_immutable_database_is_503_and_the_server_recovers(tmp_path: Path, can_chattr: None) -> None:
    db = tmp_path / "games.sqlite3"
    proc, url = spawn_server(db)
    output, drain = drain_output(proc)
    immutable = False
    try:
        with httpx.Client(base_url=url, timeout=20) as http:
            state = http.post("/api/games", json={"deal": "42"}).json()
            gid = state["id"]
            for _ in range(5):
                assert http.post(f"/api/games/{gid}/step", json={"n": 2}).status_code == 200
            made = http.get(f"/api/games/{gid}").json()["moves"]

            _chattr("+i", db)
            immutable = True
            for _ in range(3):
                for r in (http.post(f"/api/games/{gid}/step", json={"n": 2}), http.get(f"/api/games/{gid}"),
                          http.get("/api/games/current"), http.post("/api/games", json={"how": "random"})):
                    assert r.status_code == 503, r.text
                    assert r.json()["code"] == "storage" and "cannot be written" in r.json()["params"]["reason"]
            assert proc.poll() is None  # still up

            _chattr("-i", db)
            immutable = False
            r = http.post(f"/api/games/{gid}/step", json={"n": 2})
            assert r.status_code == 200, r.text
            assert r.json()["state"]["moves"] > made
        stop_server(proc)
        assert proc.returncode == 0
    finally:
        if immutable:
            _chattr("-i", db)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    drain.join(timeout=5)
    text = "".join(output)
    assert "storage failure (answered 503)" in text and "cannot be written" in text, text
    assert "Traceback" not in text and text.strip().endswith("Stopped."), text
    assert len(read(GameStore(db)).load(gid).game.moves) > made  # what was answered is kept


def test_a_store_closed_while_its_files_are_immutable_does_not_kill_the_process(tmp_path: Path,
                                                                                can_chattr: None) -> None:
    # Closing the last connection checkpoints through the index map: SIGBUS at exit.
    db = tmp_path / "games.sqlite3"
    script = (
        "import subprocess, sys\n"
        "from firstlast.engine import Game\n"
        "from firstlast.store import GameStore, StoredGame, StoreError\n"
        f"db = {str(db)!r}\n"
        "store = GameStore(db)\n"
        "with store.transaction() as tx:\n"
        "    player = tx.new_player()\n"
        "for deal in range(20):\n"
        "    with store.transaction() as tx: tx.insert(StoredGame.new(player, Game(deal)))\n"
        "with store.reading() as tx:\n"
        "    tx.games(player)\n"
        "subprocess.run(['chattr', '+i', db, db + '-wal', db + '-shm'], check=True)\n"
        "try:\n"
        "    with store.transaction() as tx: tx.insert(StoredGame.new(player, Game(99)))\n"
        "except StoreError as e:\n"
        "    print('refused:', e)\n"
        "store.close()\n"
        "print('closed')\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    finally:
        _chattr("-i", db)
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
    assert "refused:" in done.stdout and "cannot be written" in done.stdout and "closed" in done.stdout
