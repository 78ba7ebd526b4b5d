"""How soon a loaded server stops on SIGTERM and on SIGINT (Ctrl-C): the time from the
signal to the process's exit, with players stepping, searchers asking for deals that
come out and idle connections held open (the load of tests/web/test_shutdown.py, which
checks that it stops cleanly and keeps every answered move, and leaves the clock here).

    python bench/stop_time.py [--runs 3] [--players 6] [--searchers 3] [--idle 20]

Starts ``firstlast play --no-browser --port 0`` on a throw-away database for each run,
signals it once the players have had moves answered, and prints each run's time to
exit, its exit status and the moves answered before the signal; then the median and
the worst per signal. uvicorn's graceful stop waits up to 5 s for requests in flight.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import drain_output, spawn_server


def player(url: str, answered: list[int], stop: threading.Event) -> None:
    """Step one game after another until ``stop`` or the server goes; count each 200."""
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
                elif r.status_code == 200:
                    answered.append(1)
                else:
                    return
    except httpx.HTTPError:
        return


def searcher(url: str, stop: threading.Event) -> None:
    """Ask for deals that come out under the rarest variant (long searches)."""
    try:
        with httpx.Client(base_url=url, timeout=60) as http:
            while not stop.is_set():
                http.post("/api/games", json={"how": "winnable", "variant": "r0"})
    except httpx.HTTPError:
        return


def one_run(sig: signal.Signals, players: int, searchers: int, idle: int) -> tuple[float, int | None, int]:
    """(seconds from the signal to the exit, the exit status, moves answered before it)."""
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = spawn_server(Path(tmp) / "games.sqlite3")
        _, drain = drain_output(proc)
        stop = threading.Event()
        answered: list[int] = []
        threads = [threading.Thread(target=player, args=(url, answered, stop)) for _ in range(players)]
        threads += [threading.Thread(target=searcher, args=(url, stop)) for _ in range(searchers)]
        parts = urlsplit(url)
        held = [socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80)) for _ in range(idle)]
        try:
            for t in threads:
                t.start()
            while len(answered) < players and proc.poll() is None:
                time.sleep(0.01)
            before = len(answered)
            proc.send_signal(sig)
            t0 = time.perf_counter()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=120)
            took = time.perf_counter() - t0
        finally:
            stop.set()
            for s in held:
                s.close()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for t in threads:
                t.join(timeout=60)
        drain.join(timeout=5)
        return took, proc.returncode, before


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--searchers", type=int, default=3)
    ap.add_argument("--idle", type=int, default=20)
    args = ap.parse_args()
    for sig in (signal.SIGTERM, signal.SIGINT):
        took = []
        for i in range(args.runs):
            seconds, status, before = one_run(sig, args.players, args.searchers, args.idle)
            took.append(seconds)
            print(f"{sig.name} run {i + 1}: exited {status} after {seconds:.2f} s ({before} moves answered before)")
        print(f"{sig.name}: median {statistics.median(took):.2f} s, worst {max(took):.2f} s over {args.runs} runs")


if __name__ == "__main__":
    main()
