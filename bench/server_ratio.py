"""Server CPU per committed move, against a bare Starlette endpoint, side by side.

    python bench/server_ratio.py [--players 50 200] [--seconds 10] [--warmup 2] [--connections 100]
                                 [--play-threads N]

Starts two servers, each its own process under the same uvicorn settings:

* **firstlast**: the real one (``firstlast play --no-browser --port 0 --db TMP``); with
  ``--play-threads N``, the same through ``bench/wide_play_server.py``, which lets the web
  layer run N play-layer calls at once instead of one (a what-if: with one, concurrent
  moves never share a commit, see docs/play.md "Writes and speed");
* **bare**: ``bench/bare_server.py``, one Starlette ``POST`` endpoint that reads the
  JSON body and answers a real move answer (captured from the firstlast server first:
  the same size and shape), with no game and no database.

For each ``--players`` count, drives each server in turn with that many concurrent
players (httpx, asyncio). A firstlast player is its own player (cookie jar) with its own
game, and plays the hinted move ``state.hint`` with ``POST /api/games/{id}/moves``
``{"move": hint, "version": state.version}``, which the server checks, commits to SQLite
(fsync) and answers; a player whose game ends starts another. A bare player posts the
same body to the bare endpoint. After ``--warmup`` seconds, for ``--seconds``: answered
requests, their round trips, and the server process's CPU time (utime + stime,
``/proc/<pid>/stat``). Prints requests, req/s, server CPU ms per request, p50/p95/p99,
and the ratio firstlast / bare of CPU per request. Measures; asserts nothing.

The players share one pool of at most ``--connections`` keep-alive connections (each
keeps its own cookies), so both servers see the same number of connections whatever
the number of players (a full firstlast server sheds idle connections to make room:
web/server.py). Each server gets the same pool.

Both servers run side by side on the machine's cores with the clients; run it on an
otherwise idle machine, and more than once: on two cores, the client's own CPU limits
the load and the numbers move by ±15 % from run to run.
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
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from firstlast.web.context import PLAY_THREADS

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import drain_output, spawn_server, stop_server

HERE = Path(__file__).resolve().parent


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


@dataclass
class Window:
    """What the players saw while the window was open."""

    measuring: bool = False
    stop: bool = False
    latencies: list[float] = field(default_factory=list)
    moves: int = 0  # answered move requests (committed moves, for firstlast)
    others: int = 0  # other answered requests in the window (new games)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, text: str) -> None:
        self.errors[text] = self.errors.get(text, 0) + 1


async def firstlast_player(http: httpx.AsyncClient, index: int, w: Window) -> None:
    deal = 1000 + index
    state: dict[str, object] | None = None
    while not w.stop:
        if state is None or state["hint"] is None:
            r = await http.post("/api/games", json={"deal": str(deal)})
            deal += 10_000
            if r.status_code != 201:
                w.error(f"new game {r.status_code} {r.text[:80]}")
                await asyncio.sleep(0.01)
                continue
            if w.measuring:
                w.others += 1
            state = r.json()
            continue
        t0 = time.perf_counter()
        body = {"move": state["hint"], "version": state["version"]}
        r = await http.post(f"/api/games/{state['id']}/moves", json=body)
        dt = time.perf_counter() - t0
        if r.status_code != 200:
            w.error(f"move {r.status_code} {r.text[:80]}")
            state = None
            await asyncio.sleep(0.01)
            continue
        state = r.json()["state"]
        if w.measuring:
            w.moves += 1
            w.latencies.append(dt)


async def bare_player(http: httpx.AsyncClient, index: int, w: Window) -> None:
    version = 0
    while not w.stop:
        t0 = time.perf_counter()
        r = await http.post("/api/games/x/moves", json={"move": "turn", "version": version})
        dt = time.perf_counter() - t0
        if r.status_code != 200:
            w.error(f"move {r.status_code} {r.text[:80]}")
            await asyncio.sleep(0.01)
            continue
        version = r.json()["state"]["version"]
        if w.measuring:
            w.moves += 1
            w.latencies.append(dt)


@dataclass
class Result:
    name: str
    players: int
    requests: int
    others: int
    seconds: float
    cpu: float
    sys_cpu: float
    client_cpu: float
    q: list[float]
    errors: dict[str, int]

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.cpu / max(1, self.requests + self.others)


async def drive(name: str, base: str, pid: int, players: int, seconds: float, warmup: float,
                connections: int) -> Result:
    w = Window()
    # Players beyond ``connections`` share the pools round-robin (one keep-alive
    # connection each); each player keeps its own cookie jar.
    transports = [httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=1, max_keepalive_connections=1))
                  for _ in range(min(players, connections))]
    clients = [httpx.AsyncClient(base_url=base, timeout=60, transport=transports[i % len(transports)])
               for i in range(players)]
    play = firstlast_player if name == "firstlast" else bare_player
    tasks = [asyncio.create_task(play(c, i, w)) for i, c in enumerate(clients)]
    await asyncio.sleep(warmup)
    cpu0, client0, t0 = cpu_seconds(pid), time.process_time(), time.perf_counter()
    w.measuring = True
    await asyncio.sleep(seconds)
    w.measuring = False
    cpu1, client1, t1 = cpu_seconds(pid), time.process_time(), time.perf_counter()
    w.stop = True
    await asyncio.gather(*tasks, return_exceptions=True)
    for t in transports:
        await t.aclose()
    lat = w.latencies or [float("nan")]
    q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [lat[0]] * 99
    return Result(name, players, w.moves, w.others, t1 - t0, sum(cpu1) - sum(cpu0), cpu1[1] - cpu0[1],
                  client1 - client0, [1000 * q[49], 1000 * q[94], 1000 * q[98]], w.errors)


def sample_answer(base: str) -> bytes:
    """One real move answer of the firstlast server (a fresh player, a fresh game)."""
    with httpx.Client(base_url=base, timeout=30) as http:
        r = http.post("/api/games", json={"deal": "1"})
        r.raise_for_status()
        state = r.json()
        r = http.post(f"/api/games/{state['id']}/moves", json={"move": state["hint"], "version": state["version"]})
        r.raise_for_status()
        return r.content


def _start(name: str, script: str, *args: str) -> tuple[subprocess.Popen[str], str]:
    """Run ``bench/<script> args`` and wait for its "served at URL" line."""
    proc = subprocess.Popen([sys.executable, str(HERE / script), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if "served at " in line:
            return proc, line.split("served at ")[1].strip()
    proc.wait()
    raise SystemExit(f"the {name} server did not start: " + "".join(seen))


def start_firstlast(db: Path, play_threads: int | None) -> tuple[subprocess.Popen[str], str]:
    # Hundreds of players on one server: past the bound a person never meets (issue 29.6).
    os.environ.setdefault("FIRSTLAST_NEW_PLAYERS", "100000")
    if play_threads is None:
        return spawn_server(db)
    return _start("firstlast", "wide_play_server.py", str(play_threads), "play", "--no-browser", "--port", "0",
                  "--db", str(db))


def start_bare(sample: Path) -> tuple[subprocess.Popen[str], str]:
    return _start("bare", "bare_server.py", str(sample))


def stop(proc: subprocess.Popen[str]) -> None:
    stop_server(proc)  # SIGTERM, killed if it lingers: both servers stop alike


def report(r: Result) -> None:
    err = sum(r.errors.values())
    print(f"  {r.name:9} {r.requests:7,} moves {r.others:4} other  {r.requests / r.seconds:7,.0f} req/s  "
          f"server CPU {r.cpu_ms:6.3f} ms/req ({r.cpu:5.2f} s, {r.sys_cpu:4.2f} s system)  "
          f"client CPU {r.client_cpu:5.2f} s  "
          f"p50 {r.q[0]:6.1f}  p95 {r.q[1]:6.1f}  p99 {r.q[2]:6.1f} ms" + (f"  errors {err}" if err else ""))
    for text, n in list(r.errors.items())[:3]:
        print(f"            {n} x {text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured window per server and player count")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--connections", type=int, default=100, help="keep-alive connections shared by the players")
    parser.add_argument("--db-dir", type=Path, default=None, help="folder of the throw-away database")
    parser.add_argument("--play-threads", type=int, default=None,
                        help="let the web layer run this many play-layer calls at once (bench/wide_play_server.py)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.db_dir) as tmp:
        fl, fl_base = start_firstlast(Path(tmp) / "bench.sqlite3", args.play_threads)
        drain_output(fl)
        sample = Path(tmp) / "sample.json"
        sample.write_bytes(sample_answer(fl_base))
        bare, bare_base = start_bare(sample)
        drain_output(bare)
        try:
            print(f"firstlast {fl_base} (pid {fl.pid}), bare {bare_base} (pid {bare.pid}); database in {tmp}; "
                  f"answer body {sample.stat().st_size} bytes; {os.cpu_count()} cores shared with the clients; "
                  f"{args.connections} connections at most; {args.seconds:g} s measured after {args.warmup:g} s; "
                  f"play-layer calls at once: {args.play_threads or f'{PLAY_THREADS} (as shipped)'}")
            for n in args.players:
                conns = min(n, args.connections)
                res = [asyncio.run(drive(name, base, proc.pid, n, args.seconds, args.warmup, conns))
                       for name, base, proc in (("firstlast", fl_base, fl), ("bare", bare_base, bare))]
                print(f"{n} players:")
                for r in res:
                    report(r)
                print(f"  ratio firstlast/bare CPU per request: {res[0].cpu_ms / res[1].cpu_ms:.2f}x")
        finally:
            stop(fl)
            stop(bare)


if __name__ == "__main__":
    main()
