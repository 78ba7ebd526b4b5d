"""A normal player's answered share while one local process floods the server with idle
connections, beside a baseline run without the flood.

    python bench/connection_flood.py [--floods 2000 10000] [--requests 150] [--seconds 30]
                                     [--timeout 5] [--modes keep-alive new] [--open-files N]
                                     [--flood-sends nothing|half-head|request] [--recycle S]

For each flood size (0 first: the baseline), starts the real server (``firstlast play
--no-browser --port 0``, a throw-away database; ``--open-files`` sets its descriptor
limit, else it inherits this one), then a flooder process that holds that many
connections to it which never send a byte (``--flood-sends``: half a request head, or a
whole request and then stay idle on keep-alive), and opens a new one at once for each
the server closes (non-blocking sockets, one ``selectors`` loop; its descriptor limit is
raised to fit); with ``--recycle S``, also for each one still open after S seconds.
After a second of flooding, a player plays: ``POST /api/games``, then
``GET /api/games/current`` and ``POST /api/games/{id}/moves`` (the hinted move) in turn,
one request at a time, ``--requests`` of them or for ``--seconds``, each with a
``--timeout``. Answered: a 2xx answer; anything else (503, a reset, a timeout) is
counted by kind. Modes: ``keep-alive`` (one pooled connection, as a browser does) and
``new`` (a new connection for every request: the player's connections then have to get
through the flood too). A flood of whole requests (``--flood-sends request``) is a flood
of requests, and on a new connection per request the player is one of many.

Prints, per mode and flood: answered / sent, the share, the player's p50/p95 round trip
and its ratio to the baseline, and the failures by kind. Measures; asserts nothing. The
flooder, the server and the player share the machine's cores.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import errno
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import drain_output, spawn_server, stop_server

# ---------------------------------------------------------------------------- the flooder
#: What each flood connection sends once connected, then nothing more (``--flood-sends``).
SENDS = {
    "nothing": b"",
    "half-head": b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    "request": b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",  # then idle on keep-alive
}


def flood(host: str, port: int, count: int, sends: bytes, recycle: float) -> None:
    """Hold ``count`` connections to ``host:port`` for ever, each sending ``sends`` once
    and then nothing, reopening each one the server closes at once, and (``recycle`` > 0)
    each one still open after ``recycle`` seconds. Prints ``flooding`` once the first
    ``count`` are under way."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = count + 64
        if soft != resource.RLIM_INFINITY and soft < want:
            raised = want if hard == resource.RLIM_INFINITY else min(want, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
    except (ImportError, OSError, ValueError) as e:
        print(f"cannot raise the descriptor limit: {e}", file=sys.stderr)
    selector = selectors.DefaultSelector()
    retry: collections.deque[float] = collections.deque()  # when to try again, one per connection not open
    opened: collections.deque[tuple[float, socket.socket]] = collections.deque()  # oldest first

    def open_one() -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        code = s.connect_ex((host, port))
        if code not in (0, errno.EINPROGRESS):
            s.close()
            retry.append(time.monotonic() + 0.05)  # out of ports or refused: try again shortly
            return
        selector.register(s, selectors.EVENT_WRITE if sends else selectors.EVENT_READ)
        if recycle > 0:
            opened.append((time.monotonic(), s))

    def reopen(sock: socket.socket) -> None:
        selector.unregister(sock)
        sock.close()
        open_one()

    for _ in range(count):
        try:
            open_one()
        except OSError:  # out of descriptors: the rest wait their turn
            retry.append(time.monotonic() + 0.05)
    print("flooding", flush=True)
    while True:
        for key, events in selector.select(timeout=0.05):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                if events & selectors.EVENT_WRITE:  # connected: send, then only read
                    sock.send(sends)
                    selector.modify(sock, selectors.EVENT_READ)
                    continue
                data = sock.recv(4096)  # an answer (to "request") is read and dropped
            except OSError:
                data = b""
            if not data:  # closed (or refused) by the server: reconnect at once
                reopen(sock)
        now = time.monotonic()
        while opened and opened[0][0] < now - recycle:
            sock = opened.popleft()[1]
            if sock.fileno() >= 0:  # not closed by the server meanwhile
                reopen(sock)
        while retry and retry[0] <= now:
            retry.popleft()
            try:
                open_one()
            except OSError:
                retry.append(now + 0.05)


def start_flood(host: str, port: int, count: int, sends: str, recycle: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, __file__, "--flood-worker", host, str(port), str(count), sends,
                             str(recycle)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "flooding":
        proc.kill()
        raise SystemExit("the flooder did not start")
    return proc


# ---------------------------------------------------------------------------- the player
@dataclass
class Outcome:
    sent: int = 0
    answered: int = 0
    latencies: list[float] = field(default_factory=list)
    failures: collections.Counter[str] = field(default_factory=collections.Counter)


def play(base: str, mode: str, requests: int, seconds: float, timeout: float) -> Outcome:
    """One player, one request at a time (see the module's docstring)."""
    out = Outcome()
    pool = httpx.Limits(max_keepalive_connections=0 if mode == "new" else 1)
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=timeout, limits=pool) as http:
        game: dict[str, object] | None = None
        deal = 1
        turn = 0
        body: dict[str, object] | None
        while out.sent < requests and time.monotonic() < deadline:
            if game is None or game.get("hint") is None:
                method, path, body = "POST", "/api/games", {"deal": deal}
                deal += 1
            elif turn % 2:
                method, path, body = "GET", "/api/games/current", None
            else:
                method, path, body = "POST", f"/api/games/{game['id']}/moves", {"move": game["hint"]}
            turn += 1
            out.sent += 1
            t0 = time.perf_counter()
            try:
                r = http.request(method, path, json=body)
            except httpx.TimeoutException:
                out.failures["timeout"] += 1
                continue
            except httpx.TransportError as e:
                out.failures[type(e).__name__] += 1
                continue
            if not r.is_success:
                out.failures[str(r.status_code)] += 1
                continue
            out.latencies.append(time.perf_counter() - t0)
            out.answered += 1
            if r.status_code != 204:
                answer = r.json()
                game = answer.get("state", answer) if path.endswith("/moves") else answer
    return out


def run(flood_size: int, mode: str, args: argparse.Namespace) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = spawn_server(Path(tmp) / "bench.sqlite3", open_files=args.open_files)
        drain_output(proc)
        flooder = None
        try:
            if flood_size:
                parts = urlsplit(base)
                assert parts.hostname is not None and parts.port is not None
                flooder = start_flood(parts.hostname, parts.port, flood_size, args.flood_sends, args.recycle)
                time.sleep(1.0)  # the server full before the player starts
            return play(base, mode, args.requests, args.seconds, args.timeout)
        finally:
            if flooder is not None:
                flooder.kill()
                flooder.wait()
            stop_server(proc)


def quantile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def main() -> None:
    if len(sys.argv) == 7 and sys.argv[1] == "--flood-worker":
        with contextlib.suppress(KeyboardInterrupt):
            flood(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), SENDS[sys.argv[5]], float(sys.argv[6]))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--floods", type=int, nargs="+", default=[2000, 10_000],
                        help="idle connections the flooder holds, one run each (1…50000)")
    parser.add_argument("--requests", type=int, default=150, help="requests the player sends per run (1…10000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="time limit per run (1…300)")
    parser.add_argument("--timeout", type=float, default=5.0, help="the player's timeout per request, s")
    parser.add_argument("--flood-sends", choices=list(SENDS), default="nothing",
                        help="what each flood connection sends once connected, then nothing more")
    parser.add_argument("--recycle", type=float, default=0.0,
                        help="also reopen a flood connection still open after this many seconds (0: never); "
                             "past a full accept queue Linux answers with SYN cookies and drops the "
                             "handshake's last ACK, leaving connections the client believes open for ever")
    parser.add_argument("--modes", nargs="+", choices=["keep-alive", "new"], default=["keep-alive", "new"])
    parser.add_argument("--open-files", type=int, default=None,
                        help=f"the server's descriptor limit (default: inherited, here {_soft_limit()})")
    args = parser.parse_args()
    if not (all(1 <= n <= 50_000 for n in args.floods) and 1 <= args.requests <= 10_000 and 1 <= args.seconds <= 300):
        parser.error("out of range: --floods 1…50000, --requests 1…10000, --seconds 1…300")
    recycled = f"reopened after {args.recycle:g} s" if args.recycle > 0 else "reopened when closed"
    print(f"flood connections send {args.flood_sends}, {recycled}; "
          f"player: {args.requests} requests or {args.seconds:g} s, timeout {args.timeout:g} s; "
          f"{os.cpu_count()} cores shared by server, flooder and player")
    print(f"{'mode':<11}{'flood':>7}{'answered':>14}{'share':>8}{'p50 ms':>9}{'p95 ms':>9}{'p50 ×':>7}  failures")
    for mode in args.modes:
        baseline: Outcome | None = None
        for size in [0, *args.floods]:
            out = run(size, mode, args)
            baseline = baseline or out
            p50, p95 = quantile(out.latencies, 50), quantile(out.latencies, 95)
            ratio = p50 / quantile(baseline.latencies, 50) if baseline.latencies else float("nan")
            failures = ", ".join(f"{k} {v}" for k, v in out.failures.most_common()) or "-"
            print(f"{mode:<11}{size:>7}{f'{out.answered}/{out.sent}':>14}{out.answered / max(1, out.sent):>8.1%}"
                  f"{1000 * p50:>9.1f}{1000 * p95:>9.1f}{ratio:>7.1f}  {failures}", flush=True)


def _soft_limit() -> int:
    try:
        import resource

        return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError):
        return -1


if __name__ == "__main__":
    main()
