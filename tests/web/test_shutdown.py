"""Stopping a loaded server (issue: SIGTERM under load deadlocked): players stepping,
others asking for deals that come out, idle connections held open; SIGTERM (and Ctrl-C)
must stop it, exit 0, and lose no answered move. The test waits for the exit: a server
that hangs is failed by pytest-timeout; how soon it stops is bench/stop_time.py's
(issue 25.7: no clock decides in a test)."""

from __future__ import annotations

import signal
import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from reading import read
from spawn import drain_output, spawn_server

from firstlast.store import GameStore

# Only a hang fails on time (uvicorn's graceful stop waits up to 5 s for requests in flight).
pytestmark = pytest.mark.timeout(300)

PLAYERS = 6
SEARCHERS = 3
IDLE = 20


def _player(url: str, acked: list[tuple[str, int]], stop: threading.Event, under_way: threading.Event) -> None:
    """Steps one game after another; every 200 is recorded (game, moves after). Sets
    ``under_way`` once the players have had as many moves answered as there are players,
    or when it gives up (the test then finds out why)."""
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            game: str | None = None
            while not stop.is_set():
                if game is None:
                    r = http.post("/api/games", json={"how": "random"})
                    if r.status_code != 201:
                        return
                    game = r.json()["id"]
                    continue
                r = http.post(f"/api/games/{game}/step", json={"n": 3})
                if r.status_code == 409:
                    game = None
                    continue
                if r.status_code != 200:
                    return  # the server is stopping: 503 or a closed connection
                acked.append((game, r.json()["state"]["moves"]))
                if len(acked) >= PLAYERS:
                    under_way.set()
    except httpx.HTTPError:
        return
    finally:
        under_way.set()


def _searcher(url: str, stop: threading.Event) -> None:
    """Asks for deals that come out under the rarest variant (long searches)."""
    with httpx.Client(base_url=url, timeout=60) as http:
        try:
            while not stop.is_set():
                http.post("/api/games", json={"how": "winnable", "variant": "r0"})
        except httpx.HTTPError:
            return


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_loaded_server_stops_and_keeps_every_answered_move(sig: signal.Signals, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc, url = spawn_server(db)
    output, drain = drain_output(proc)
    stop = threading.Event()
    acked: list[tuple[str, int]] = []
    under_way = threading.Event()
    threads = [threading.Thread(target=_player, args=(url, acked, stop, under_way)) for _ in range(PLAYERS)]
    threads += [threading.Thread(target=_searcher, args=(url, stop)) for _ in range(SEARCHERS)]
    parts = urlsplit(url)
    idle = [socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80)) for _ in range(IDLE)]
    try:
        for t in threads:
            t.start()
        under_way.wait()  # moves answered (or a player gave up)
        assert acked, "no move was answered before the signal"
        proc.send_signal(sig)
        proc.wait()  # until it exits (a hang: pytest-timeout)
    finally:
        stop.set()
        for s in idle:
            s.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for t in threads:
            t.join(timeout=30)
    drain.join(timeout=5)
    text = "".join(output)
    assert proc.returncode == 0, text[-2000:]
    assert "Traceback" not in text, text[-3000:]
    assert text.strip().endswith("Stopped."), text[-2000:]
    store = GameStore(db)
    for game, moves in acked:
        assert len(read(store).load(game).game.moves) >= moves, (game, moves)
