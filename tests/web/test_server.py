"""The server's bounds (``firstlast.web.server``: uvicorn's own settings): what a client
can hold, what it can send, and how the server stops. Against a real ``firstlast play``
subprocess where it matters; every wait is for a condition (a hang is pytest-timeout's), nothing asserts a speed."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from spawn import drain_output, spawn_server, stop_server

from firstlast.web.middleware import MAX_HEAD_BYTES
from firstlast.web.server import KEEP_ALIVE, MAX_CONNECTIONS, limits, more_files, uvicorn_config

pytestmark = pytest.mark.timeout(60)


# ---------------------------------------------------------------------------- the settings
def test_limits_leave_descriptors_for_sqlite() -> None:
    for open_files in (64, 256, 1024, 20_000, 1 << 20):
        cap = limits(open_files)
        assert 16 <= cap <= MAX_CONNECTIONS
        if open_files >= 128:
            assert cap + 64 <= open_files  # room for SQLite and the process
    # A browser holds up to 256 connections: with the usual 1,024 files, a page holding
    # them all leaves room for the player's own.
    assert limits(1024) > 300


def test_the_soft_limit_of_files_is_raised_within_the_hard_one() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, hard))
        got = more_files(1024)
        assert got == min(1024, hard) if hard != resource.RLIM_INFINITY else got == 1024
        assert more_files(256) == got  # never lowered
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_an_unlimited_soft_limit_reads_as_plenty(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    monkeypatch.setattr(resource, "getrlimit", lambda _: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    # uvicorn_config reads the limit with more_files(0): unlimited once read as 0 files, so 16 connections.
    assert limits(more_files(0)) == MAX_CONNECTIONS


def test_the_settings_are_uvicorns_own(tmp_path: Path) -> None:
    from firstlast.store import GameStore
    from firstlast.web import create_app

    config = uvicorn_config(create_app(GameStore(tmp_path / "g.sqlite3")), 1024)
    assert (config.limit_concurrency, config.timeout_keep_alive, config.h11_max_incomplete_event_size) == (
        limits(1024), KEEP_ALIVE, MAX_HEAD_BYTES)
    assert config.http == "h11" and config.proxy_headers is False and config.backlog == 128


# ---------------------------------------------------------------------------- a real server
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, str]]:
    """``firstlast play`` in a subprocess: (host, port, base url). Its output is drained
    so that it can never block on a full pipe. One for the module's tests that take it
    (a server's start is a second of CPU, issue 25.7): each of them asks as a new player
    (no cookie), on connections of its own that it closes, so none sees another's."""
    proc, url = spawn_server(tmp_path_factory.mktemp("served") / "games.sqlite3")
    drain_output(proc)
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    try:
        yield parts.hostname, parts.port, url
    finally:
        stop_server(proc)


def _read_by_server(sock: socket.socket) -> None:
    """Wait until the server has read everything sent on ``sock``: the server's kernel
    took it in (nothing of ours is unacknowledged) and the server read it off its end of
    the connection (nothing unread there), as Linux's /proc/net/tcp says. A condition,
    never a time; a server that never reads is failed by pytest-timeout."""
    mine, theirs = sock.getsockname()[1], sock.getpeername()[1]

    def queues(local: int, remote: int) -> tuple[int, int] | None:
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(FileNotFoundError), open(table) as f:
                for line in list(f)[1:]:
                    fields = line.split()
                    if int(fields[1].rsplit(":", 1)[1], 16) == local and int(fields[2].rsplit(":", 1)[1], 16) == remote:
                        tx, rx = fields[4].split(":")
                        return int(tx, 16), int(rx, 16)
        return None

    while True:
        ours, server = queues(mine, theirs), queues(theirs, mine)
        assert ours is not None, "no connection in /proc/net/tcp (Linux only)"
        if ours[0] == 0 and server is not None and server[1] == 0:
            return
        os.sched_yield()  # the server's turn to read (no timer: the read is the condition)


def test_half_sent_requests_held_open_do_not_starve_others(served: tuple[str, int, str]) -> None:
    # Connections that send half a head, a request line, nothing, or half a body are held
    # (uvicorn has no timer before a first request): the player is answered meanwhile.
    host, port, url = served
    socks = []
    try:
        for i in range(50):
            s = socket.create_connection((host, port), timeout=10)
            s.sendall([b"GET /api/games HTTP/1.1\r\nHost: x\r\n", b"POST /api/ga", b"",
                       b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Content-Length: 100\r\n\r\n{\"deal\": "][i % 4])
            socks.append(s)
        with httpx.Client(base_url=url, timeout=10) as http:
            assert http.get("/api/games").json() == {"games": []}  # not starved by them
            assert http.post("/api/games", json={"deal": 3}).status_code == 201
    finally:
        for s in socks:
            s.close()


def test_a_request_in_two_pieces_is_answered(served: tuple[str, int, str]) -> None:
    # A request sent in two pieces is answered, and a keep-alive connection serves a
    # second request.
    host, port, _ = served
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(b"GET /api/games HTTP/1.1\r\n")
        _read_by_server(s)  # the server has read the first piece alone
        s.sendall(b"Host: 127.0.0.1\r\n\r\n")
        assert _response(s) == (b"HTTP/1.1 200 OK", b'{"games":[]}')
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert _response(s) == (b"HTTP/1.1 200 OK", b'{"games":[]}')


def _response(sock: socket.socket) -> tuple[bytes, bytes]:
    """One answer read off ``sock``: its status line and its body (Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    length = next(int(v) for k, _, v in (line.partition(b":") for line in lines[1:])
                  if k.strip().lower() == b"content-length")
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, body
        body += chunk
    return lines[0], body


def test_an_oversized_request_head_is_refused_not_buffered(served: tuple[str, int, str]) -> None:
    # A head that grows past MAX_HEAD_BYTES without ending is answered 400 at once (not
    # buffered on, nor left to the head timer, which would close it without an answer).
    host, port, _ = served
    with socket.create_connection((host, port), timeout=30) as s:
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (MAX_HEAD_BYTES + 1024))
        answer = s.recv(65536)
    assert answer.startswith(b"HTTP/1.1 400 ")


def _head(size: int, path: bytes = b"/api/games") -> bytes:
    """A whole GET head of exactly ``size`` bytes (an ``X-Pad`` header fills it)."""
    start = b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "
    return start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"


def _status(host: str, port: int, data: bytes) -> bytes:
    with socket.create_connection((host, port), timeout=30) as s:
        s.sendall(data)
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while b"\r\n\r\n" not in answer and (chunk := s.recv(65536)):
                answer += chunk
    return answer.split(b"\r\n", 1)[0]


@pytest.mark.parametrize("size", [16 * 1024 + 1, 20 * 1024, 64 * 1024])
def test_a_whole_request_head_past_16_kib_is_refused(served: tuple[str, int, str], size: int) -> None:
    # Issue 29.5: h11 bounds only a head still incomplete, so one that came whole in a
    # read passed up to 64 KiB. Now 431 (or h11's 400, when it came in pieces).
    host, port, _ = served
    assert _status(host, port, _head(size)) in (b"HTTP/1.1 431 Request Header Fields Too Large",
                                                 b"HTTP/1.1 400 Bad Request")
    assert _status(host, port, _head(MAX_HEAD_BYTES)) == b"HTTP/1.1 200 OK"  # the limit itself passes


def test_a_second_restore_is_refused_before_its_body_is_read(served: tuple[str, int, str]) -> None:
    # Issue 29.5: a restore's body (up to 32 MiB) was read whole before the one-restore
    # guard; now the guard comes first, and a second restore meanwhile is answered 429 with
    # its body never read (it is not even sent here).
    host, port, _ = served
    head = (b"POST /api/backup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000\r\n\r\n")
    with socket.create_connection((host, port), timeout=30) as first:
        first.sendall(head + b'{"backup": "')  # a restore under way: its body still coming
        _read_by_server(first)  # its head read: the first holds the slot
        assert _status(host, port, head) == b"HTTP/1.1 429 Too Many Requests"


def test_held_connections_do_not_use_up_the_descriptors(tmp_path: Path) -> None:
    # Regression: 20,000 held connections used up the process's 1,024 descriptors; then
    # asyncio's accept loop logged "Too many open files" and starved the server. Started
    # with a soft limit of 128, the server raises it (within the hard limit) before it
    # listens: 600 held connections, and the player is still answered.
    import resource

    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 1024:
        pytest.skip("the hard limit of open files is under 1,024 here")
    proc, url = spawn_server(tmp_path / "games.sqlite3", open_files=128)
    output, drain = drain_output(proc)
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    socks = []
    try:
        for _ in range(600):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)  # no waiting while the kernel's queue is full: they wait there
            s.connect_ex((parts.hostname, parts.port))
            socks.append(s)
        with httpx.Client(base_url=url, timeout=10) as http:
            assert http.get("/api/games").status_code == 200
    finally:
        for s in socks:
            s.close()
        stop_server(proc)
    drain.join(timeout=5)
    text = "".join(output)
    assert "Too many open files" not in text and "Traceback" not in text, text[:2000]


# ---------------------------------------------------------------------------- stopping
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_stops_cleanly(sig: signal.Signals, tmp_path: Path) -> None:
    # Regression: SIGTERM (what `kill`, systemd and docker send) ended the process with
    # status 143 and without "Stopped.".
    db = tmp_path / "games.sqlite3"
    proc, url = spawn_server(db)
    try:
        with httpx.Client(base_url=url, timeout=10) as http:
            state = http.post("/api/games", json={"deal": 42}).json()
            assert http.post(f"/api/games/{state['id']}/step").status_code == 200
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, out
    assert out.strip().endswith("Stopped.") and "Traceback" not in out


def test_a_body_on_its_way_does_not_hold_the_stop(tmp_path: Path) -> None:
    # A request whose body is still coming when the server is told to stop is given up
    # (400 request.gone, nothing done) rather than held to the end of uvicorn's graceful
    # shutdown and cancelled there (a traceback).
    proc, url = spawn_server(tmp_path / "games.sqlite3")
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=30) as s:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"deal\": ")
            with httpx.Client(base_url=url, timeout=10) as http:  # the server has read that head by now
                assert http.get("/api/games").status_code == 200
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=20)
            answer = s.recv(65536)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and out.strip().endswith("Stopped."), out
    assert "Traceback" not in out and "Cancel" not in out, out
    assert answer.startswith(b"HTTP/1.1 400 ") and b'"request.gone"' in answer, answer[:300]
