"""Move round-trip latency of the browser game's server, as a browser sees it.

    python bench/web_latency.py [--games 50] [--moves 100] [--seconds 30]

Starts the real server (``firstlast play --no-browser --port 0``, uvicorn) on loopback
in a subprocess with a throw-away database, then runs ``--games`` concurrent clients,
each its own player (cookie jar) playing its own game: every move is one
``POST /api/games/{id}/moves`` with the move the last answer hinted, which the server
replays, checks, commits to SQLite (fsync) and answers. A client whose game ends starts
another. Stops after ``--moves`` moves per client or ``--seconds``, whichever comes first.
Prints round-trip percentiles and the throughput of committed moves.

Every move is one SQLite transaction with ``synchronous=FULL``, so throughput is bounded
by the disk's fsync latency; ``--db-dir /dev/shm`` shows the server's own ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import spawn_server, stop_server


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    try:
        return spawn_server(db)
    except RuntimeError as e:
        raise SystemExit(str(e)) from None


async def client(base: str, index: int, moves: int, deadline: float, latencies: list[float],
                 errors: list[str]) -> int:
    made = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        deal = 1000 + index
        while made < moves and time.monotonic() < deadline:
            r = await http.post("/api/games", json={"deal": str(deal)})
            r.raise_for_status()
            state = r.json()
            deal += 10_000
            while state["hint"] is not None and made < moves and time.monotonic() < deadline:
                t0 = time.perf_counter()
                r = await http.post(f"/api/games/{state['id']}/moves", json={"move": state["hint"]})
                latencies.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    errors.append(f"{r.status_code} {r.text[:120]}")
                    return made
                state = r.json()["state"]
                made += 1
    return made


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(base: str, games: int, moves: int, seconds: float, server_pid: int) -> None:
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + seconds
    t0 = time.perf_counter()
    cpu0, server0 = time.process_time(), cpu_seconds(server_pid)
    made = await asyncio.gather(*(client(base, i, moves, deadline, latencies, errors) for i in range(games)))
    elapsed = time.perf_counter() - t0
    cpu_client, cpu_server = time.process_time() - cpu0, cpu_seconds(server_pid) - server0
    total = sum(made)
    if not latencies:
        raise SystemExit("no move was made")
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    print(f"clients (concurrent games): {games}")
    print(f"moves committed:            {total:,} in {elapsed:.1f} s  ->  {total / elapsed:,.0f} moves/s")
    print(f"move round trip (ms):       p50 {1000 * q[49]:.1f}   p95 {1000 * q[94]:.1f}   "
          f"p99 {1000 * q[98]:.1f}   max {1000 * max(latencies):.1f}")
    print(f"CPU used:                   server {cpu_server:.1f} s, clients {cpu_client:.1f} s "
          f"({os.cpu_count()} cores shared by both)")
    if errors:
        print(f"errors: {len(errors)}, first: {errors[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent clients, one game each (1…500)")
    parser.add_argument("--moves", type=int, default=100, help="moves per client (1…10000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="time limit (1…300)")
    parser.add_argument("--db-dir", type=Path, default=None,
                        help="folder for the throw-away database (default: the system's temp folder); "
                             "/dev/shm takes the disk's fsync out of the numbers")
    args = parser.parse_args()
    if not (1 <= args.games <= 500 and 1 <= args.moves <= 10_000 and 1 <= args.seconds <= 300):
        parser.error("out of range: --games 1…500, --moves 1…10000, --seconds 1…300")
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        proc, base = start_server(Path(tmp) / "bench.sqlite3")
        try:
            print(f"server: {base} (uvicorn, one process; database in {tmp})")
            asyncio.run(run(base, args.games, args.moves, args.seconds, proc.pid))
        finally:
            stop_server(proc)


if __name__ == "__main__":
    main()
