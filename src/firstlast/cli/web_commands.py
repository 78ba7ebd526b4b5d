"""``firstlast play``: the browser game on a local server."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import click

from ..play import PlayError, parse_variant
from ..store import GameStore, StoreError, default_db_path
from .options import DealNumber, FilePath, WholeNumber


def _echo(message: str) -> None:
    """Print a status line; a reader that has gone away (``firstlast play | head``, or a
    pipe closed by the same Ctrl-C) is no reason for the server to fail."""
    try:
        click.echo(message)
    except OSError:
        # Later lines, and Python's own flush at exit, go nowhere instead of failing again.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass


class VariantToken(click.ParamType[str]):
    """A variant token (``r3``, ``ru``, ``r0w``, ``r3wn``), read by the play layer's
    parser (``play.parse_variant``); its canonical spelling."""

    name = "TOKEN"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            return parse_variant(str(value)).token
        except PlayError as e:
            self.fail(e.message, param, ctx)


@click.command()
@click.option("--port", type=WholeNumber(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0 picks a free one.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback exposes your games to the network.")
@click.option("--db", "db", type=FilePath(), default=None,
              help="Game database (default: the one the terminal game uses).")
@click.option("--no-browser", is_flag=True, help="Do not open a browser; just print the address.")
@click.option("--deal", type=DealNumber(), default=None,
              help="Open the page on this deal (0 … 18446744073709551615).")
@click.option("--variant", type=VariantToken(), default=None,
              help="With --deal: the rules to play it under, as a token (r3, ru, r0w, r3wn).")
def play(port: int, host: str, db: Path | None, no_browser: bool, deal: int | None, variant: str | None) -> None:
    """Play in the browser: serve the game locally and open it. Ctrl-C stops."""
    from ..web.server import serve  # uvicorn and starlette load only for this command

    if not host.strip():  # '' would listen on every interface, the opposite of the default
        raise click.UsageError("--host needs an address, e.g. 127.0.0.1")
    if variant is not None and deal is None:
        raise click.UsageError("--variant needs --deal (the deal to play under it)")
    try:
        store = GameStore(db if db is not None else default_db_path())
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    if store.read_only:
        click.echo(f"Warning: {store.path} is read-only: games can be viewed, but no move, new game or setting"
                   " can be saved.", err=True)
    try:
        serve(store, host=host, port=port, open_browser=not no_browser, echo=_echo, deal=deal, variant=variant)
    except (StoreError, sqlite3.Error) as e:
        # Before it listens, the server signs in the local player (a write the first time).
        raise click.ClickException(f"{store.path}: the game store cannot be used: {e}") from None
    except OSError as e:
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
