"""Serve the browser game with uvicorn: ``firstlast play`` and the latency bench use this.

The listening socket is bound here, before uvicorn starts, so that port 0 ("any free
port") is resolved to a real port that can be printed and opened without a race.

A local server is still a server: it bounds what a client can hold, so that no client —
a page, or a local process holding thousands of idle connections — can starve the
player (``GuardedH11Protocol``):

* It holds at most ``limits()``'s cap of connections, accepts few at once and keeps room
  for the descriptors SQLite and the event loop need. A new connection past the cap
  sheds the oldest idle one (closing after an answer, else never sent a request, else
  idle longest between requests; one whose request has come, not yet read, last); it is
  closed itself only when every held connection has a request in progress or on its
  way. One remote address other than loopback holds at most its share. Held
  connections alone never make uvicorn answer 503.
* A connection must deliver a whole request head within ``HEAD_TIMEOUT`` seconds of
  being accepted, an idle keep-alive connection is closed after ``KEEP_ALIVE`` seconds
  and a request body may not stall for ``HEAD_TIMEOUT``; these shrink towards
  ``MIN_IDLE_TIMEOUT`` as the held connections near the cap. A head is at most
  ``MAX_HEAD_BYTES``.
* An answer given before the request's body was read (413, a refusal) ends the
  connection: ``Connection: close`` (web/middleware.py), then the end of the stream,
  dropping what the client still sends for ``LINGER`` seconds at most.

Repeated identical log lines (a flood of "Too many open files", of bad requests) are let
through once per ``LOG_EVERY`` seconds and counted. ``bench/connection_flood.py``
measures a player's answered share under a flood of idle connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import select
import signal
import socket
import sys
import threading
import time
import weakref
import webbrowser
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Final
from urllib.parse import urlencode

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from .. import runtime
from ..i18n import t
from ..play import GameStore, PlayService
from .app import create_app
from .errors import STORAGE_LOGGER
from .middleware import MAX_HEAD_BYTES  # h11's bound on a head still incomplete; the middleware's on a whole one

#: Seconds a connection has to deliver a whole request head: from when it is accepted, and
#: again after each answer on a keep-alive connection (a browser's head arrives in
#: milliseconds; a client that sends half a head and waits holds nothing longer). Also how
#: long a request body may stall (no byte arrives) before the connection is closed.
HEAD_TIMEOUT: Final = 5.0
#: Seconds an idle keep-alive connection is kept after an answer.
KEEP_ALIVE: Final = 5
#: Seconds a whole request body may take from its head (a slow trickle that never quite
#: stalls holds a connection as long as a stalled one: the body's 32 MiB at most take well
#: under a second on loopback, a phone's upload of a backup seconds).
BODY_TIMEOUT: Final = 60.0
#: What these timeouts shrink to as the held connections near the cap (from half of it on).
MIN_IDLE_TIMEOUT: Final = 0.5
#: Seconds a connection answered before its request body was read keeps reading (and
#: dropping) what the client still sends after the answer, before it is reset: closing at
#: once, with unread data, resets the connection, and some systems then drop the answer.
LINGER: Final = 2.0
#: Identical log lines are let through once per this many seconds.
LOG_EVERY: Final = 10.0
#: The loggers a flood comes through: asyncio's accept loop (EMFILE), uvicorn's own.
FLOOD_LOGGERS: Final = ("asyncio", "uvicorn", "uvicorn.error", "uvicorn.access")


@dataclass(frozen=True)
class Limits:
    """How many connections the server holds, answers and takes per turn of its loop."""

    max_connections: int  # held at most; a new one past it sheds the oldest idle one
    limit_concurrency: int  # this many requests in progress: uvicorn answers 503
    backlog: int  # the kernel's queue of connections not yet accepted, and the most accepted at once
    per_peer: int  # held at most from one remote address (loopback is one player: not limited)


def limits(open_files: int | None = None) -> Limits:
    """The limits for a process allowed ``open_files`` descriptors (default: the soft
    ``RLIMIT_NOFILE``), so that connections can never use up the descriptors: asyncio
    accepts up to ``backlog`` connections per turn of the loop before any is looked at,
    and on "Too many open files" (Python 3.11) logs it and schedules a retry once for
    each of those ``backlog`` tries, every time, and the loop is starved. So: at most
    ``max_connections`` held, a few ``backlog`` batches in flight, and room kept for
    SQLite (one transaction at a time, up to three descriptors) and the process."""
    if open_files is None:
        try:
            import resource

            open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        except (ImportError, OSError, ValueError):  # no resource module (Windows)
            open_files = 512
        if open_files < 0:  # RLIM_INFINITY
            open_files = 1 << 20
    room = open_files - _RESERVED_FILES
    cap = max(8, min(512, room // 3))
    backlog = max(4, min(128, (room - cap) // 4))
    # uvicorn also answers 503 once it holds limit_concurrency connections: one more than
    # are ever held, so that a full server still answers requests (200 players, each with
    # its own connection, must all be served), and only requests left running by clients
    # that went away (no connection held any more) can reach it.
    return Limits(cap, cap + 1, backlog, max(8, cap // 4))


#: Descriptors kept for the process itself: the interpreter, the listening socket, the
#: event loop, SQLite, the browser launcher.
_RESERVED_FILES: Final = 64


class LogFlood(logging.Filter):
    """Lets one identical log record through per ``every`` seconds and counts the rest;
    the next one let through says how many were not logged. Identical: same logger,
    level, message and exception type."""

    def __init__(self, every: float = LOG_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self.suppressed = 0  # in all, since the start
        self._seen: dict[tuple[str, int, str, str], tuple[float, int]] = {}  # key: (last let through, held back)
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: let logging report it
            return True
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, record.levelno, message, exc)
        now = self.clock()
        with self._lock:
            last = self._seen.get(key)
            if last is not None and now - last[0] < self.every:
                self._seen[key] = (last[0], last[1] + 1)
                self.suppressed += 1
                return False
            held = last[1] if last is not None else 0
            if len(self._seen) >= 1000:  # forget what has been quiet for a while
                self._seen = {k: v for k, v in self._seen.items() if now - v[0] < self.every}
            self._seen[key] = (now, 0)
        if held:
            record.msg = f"{message} ({held} more like this in {self.every:g} s not logged)"
            record.args = None
            record.__dict__.pop("color_message", None)
        return True


@contextlib.contextmanager
def flood_filter(every: float = LOG_EVERY) -> Iterator[LogFlood]:
    """``LogFlood`` on ``FLOOD_LOGGERS`` while the block runs."""
    flood = LogFlood(every)
    loggers = [logging.getLogger(name) for name in FLOOD_LOGGERS]
    for logger in loggers:
        logger.addFilter(flood)
    try:
        yield flood
    finally:
        for logger in loggers:
            logger.removeFilter(flood)


class _Pool:
    """One server's connections that hold no request, each kind oldest first: those
    closing after an answer, those that never sent a request, and those idle between
    requests (by how long). A connection past the cap sheds one of them (``oldest``)."""

    def __init__(self) -> None:
        self.closing: OrderedDict[GuardedH11Protocol, None] = OrderedDict()
        self.fresh: OrderedDict[GuardedH11Protocol, None] = OrderedDict()
        self.kept: OrderedDict[GuardedH11Protocol, None] = OrderedDict()
        self.peers: Counter[str] = Counter()  # held connections per remote address (not loopback)

    def oldest(self, besides: GuardedH11Protocol, peer: str | None = None) -> GuardedH11Protocol | None:
        """The idle connection to shed first (other than ``besides``), of ``peer`` if
        given: one closing after an answer; else the oldest of those that never sent a
        request, one with no input waiting first (input waiting is a request the loop has
        not got to yet: a busy loop takes a few turns, while a flood keeps arriving); else
        the one idle longest between requests, with no input waiting (else none: a request
        is on its way on each). Only the first ``_LOOK`` of a kind are looked at for input."""
        for conn in self._mine(self.closing, besides, peer):
            return conn
        oldest = None
        for looked, conn in enumerate(self._mine(self.fresh, besides, peer)):
            if not conn.has_input():
                return conn
            oldest = oldest or conn
            if looked + 1 == _LOOK:
                break
        if oldest is not None:
            # Requests on their way on each: the oldest goes, so that a flood of them
            # is not all answered (connections idle between requests are a player's).
            return oldest
        for looked, conn in enumerate(self._mine(self.kept, besides, peer)):
            if not conn.has_input():
                return conn
            if looked + 1 == _LOOK:
                break
        return None

    @staticmethod
    def _mine(bucket: OrderedDict[GuardedH11Protocol, None], besides: GuardedH11Protocol,
              peer: str | None) -> Iterator[GuardedH11Protocol]:
        return (conn for conn in bucket if conn is not besides and (peer is None or conn.peer == peer))


#: How many idle connections of a kind are looked at for input before the next kind.
_LOOK: Final = 16


if sys.platform == "win32":
    def _readable(fd: int) -> bool:
        return bool(select.select([fd], [], [], 0)[0])
else:
    def _readable(fd: int) -> bool:
        # poll, not select: select cannot take a descriptor past FD_SETSIZE (1,024).
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))


#: Each server's pool, by uvicorn's state shared by its connections.
_pools: weakref.WeakKeyDictionary[ServerState, _Pool] = weakref.WeakKeyDictionary()


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the bounds it lacks, so that idle and slow connections
    cannot starve players (nor use up the descriptors):

    * At most ``max_connections`` are held (``per_peer`` from one remote address other
      than loopback). A connection past that makes room by shedding an idle one
      (``_Pool.oldest``): one closing after an answer, else the oldest that never sent a
      request (what a flood of idle connections is made of: a player's browser sends its
      request at once, and one whose request has come but is not read yet goes last),
      else the one idle longest between requests (a browser opens another) unless its
      next request has come. Only when none is left is the new one closed instead.
    * A connection must deliver a whole request head ``head_timeout`` seconds after it was
      accepted, and after each answer (keep-alive: ``keep_alive`` seconds), and a request
      body may not stall that long; both shrink towards ``MIN_IDLE_TIMEOUT`` as the held
      connections near the cap. (uvicorn's own keep-alive timer only starts after a first
      answer, so a connection that sends half a head would otherwise stay open for ever.)
    * Answered before its request body was read (a 413, a refusal), a connection is
      closed after the answer, not left reading the rest: it lingers ``linger`` seconds,
      dropping what comes, so that the client reads the answer before a reset."""

    max_connections: int = 256
    per_peer: int = 64
    head_timeout: float = HEAD_TIMEOUT
    keep_alive: float = KEEP_ALIVE
    linger: float = LINGER

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.peer: str | None = None  # the remote address, when it is not loopback
        self._fd = -1  # the socket's descriptor, to look for input
        self._raw: asyncio.Transport = None  # type: ignore[assignment]  # uvicorn gets a _Transport over it
        pool = _pools.get(self.server_state)
        if pool is None:
            pool = _pools[self.server_state] = _Pool()
        self._pool = pool
        self._bucket: OrderedDict[GuardedH11Protocol, None] | None = None
        self._held = False
        self._answered = False
        self._lingering = False
        self._last_data = 0.0
        self._body_since = 0.0
        self._timer: asyncio.TimerHandle | None = None

    # -------------------------------------------------------------------- uvicorn's hooks
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._raw = transport
        sock = transport.get_extra_info("socket")
        self._fd = sock.fileno() if sock is not None else -1
        super().connection_made(_Transport(transport, self))
        self._held = True
        self._last_data = self.loop.time()
        host = self.client[0] if self.client else None
        if host is not None and not is_loopback(host):
            self.peer = host
            self._pool.peers[host] += 1
        self._place(self._pool.fresh)
        if not self._make_room():
            self._let_go()
            transport.abort()  # no answer: reading a request is what a full server cannot afford
            return
        self._arm_timer(self._scaled(self.head_timeout))

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_timer()
        self._let_go()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return  # the answer is out: what the client still sends is dropped
        self._last_data = self.loop.time()
        before = self.conn.their_state
        super().data_received(data)
        if before is not h11.SEND_BODY and self.conn.their_state is h11.SEND_BODY:
            self._body_since = self._last_data  # a head came: its body's clock starts

    def handle_events(self) -> None:
        super().handle_events()
        self._settle()

    def on_response_complete(self) -> None:
        self._answered = True
        super().on_response_complete()
        if not self.transport.is_closing():
            if self.conn.their_state is h11.SEND_BODY and self.conn.our_state is h11.DONE:
                # Answered before the body was read, and the answer did not say close (the
                # app's middleware does): the rest of the body is read by nobody. (Once a
                # pipelined request has begun, ours is SEND_RESPONSE again.)
                self._close()
            else:
                self._arm_timer(self._scaled(self.keep_alive))
        self._settle()

    # -------------------------------------------------------------------- room
    def has_input(self) -> bool:
        """Whether bytes (or the end) have come that the loop has not read yet."""
        try:
            return self._fd >= 0 and _readable(self._fd)
        except (OSError, ValueError):
            return False

    def _make_room(self) -> bool:
        """Shed idle connections until this new one fits; ``False``: it does not."""
        while self.peer is not None and self._pool.peers[self.peer] > self.per_peer:
            victim = self._pool.oldest(self, self.peer)
            if victim is None:
                return False
            victim._shed()
        while len(self.connections) > self.max_connections:
            victim = self._pool.oldest(self)
            if victim is None:
                return False
            victim._shed()
        return True

    def _shed(self) -> None:
        """Closed to make room: at once, and no longer counted."""
        self._disarm_timer()
        self._let_go()
        if self._answered and not self._lingering:
            # Idle between requests: closed as uvicorn's keep-alive timer closes it.
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
            self._raw.close()
        else:
            self._raw.abort()

    def _let_go(self) -> None:
        """No longer held: out of the server's count and the pool."""
        self.connections.discard(self)
        self._place(None)
        if self._held and self.peer is not None:
            self._pool.peers[self.peer] -= 1
            if self._pool.peers[self.peer] <= 0:
                del self._pool.peers[self.peer]
        self._held = False

    def _settle(self) -> None:
        """Into the pool's bucket its state says, or out of the pool while a request is in
        progress; a connection already in its bucket keeps its place (its age)."""
        if not self._held:
            return
        if self._lingering:
            self._place(self._pool.closing)
        elif self._raw.is_closing():
            self._place(None)
        elif self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE:
            self._place(self._pool.kept if self._answered else self._pool.fresh)
        else:
            self._place(None)

    def _place(self, bucket: OrderedDict[GuardedH11Protocol, None] | None) -> None:
        if bucket is self._bucket:
            return
        if self._bucket is not None:
            self._bucket.pop(self, None)
        if bucket is not None:
            bucket[self] = None
        self._bucket = bucket

    def _scaled(self, timeout: float) -> float:
        """``timeout`` while at most half the cap is held, shrinking linearly to
        ``MIN_IDLE_TIMEOUT`` at the cap."""
        held = len(self.connections) / self.max_connections
        if held <= 0.5:
            return timeout
        return max(MIN_IDLE_TIMEOUT, timeout - (timeout - MIN_IDLE_TIMEOUT) * (held - 0.5) * 2)

    # -------------------------------------------------------------------- closing
    def _close(self) -> None:
        """uvicorn's ``transport.close()``: at once, unless the client is still sending a
        request body that will not be read (an answer came first): then the answer is
        followed by the end of the stream (FIN) while what still comes is dropped, for
        ``linger`` seconds or until the client closes, and the connection is reset."""
        raw = self._raw
        if self._lingering or raw.is_closing() or self.conn.their_state is not h11.SEND_BODY or not raw.can_write_eof():
            raw.close()
            return
        self._lingering = True
        raw.write_eof()
        raw.resume_reading()  # uvicorn may have paused it, waiting for the app to read
        self._arm_timer(self.linger)
        self._settle()

    # -------------------------------------------------------------------- the timer
    def _arm_timer(self, delay: float) -> None:
        self._disarm_timer()
        self._timer = self.loop.call_later(delay, self._timed_out)

    def _disarm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self) -> None:
        self._timer = None
        if self._lingering:
            self._raw.abort()
            return
        if self._raw.is_closing():
            return
        their = self.conn.their_state
        if self.has_input():
            # Bytes have come that the loop has not read yet (it is busy): not idle.
            self._arm_timer(MIN_IDLE_TIMEOUT)
        elif their is h11.IDLE:
            # No whole request head since the timer was armed (a request being answered
            # has moved it on, and its answer re-arms the timer).
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
            self._raw.close()
        elif their is h11.SEND_BODY and self.conn.our_state is h11.SEND_RESPONSE and not self.flow.read_paused:
            # A body on its way: closed once nothing has come for the timeout (the app
            # then reads a disconnect); uvicorn pausing the reading is not the client's stall.
            timeout = self._scaled(self.head_timeout)
            now = self.loop.time()
            stalled = now - self._last_data
            # A trickle that never stalls is shed too once the body takes too long.
            left = self._scaled(BODY_TIMEOUT) - (now - self._body_since)
            if stalled >= timeout or left <= 0:
                self._raw.close()
            else:
                self._arm_timer(min(timeout - stalled, left))
        elif their is h11.SEND_BODY and self.conn.our_state is h11.SEND_RESPONSE:
            self._arm_timer(self._scaled(self.head_timeout))


