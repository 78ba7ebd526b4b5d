"""Serve the browser game with uvicorn: ``firstlast play`` and the benches use this.

The listening socket is bound here, before uvicorn starts, so that port 0 ("any free
port") is resolved to a real port that can be printed and opened without a race. Its
bounds are uvicorn's own settings (``uvicorn_config``; docs/web-api.md, "Guarantees").
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable, Iterator
from functools import partial
from typing import Final
from urllib.parse import urlencode

import uvicorn
from starlette.types import ASGIApp
from uvicorn.config import LOGGING_CONFIG

from .. import runtime
from ..i18n import t
from ..play import GameStore, PlayService
from .app import create_app
from .errors import STORAGE_LOGGER
from .middleware import MAX_HEAD_BYTES

#: Seconds an idle keep-alive connection is kept after an answer.
KEEP_ALIVE: Final = 5
#: The kernel's queue of connections not yet accepted.
BACKLOG: Final = 128
#: Seconds the requests in flight have to finish once the server is asked to stop.
STOP_GRACE: Final = 5
#: Open files asked for (the soft limit raised to this, within the hard limit).
WANT_FILES: Final = 4096
#: Connections and requests held at most, however many descriptors there are.
MAX_CONNECTIONS: Final = 1000
#: Descriptors kept for the process itself: the interpreter, the listening socket, the
#: event loop, SQLite, the helper process, the browser launcher.
RESERVED_FILES: Final = 64


def more_files(want: int = WANT_FILES) -> int:
    """Raise the soft limit of open descriptors towards ``want`` (within the hard limit;
    POSIX), so that the connections a page may hold (a browser keeps up to 256) never use
    up the descriptors SQLite needs; the soft limit now (512 where it cannot be read: Windows)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return 512
    return max(want, WANT_FILES) if soft == resource.RLIM_INFINITY else int(soft)  # unlimited: plenty


def limits(open_files: int) -> int:
    """uvicorn's ``limit_concurrency`` for a process allowed ``open_files`` descriptors:
    the connections (and requests) held at most, room kept for the process itself."""
    return max(16, min(MAX_CONNECTIONS, open_files - RESERVED_FILES))


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
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
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


#: uvicorn's logging, and storage failures (``errors.STORAGE_LOGGER``) one line each on
#: standard error beside its own: the player sees a 503, whoever runs the server sees why.
LOGGING: Final = {**LOGGING_CONFIG, "loggers": {
    **LOGGING_CONFIG["loggers"], STORAGE_LOGGER: {"handlers": ["default"], "level": "WARNING", "propagate": False}}}


def uvicorn_config(app: ASGIApp, open_files: int | None = None) -> uvicorn.Config:
    """The settings ``serve`` runs under (``bench/bare_server.py``'s baseline too);
    ``open_files``: the descriptors allowed (default: the soft limit now)."""
    if open_files is None:
        open_files = more_files(0)
    return uvicorn.Config(
        app, log_config=LOGGING, log_level="warning", access_log=False, lifespan="off",
        timeout_graceful_shutdown=STOP_GRACE, http="h11", limit_concurrency=limits(open_files), backlog=BACKLOG,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        proxy_headers=False,  # no proxy in front: X-Forwarded-* is a client's word, not trusted (issue 29.6)
    )


def sign_in_url(base: str, player: str, deal: int | None = None, variant: str | None = None,
                lang: str | None = None) -> str:
    """The address that signs the browser in as ``player``, opening the page on ``deal``
    and ``variant``, in ``lang`` (kept through the sign-in's redirect)."""
    query = {"player": player, "deal": deal, "variant": None if deal is None else variant, "lang": lang}
    return f"{base}?{urlencode({k: v for k, v in query.items() if v is not None})}"


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
    port. The sign-in's address is printed and opened, so that the browser shares the
    terminal's games and statistics (the store's local player). The status lines
    (``cli.play.*``) are worded by ``say(key, **params)``, English by default."""
    words: Callable[..., str] = say if say is not None else partial(t, "en")
    play = PlayService(store)
    player = play.local_player()
    app = create_app(play, bind_host=host, site_url=site_url)
    sock = _bind(host, port or 0)
    bound_port = sock.getsockname()[1]
    base = f"http://{_url_host(host)}:{bound_port}/"
    sign_in = sign_in_url(base, player, deal, variant, lang)

    def announce() -> None:
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

    server = _Server(uvicorn_config(app, more_files()), on_start=announce, on_stop=play.stop_searches)
    # A thread checking a restore (seconds of pure Python: every game replayed) hands the
    # interpreter over every millisecond instead of every 5: the event loop waits for it at
    # each step of a player's move (bench/heavy_bodies.py --real-games 1000: p50 44 → 21 ms).
    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        with _sigterm_stops():
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
        if server.started:
            server.announcer.join(timeout=1)
        sys.setswitchinterval(switch)
    echo(words("cli.play.stopped"))


class _Server(uvicorn.Server):
    """uvicorn's server, which calls ``on_start`` once it accepts connections (in a thread:
    opening a browser may take a while), and ``on_stop`` as soon as it begins to stop: the
    searches for deals that come out end at once (503 ``stopping``) instead of holding the
    graceful shutdown for seconds."""

    def __init__(self, config: uvicorn.Config, on_start: Callable[[], None], on_stop: Callable[[], None]) -> None:
        super().__init__(config)
        self.announcer = threading.Thread(target=on_start, name="firstlast-announce", daemon=True)
        self._on_stop = on_stop

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:  # else it could not start: nothing to announce
            self.announcer.start()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._on_stop()
        runtime.stop_apart(wait=False)
        await super().shutdown(sockets)


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
