"""``firstlast play``: the browser game on a local server."""

from __future__ import annotations

from pathlib import Path

import click

from ..store import GameStore, default_db_path


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0 picks a free one.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback exposes your games to the network.")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Game database (default: the one the terminal game uses).")
@click.option("--no-browser", is_flag=True, help="Do not open a browser; just print the address.")
def play(port: int, host: str, db: Path | None, no_browser: bool) -> None:
    """Play in the browser: serve the game locally and open it. Ctrl-C stops."""
    from ..web.server import serve  # uvicorn and starlette load only for this command

    store = GameStore(db if db is not None else default_db_path())
    try:
        serve(store, host=host, port=port, open_browser=not no_browser, echo=click.echo)
    except OSError as e:
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
