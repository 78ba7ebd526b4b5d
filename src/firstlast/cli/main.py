"""Entry point: ``firstlast <command>``. Errors print one line, never a traceback, in the
language of ``cli.lang`` (click's own usage errors too: ``lang.CLICK_WORDS``)."""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..engine import MAX_DEAL, FirstLastError
from ..engine.cards import clip
from .backup_commands import export, import_
from .engine_commands import autoplay, deal, replay
from .lang import CatalogGroup, CatalogOption, install_click_words, msg, set_lang
from .odds_commands import odds
from .options import DEAL, DEAL_RANGE
from .site_commands import site
from .tui_commands import tui
from .web_commands import play

install_click_words()


@click.group(cls=CatalogGroup, help_key="cli.help.group", invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]},
             commands=[deal, autoplay, replay, odds, tui, play, export, import_, site])  # each face's commands
@click.version_option(__version__, prog_name="firstlast", cls=CatalogOption, help_key="cli.help.version")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """First and Last (Первые и последние), the Russian patience."""
    if ctx.invoked_subcommand is None:
        # `firstlast` alone (`pipx run firstlast`, `uvx firstlast`) plays: the browser game.
        ctx.invoke(play)


def usage_message(e: click.ClickException) -> str:
    """The text of a click error, click's words in the current language
    (``lang.CLICK_WORDS``), but for an unknown option: one that looks like a negative
    deal number is said to be one, and a long one is named cut short."""
    if not isinstance(e, click.NoSuchOption):
        return e.format_message()
    takes_deal = e.ctx is not None and any(
        isinstance(p, click.Argument) and p.type in (DEAL, DEAL_RANGE) for p in e.ctx.command.params)
    if takes_deal and e.option_name[1:2].isdigit():
        # '-1' given for a deal: click reads it as an option, and "No such option '-1'"
        # does not tell the user what is wrong.
        return msg("cli.negative_deal", option=clip(e.option_name, 24), max=MAX_DEAL)
    # Named cut short: click names it in full, and 5,000 characters of it would fill the screen.
    said = msg("cli.no_such_option", option=repr(clip(e.option_name, 40)))
    return click.NoSuchOption(e.option_name, said, e.possibilities, e.ctx).format_message()


def main(argv: list[str] | None = None) -> int:
    set_lang(None)  # each call reads --lang afresh (tests call main() many times)
    try:
        cli.main(args=argv, prog_name="firstlast", standalone_mode=False)
    except click.exceptions.Abort:  # Ctrl-C: click makes it an Abort
        click.echo(msg("cli.aborted"), err=True)
        return 130
    except click.ClickException as e:
        click.echo(msg("cli.error", message=usage_message(e)), err=True)
        return e.exit_code if e.exit_code else 1
    except FirstLastError as e:
        click.echo(msg("cli.error", message=str(e)), err=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
