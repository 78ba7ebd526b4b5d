"""Shared command-line option types and the variant flags (V1–V3)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from ..engine import MAX_DEAL, Variant
from ..engine.cards import clip
from ..i18n import number
from ..play import GameStore, PlayError, StoreError, parse_deal, parse_variant
from ..play.settings import parse_redeals
from .lang import current_lang, msg, option

T = TypeVar("T")

#: Digits a numeric option may have: every count and seed here fits in 20.
MAX_OPTION_DIGITS = 40


class PlayValue(click.ParamType[T]):
    """A value read by one of the play layer's parsers (``name``: how help names it),
    refused in its words (``PlayError.text``), so that every face reads it alike."""

    def __init__(self, name: str, parse: Callable[[str], T]) -> None:
        self.name = name
        self.parse = parse

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> T:
        try:
            return self.parse(str(value))
        except PlayError as e:
            self.fail(e.text(current_lang()), param, ctx)


#: A deal number 0 … 2^64−1 (``play.parse_deal``).
DEAL = PlayValue("DEAL", parse_deal)
#: Redeals (V1): a count or 'unlimited' (``play.settings.parse_redeals``).
REDEALS = PlayValue("N|unlimited", parse_redeals)
#: A variant token (``r3``, ``ru``, ``r0w``, ``r3wn``), in its canonical spelling.
VARIANT = PlayValue("TOKEN", lambda text: parse_variant(text).token)


class DealRange(click.ParamType[range]):
    """``N`` (one deal) or ``A..B`` (the half-open range [A, B))."""

    name = "DEAL|A..B"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> range:
        if isinstance(value, range):
            return value
        a_text, dots, b_text = str(value).partition("..")
        a = DEAL.convert(a_text, param, ctx)
        if not dots:
            return range(a, a + 1)
        # The end may be 2^64 itself (half-open): read it as a deal number, then allow one more.
        b = MAX_DEAL + 1 if b_text == str(MAX_DEAL + 1) else DEAL.convert(b_text, param, ctx)
        if b <= a:
            self.fail(msg("cli.empty_range", a=a, b=b), param, ctx)
        return range(a, b)


class WholeNumber(click.IntRange):
    """A whole number in ASCII digits, optionally bounded (closed bounds, the only ones
    here), refused in the current language (``cli.range.*``: the bounds as parameters).
    Plain ``int()`` (and so ``click.INT``) also reads '５' or '٣', which no user means as
    a count."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(msg("cli.not_whole", value=repr(clip(value))), param, ctx)
        if isinstance(value, str) and len(value.strip().lstrip("+-").lstrip("0")) > MAX_OPTION_DIGITS:
            # Checked before int(): the message would repeat all 5,000 digits otherwise.
            text = value.strip()
            self.fail(msg("cli.too_large", head=text[:20], n=number(len(text), current_lang())), param, ctx)
        if not self.clamp:
            rv = click.INT.convert(value, param, ctx)
            if (self.min is not None and rv < self.min) or (self.max is not None and rv > self.max):
                key = "both" if None not in (self.min, self.max) else "at_most" if self.min is None else "at_least"
                self.fail(msg(f"cli.range.{key}", value=rv, min=self.min, max=self.max), param, ctx)
        return super().convert(value, param, ctx)


class FilePath(click.Path):
    """A file: not a folder, and not empty (``Path('')`` is the current folder,
    which would make writers fail late or write a hidden ``.png``)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and (not value.strip() or value.endswith(("/", "\\"))):
            self.fail(msg("cli.not_file", value=repr(value)), param, ctx)
        if isinstance(value, str) and os.path.isdir(value):  # click.Path's own words are English only
            self.fail(msg("cli.is_folder", value=repr(value)), param, ctx)
        return super().convert(value, param, ctx)


def open_store(db: Path | None) -> GameStore:
    """The game store at ``db`` (``None``: the player's own), or a one-line error."""
    try:
        return GameStore(db)
    except StoreError as e:
        raise click.ClickException(str(e)) from None


@contextmanager
def face_store(db: Path | None) -> Iterator[GameStore]:
    """The store a face plays on (``open_store``), a read-only one said so on stderr before
    the face opens (issue 29.5). A store that cannot take the face's first writes (signing
    the local player in, maybe dealing) is said in one line, not a traceback."""
    store = open_store(db)
    if store.read_only:
        click.echo(msg("cli.play.read_only", path=store.path), err=True)
    try:
        yield store
    except StoreError as e:
        raise click.ClickException(msg("cli.play.store_broken", path=store.path, error=e)) from None
    except PlayError as e:
        if e.code != "storage":
            raise
        raise click.ClickException(msg("cli.play.store_broken", path=store.path, error=e.params["reason"])) from None


@contextmanager
def progress_bar(label: str, total: int, show: bool = True) -> Iterator[tuple[Progress, TaskID]]:
    """A progress bar on stderr, gone when done; drawn only when ``show`` and stderr is
    a terminal."""
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True, disable=not (show and console.is_terminal)) as bar:
        yield bar, bar.add_task(label, total=total)


DEAL_RANGE = DealRange()
#: ``--db``: the game store (``None``: the player's own, which every command shares).
db_option = option("--db", type=FilePath(), default=None, help_key="cli.help.db")


def variant_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--redeals``, ``--waste-playable`` and ``--no-privilege`` (V1–V3); the command
    receives one ``variant`` argument instead: ``None`` when none of them was given, so a
    command can tell "no rules asked for" from the canonical rules asked for."""

    @functools.wraps(func)
    def with_variant(*args: Any, redeals: int | None, waste_playable: bool, no_privilege: bool,
                     **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        given = any(ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
                    for name in ("redeals", "waste_playable", "no_privilege"))
        variant = Variant(redeals, waste_playable, not no_privilege) if given else None
        return func(*args, variant=variant, **kwargs)

    command = option("--no-privilege", "no_privilege", is_flag=True, help_key="cli.help.no_privilege")(with_variant)
    command = option("--waste-playable", is_flag=True, help_key="cli.help.waste_playable")(command)
    return option("--redeals", type=REDEALS, default="3", show_default=True, help_key="cli.help.redeals")(command)
