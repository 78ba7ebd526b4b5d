"""``firstlast site build DIR``: the static site (docs/site.md)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import click

from .lang import CatalogGroup, command, msg, option, os_error_text

#: A folder (made if missing), checked by the command itself (in the player's language).
Folder = click.Path()


@command("cli.site.build.help")
@click.argument("dest_text", metavar="DIR", type=Folder)
@option("--cache", "cache_text", type=Folder, default=None, help_key="cli.site.build.help.cache")
@option("--quiet", "-q", is_flag=True, help_key="cli.site.build.help.quiet")
def build(dest_text: str, cache_text: str | None, quiet: bool) -> None:
    """Write the static site into DIR."""
    for text in (dest_text, cache_text):
        # '' would be the current folder; a file cannot hold a site.
        if text is not None and (not text.strip() or Path(text).is_file()):
            raise click.UsageError(msg("cli.site.not_folder", value=repr(text)))
    dest, cache = Path(dest_text), Path(cache_text) if cache_text is not None else None
    from ..site.build import SiteBuildError, build_site

    try:
        made = build_site(dest, cache=cache, say=(lambda _: None) if quiet else partial(click.echo, err=True))
    except SiteBuildError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(msg("cli.site.build.cannot_write", path=dest, error=os_error_text(e))) from None
    files = made["files"]
    assert isinstance(files, list)
    size = sum(int(f["size"]) for f in files)
    click.echo(msg("cli.site.build.done", path=dest, version=made["version"], files=len(files),
                   mb=f"{size / 1e6:.1f}"))


@click.group(cls=CatalogGroup, help_key="cli.site.help", commands=[build])
def site() -> None:
    """The static site: the table at one link, offline, with no server."""
