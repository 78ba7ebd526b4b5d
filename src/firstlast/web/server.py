"""Serve the browser game with uvicorn: ``firstlast play`` and the latency bench use this.

The listening socket is bound here, before uvicorn starts, so that port 0 ("any free
port") is resolved to a real port that can be printed and opened without a race.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable

import uvicorn

from ..store import GameStore
from .app import create_app


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


def serve(
    store: GameStore,
    *,
    host: str = "127.0.0.1",
    port: int | None = 0,
    open_browser: bool = True,
    echo: Callable[[str], None] = print,
) -> None:
    """Serve until Ctrl-C (SIGINT) or SIGTERM, then return. ``port`` 0 or ``None``: a free
    port. The browser, if opened, is signed in as the store's local player, so that it
    shares games and statistics with the terminal game."""
    player = store.local_player()
    app = create_app(store, local_player=player)
    sock = _bind(host, port or 0)
    bound_port = sock.getsockname()[1]
    base = f"http://{_url_host(host)}:{bound_port}/"
    sign_in = f"{base}?player={player}"
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)

    def announce() -> None:
        # Only once uvicorn accepts connections, so that the browser never finds it closed.
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        if not server.started:
            return
        echo(f"First and Last is served at {base}")
        echo(f"Your games (shared with the terminal game): {sign_in}")
        if not is_loopback(host):
            echo(f"Warning: listening on {host}, reachable from other machines.")
        if open_browser:
            opened = False
            if graphical_browser_likely():
                with contextlib.suppress(Exception):  # no browser is not an error: the URL is printed
                    opened = webbrowser.open(sign_in)
            if not opened:
                echo("No browser could be opened: open the second address above in one.")
        echo("Press Ctrl-C to stop.")
        with contextlib.suppress(Exception):
            sys.stdout.flush()

    watcher = threading.Thread(target=announce, name="firstlast-announce", daemon=True)
    watcher.start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn shuts down gracefully on SIGINT, then re-raises the signal: that is the
        # normal way to stop, not an error.
        pass
    finally:
        sock.close()
        watcher.join(timeout=1)
    echo("Stopped.")