class _Transport(asyncio.Transport):
    """The transport uvicorn sees: the connection's own, except that ``close`` is
    ``GuardedH11Protocol._close`` (which may linger) and ``is_closing`` is true while it
    lingers."""

    def __init__(self, raw: asyncio.Transport, owner: GuardedH11Protocol) -> None:
        super().__init__()
        self._raw = raw
        self._owner = owner

    def close(self) -> None:
        self._owner._close()

    def is_closing(self) -> bool:
        return self._owner._lingering or self._raw.is_closing()

    def abort(self) -> None:
        self._raw.abort()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._raw.get_extra_info(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._raw.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._raw.get_protocol()

    def is_reading(self) -> bool:
        return self._raw.is_reading()

    def pause_reading(self) -> None:
        self._raw.pause_reading()

    def resume_reading(self) -> None:
        self._raw.resume_reading()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._raw.write(data)

    def writelines(self, list_of_data: Iterable[bytes | bytearray | memoryview]) -> None:
        self._raw.writelines(list_of_data)

    def write_eof(self) -> None:
        self._raw.write_eof()

    def can_write_eof(self) -> bool:
        return self._raw.can_write_eof()

    def get_write_buffer_size(self) -> int:
        return self._raw.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._raw.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._raw.set_write_buffer_limits(high, low)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto must say TCP: asyncio sets TCP_NODELAY on accepted sockets only when it does,
    # and without it every keep-alive answer waits ~40 ms (Nagle against delayed ACK).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _url_host(host: str) -> str:
    """The host to put in a URL: the wildcard addresses are reached on loopback."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def graphical_browser_likely() -> bool:
    """False on a Unix without a display (an SSH session, a container): there Python's
    ``webbrowser`` would fall back to a text browser that takes over this terminal, and
    the game needs JavaScript anyway. ``$BROWSER`` overrides the guess."""
    if os.environ.get("BROWSER"):
        return True
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def uvicorn_config(app: ASGIApp) -> uvicorn.Config:
    """The uvicorn settings ``serve`` runs under: the limits above and the guarded
    protocol (``bench/bare_server.py`` runs its baseline under the same)."""
    bounds = limits()

    class Protocol(GuardedH11Protocol):
        pass

    Protocol.max_connections = bounds.max_connections
    Protocol.per_peer = bounds.per_peer
    return uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=5,
        http=Protocol, limit_concurrency=bounds.limit_concurrency, backlog=bounds.backlog,
        timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        proxy_headers=False,  # no proxy in front: X-Forwarded-* is a client's word, not trusted (issue 29.6)
    )


def sign_in_url(base: str, player: str, deal: int | None = None, variant: str | None = None,
                lang: str | None = None) -> str:
    """The address that signs the browser in as ``player`` and, with ``deal``, opens the
    page on that deal; with ``lang``, in that language (the sign-in keeps ``deal``,
    ``variant`` and ``lang`` through its redirect)."""
    query = {"player": player}
    if deal is not None:
        query["deal"] = str(deal)
        if variant is not None:
            query["variant"] = variant
    if lang is not None:
        query["lang"] = lang
    return f"{base}?{urlencode(query)}"


def serve(
    store: GameStore,
    *,
    host: str = "127.0.0.1",
    port: int | None = 0,
    open_browser: bool = True,
    echo: Callable[[str], None] = print,
    say: Callable[..., str] | None = None,
    deal: int | None = None,
    variant: str | None = None,
    site_url: str | None = None,
    lang: str | None = None,
) -> None:
    """Serve until Ctrl-C (SIGINT) or SIGTERM, then return. ``port`` 0 or ``None``: a free
    port. The browser, if opened, is signed in as the store's local player, so that it
    shares games and statistics with the terminal game. ``deal`` (and ``variant``, a
    token): the page opens on that deal (``/?deal=N&variant=TOKEN``). ``site_url``: the
    player's static site online, where shared links point (``create_app``). The status lines
    are catalog messages (``cli.play.*``) worded by ``say(key, **params)`` — the CLI's
    language — and written with ``echo``; English by default. One address is printed: the
    sign-in's, which opens the store's local player's games (the terminal's, ``firstlast
    export``'s), the one the browser is opened on; ``lang``: the page opens in it (the
    language asked for on the command line)."""
    words: Callable[..., str] = say if say is not None else partial(t, "en")
    play = PlayService(store)
    player = play.local_player()
    app = create_app(play, local_player=player, bind_host=host, site_url=site_url)
    sock = _bind(host, port or 0)
    bound_port = sock.getsockname()[1]
    base = f"http://{_url_host(host)}:{bound_port}/"
    sign_in = sign_in_url(base, player, deal, variant, lang)
    server = _Server(uvicorn_config(app), on_stop=play.stop_searches)

    def announce() -> None:
        # Only once uvicorn accepts connections, so that the browser never finds it closed.
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        if not server.started:
            return
        # One address, this player's: the bare one would make a new player in a new browser.
        echo(words("cli.play.served", url=sign_in))
        if not is_loopback(host):
            echo(words("cli.play.exposed", host=host))
        if open_browser:
            opened = False
            if graphical_browser_likely():
                with contextlib.suppress(Exception):  # no browser is not an error: the URL is printed
                    opened = webbrowser.open(sign_in)
            if not opened:
                echo(words("cli.play.no_browser"))
        echo(words("cli.play.stop_hint"))
        with contextlib.suppress(Exception):
            sys.stdout.flush()

    watcher = threading.Thread(target=announce, name="firstlast-announce", daemon=True)
    watcher.start()
    try:
        with flood_filter(), _sigterm_stops(), _storage_log():
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn shuts down gracefully on SIGINT, then re-raises the signal: that is the
        # normal way to stop, not an error.
        pass
    finally:
        sock.close()
        # Whatever the requests left: searches are cancelled (the helper process ends),
        # writes still queued are committed and answered, the writer's thread is joined,
        # and the database is closed (checkpointed) before "Stopped.".
        play.close()
        runtime.stop_apart()
        store.close()
        watcher.join(timeout=1)
    echo(words("cli.play.stopped"))


class _Server(uvicorn.Server):
    """uvicorn's server, which tells the play layer as soon as it begins to stop: the
    searches for deals that come out end at once (answered 503 ``stopping``) instead of
    holding the graceful shutdown for seconds."""

    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_stop = on_stop

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._on_stop()
        runtime.stop_apart(wait=False)
        for connection in list(self.server_state.connections):
            # A request whose body is still on its way (a slow upload) would hold the
            # graceful shutdown to its end and then be cancelled (a 500 and a traceback):
            # closed now, its handler reads a disconnect (request.gone), nothing done.
            h11_conn = getattr(connection, "conn", None)
            if (isinstance(h11_conn, h11.Connection) and h11_conn.their_state is h11.SEND_BODY
                    and h11_conn.our_state is h11.SEND_RESPONSE):
                connection.transport.close()
        await super().shutdown(sockets)


@contextlib.contextmanager
def _storage_log() -> Iterator[None]:
    """Storage failures are logged (``firstlast.storage``, one line each, floods
    thinned by ``LogFlood``) on standard error while serving: the player sees a 503,
    whoever runs the server sees why."""
    logger = logging.getLogger(STORAGE_LOGGER)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s:  %(message)s"))
    flood = LogFlood()
    handler.addFilter(flood)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """uvicorn shuts down gracefully on SIGTERM too, then raises the signal again under
    the handler it found: the default one would kill the process (status 143) before
    "Stopped.". Under this block that second SIGTERM does nothing, so the server stops
    as on Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, lambda sig, frame: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
