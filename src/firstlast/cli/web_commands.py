"""``firstlast play``: the browser game on a local server."""

from __future__ import annotations

import contextlib
import os
import sys
from functools import partial
from pathlib import Path
from typing import Any

import click

from ..engine import MAX_DEAL
from ..i18n import t
from .lang import asked_lang, command, current_lang, msg, option, os_error_text
from .options import DEAL, VARIANT, WholeNumber, db_option, face_store


def _echo(message: str) -> None:
    """Print a status line; a reader that has gone away (``firstlast play | head``, or a
    pipe closed by the same Ctrl-C) is no reason for the server to fail."""
    try:
        click.echo(message)
    except OSError:
        # Later lines, and Python's own flush at exit, go nowhere instead of failing again.
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)


class SiteUrl(click.ParamType[str]):
    """The address of the player's static site online (``https://host/path/``)."""

    name = "URL"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from urllib.parse import urlsplit

        text = str(value).strip()
        try:
            parts = urlsplit(text)
            ok = parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query \
                and not parts.fragment and len(text) <= 2000
        except ValueError:
            ok = False
        if not ok:
            self.fail(msg("cli.play.bad_site_url", value=repr(text[:80])), param, ctx)
        return text if text.endswith("/") else text + "/"


@command("cli.play.help")
@option("--port", type=WholeNumber(0, 65535), default=0, show_default=True, help_key="cli.play.help.port")
@option("--host", default="127.0.0.1", show_default=True, help_key="cli.play.help.host")
@db_option
@option("--no-browser", is_flag=True, help_key="cli.play.help.no_browser")
@option("--deal", type=DEAL, default=None, help_key="cli.play.help.deal", help_params={"max": MAX_DEAL})
@option("--variant", type=VARIANT, default=None, help_key="cli.play.help.variant")
@option("--site-url", "site_url", type=SiteUrl(), default=None, envvar="FIRSTLAST_SITE_URL",
        help_key="cli.play.help.site_url")
def play(port: int, host: str, db: Path | None, no_browser: bool, deal: int | None, variant: str | None,
         site_url: str | None) -> None:
    """Play in the browser: serve the game locally and open it. Ctrl-C stops."""
    from ..web.server import serve  # uvicorn and starlette load only for this command

    if not host.strip():  # '' would listen on every interface, the opposite of the default
        raise click.UsageError(msg("cli.play.no_host"))
    if variant is not None and deal is None:
        raise click.UsageError(msg("cli.play.no_deal_for_variant"))
    try:
        # The language is bound here: the server announces itself from another thread,
        # which does not see this one's --lang.
        with face_store(db) as store:
            serve(store, host=host, port=port, open_browser=not no_browser, echo=_echo,
                  say=partial(t, current_lang()), deal=deal, variant=variant, site_url=site_url, lang=asked_lang())
    except OSError as e:
        error = os_error_text(e)
        raise click.ClickException(msg("cli.play.cannot_listen", host=host, port=port, error=error)) from None
