"""Serve the browser game with uvicorn: ``firstlast play`` and the latency bench use this.

The listening socket is bound here, before uvicorn starts, so that port 0 ("any free
port") is resolved to a real port that can be printed and opened without a race.

A local server is still a server: it bounds what a client can hold. A connection must
deliver a whole request head within ``HEAD_TIMEOUT`` seconds (else it is closed), an
idle keep-alive connection is closed after ``KEEP_ALIVE`` seconds, a head is at most
``MAX_HEAD_BYTES``, connections past ``limits()``'s cap are closed as they arrive and
few are accepted at once (so they cannot use up the file descriptors SQLite and the
event loop need) and requests past its concurrency limit are answered 503. Repeated
identical log lines (a flood of "Too many open files", of bad requests) are let through
once per ``LOG_EVERY`` seconds and counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Final
from urllib.parse import urlencode

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from .. import runtime
from ..i18n import t
from ..store import GameStore
from .app import create_app
from .errors import STORAGE_LOGGER

#: Seconds a connection has to deliver a whole request head: from when it is accepted, and
#: again after each answer on a keep-alive connection (a browser's head arrives in
#: milliseconds; a client that sends half a head and waits holds nothing longer).
HEAD_TIMEOUT: Final = 5.0
#: Seconds an idle keep-alive connection is kept after an answer (uvicorn's own timer).
KEEP_ALIVE: Final = 5
#: Largest request head (request line and headers): h11's own default, pinned. Cookies
#: are per host, not per port, so other local servers' cookies come along: keep room.
MAX_HEAD_BYTES: Final = 16 * 1024
#: Identical log lines are let through once per this many seconds.
LOG_EVERY: Final = 10.0
#: The loggers a flood comes through: asyncio's accept loop (EMFILE), uvicorn's own.
FLOOD_LOGGERS: Final = ("asyncio", "uvicorn", "uvicorn.error", "uvicorn.access")


@dataclass(frozen=True)
class Limits:
    """How many connections the server holds, answers and takes per turn of its loop."""

    max_connections: int  # more are closed as they arrive
    limit_concurrency: int  # past this many connections or requests, uvicorn answers 503
    backlog: int  # the kernel's queue of connections not yet accepted, and the most accepted at once


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
    # Every held connection may be a player's keep-alive: requests are answered up to the
    # connection cap (200 players, each with its own connection, must all be served).
    return Limits(cap, cap, backlog)


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


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with two bounds it lacks: a connection past
    ``max_connections`` is closed at once, and one that has not delivered a whole request
    head ``HEAD_TIMEOUT`` seconds after it was accepted (or after its last answer) is
    closed. uvicorn's own keep-alive timer only starts after a first answer, so a
    connection that sends half a head would otherwise stay open for ever."""

    max_connections: int = 256
    head_timeout: float = HEAD_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self.connections.discard(self)
            transport.abort()  # no answer: reading a request is what a full server cannot afford
            return
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        # IDLE on the client's side: no whole request head since the timer was armed (a
        # request being answered has moved it on, and its answer re-arms the timer).
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.transport.close()


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
    """The uvicorn settings ``serve`` runs under: the limits above, the head timeout and
    the keep-alive (``bench/bare_server.py`` runs its baseline under the same)."""
    bounds = limits()

    class Protocol(GuardedH11Protocol):
        pass

    Protocol.max_connections = bounds.max_connections
    return uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=5,
        http=Protocol, limit_concurrency=bounds.limit_concurrency, backlog=bounds.backlog,
        timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEAD_BYTES,
    )


def sign_in_url(base: str, player: str, deal: int | None = None, variant: str | None = None) -> str:
    """The address that signs the browser in as ``player`` and, with ``deal``, opens the
    page on that deal (the sign-in keeps ``deal`` and ``variant`` through its redirect)."""
    query = {"player": player}
    if deal is not None:
        query["deal"] = str(deal)
        if variant is not None:
            query["variant"] = variant
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
) -> None:
    """Serve until Ctrl-C (SIGINT) or SIGTERM, then return. ``port`` 0 or ``None``: a free
    port. The browser, if opened, is signed in as the store's local player, so that it
    shares games and statistics with the terminal game. ``deal`` (and ``variant``, a
    token): the page opens on that deal (``/?deal=N&variant=TOKEN``). ``site_url``: the
    player's static site online, where shared links point (``create_app``). The status lines
    are catalog messages (``cli.play.*``) worded by ``say(key, **params)`` — the CLI's
    language — and written with ``echo``; English by default."""
    words: Callable[..., str] = say if say is not None else partial(t, "en")
    player = store.local_player()
    app = create_app(store, local_player=player, bind_host=host, site_url=site_url)
    sock = _bind(host, port or 0)
    bound_port = sock.getsockname()[1]
    base = f"http://{_url_host(host)}:{bound_port}/"
    sign_in = sign_in_url(base, player, deal, variant)
    play = app.state.play
    server = _Server(uvicorn_config(app), on_stop=play.stop_searches)

    def announce() -> None:
        # Only once uvicorn accepts connections, so that the browser never finds it closed.
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        if not server.started:
            return
        echo(words("cli.play.served", url=base))
        echo(words("cli.play.sign_in", url=sign_in))
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
