"""``firstlast tui``: play in the terminal (Textual), saving to the shared game store."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.core import ParameterSource

from ..engine import Variant
from .options import DEAL, FilePath, make_variant, variant_options


def has_terminal() -> bool:
    """Keys come from standard input: without a terminal there, the game would wait for
    them forever."""
    return sys.stdin is not None and sys.stdin.isatty()


def _variant_given(ctx: click.Context) -> bool:
    return any(
        ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
        for name in ("redeals", "waste_playable", "no_privilege")
    )


@click.command()
@click.argument("deal", type=DEAL, required=False)
@variant_options
@click.option("--db", type=FilePath(),
              help="Game database (default: the shared one in your data folder).")
@click.option("--resume", is_flag=True,
              help="Resume the latest unfinished game (of DEAL, if given) instead of starting one.")
@click.option("--no-chance", is_flag=True, help="Do not show the live chance-to-come-out figure.")
@click.pass_context
def tui(ctx: click.Context, deal: int | None, redeals: int | None, waste_playable: bool, no_privilege: bool,
        db: Path | None, resume: bool, no_chance: bool) -> None:
    """Play First and Last in the terminal.

    With DEAL, start that deal; with no DEAL, resume your latest unfinished game, or
    start a random deal. Every move is saved at once, in the same database as the
    browser game. The variant flags apply to the games started here; without them,
    new games use the variant last chosen with the v key.
    """
    # Textual is imported here so the other commands start fast.
    from ..store import GameStore, StoreError
    from ..tui import FirstLastApp

    if not has_terminal():
        raise click.ClickException("the terminal game needs a terminal: standard input is not one")
    variant: Variant | None = make_variant(redeals, waste_playable, no_privilege) if _variant_given(ctx) else None
    try:
        store = GameStore(db)
        app = FirstLastApp(store, deal=deal, variant=variant, resume=resume, chance=not no_chance)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    except LookupError as e:
        raise click.ClickException(str(e).strip("'\"")) from None
    app.run()
