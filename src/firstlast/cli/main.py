"""Entry point: ``firstlast <command>``. Errors print one line, never a traceback."""

from __future__ import annotations

import sys

import click

from .. import __version__
from ..engine import MAX_DEAL, FirstLastError
from ..engine.cards import clip
from .engine_commands import autoplay, deal, replay
from .options import DealNumber, DealRange


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="firstlast")
def cli() -> None:
    """First and Last (Первые и последние), the Russian patience."""


cli.add_command(deal)
cli.add_command(autoplay)
cli.add_command(replay)
# Each face of the game registers its commands below, one import each.
from .odds_commands import odds  # noqa: E402, I001
cli.add_command(odds)
from .tui_commands import tui  # noqa: E402, I001
cli.add_command(tui)
from .web_commands import play  # noqa: E402, I001
cli.add_command(play)


def main(argv: list[str] | None = None) -> int:
    try:
        cli.main(args=argv, prog_name="firstlast", standalone_mode=False)
    except click.NoSuchOption as e:
        takes_deal = e.ctx is not None and any(
            isinstance(p, click.Argument) and isinstance(p.type, DealNumber | DealRange) for p in e.ctx.command.params)
        if takes_deal and e.option_name[1:2].isdigit():
            # '-1' given for a deal: click reads it as an option, and "No such option '-1'"
            # does not tell the user what is wrong.
            click.echo(f"firstlast: error: {clip(e.option_name, 24)}: a deal number cannot be negative "
                       f"(0…{MAX_DEAL})", err=True)
        else:
            click.echo(f"firstlast: error: {e.format_message()}", err=True)
        return e.exit_code
    except click.exceptions.Abort:
        click.echo("firstlast: aborted", err=True)
        return 130
    except click.ClickException as e:
        click.echo(f"firstlast: error: {e.format_message()}", err=True)
        return e.exit_code if e.exit_code else 1
    except FirstLastError as e:
        click.echo(f"firstlast: error: {e}", err=True)
        return 1
    except KeyboardInterrupt:
        click.echo("firstlast: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
