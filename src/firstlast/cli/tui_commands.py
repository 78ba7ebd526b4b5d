"""``firstlast tui``: play in the terminal (Textual), saving to the shared game store."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..engine import Variant
from .lang import asked_lang, command, lang_from_env, msg, option
from .options import DEAL, db_option, face_store, variant_options


def has_terminal() -> bool:
    """Keys come from standard input: without a terminal there, the game would wait for
    them forever."""
    return sys.stdin is not None and sys.stdin.isatty()


@command("cli.tui.help")
@click.argument("deal", type=DEAL, required=False)
@variant_options
@db_option
@option("--resume", is_flag=True, help_key="cli.tui.help.resume")
@option("--no-chance", is_flag=True, help_key="cli.tui.help.no_chance")
def tui(deal: int | None, variant: Variant | None, db: Path | None, resume: bool, no_chance: bool) -> None:
    """Play First and Last in the terminal (help: the catalog's ``cli.tui.help``)."""
    # Textual is imported here so the other commands start fast.
    from ..tui import FirstLastApp

    if not has_terminal():
        raise click.ClickException(msg("cli.tui.no_terminal"))
    try:
        # The language: tui.app.starting_lang's choice.
        with face_store(db) as store:
            app = FirstLastApp(store, deal=deal, variant=variant, resume=resume, chance=not no_chance,
                               lang=asked_lang(), system_lang=lang_from_env())
    except LookupError as e:
        raise click.ClickException(str(e).strip("'\"")) from None
    app.run()
