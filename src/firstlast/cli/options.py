"""Shared command-line option types and the variant flags (V1–V3)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from .. import i18n
from ..engine import MAX_DEAL, Variant
from ..engine.cards import clip
from ..play import PlayError, parse_deal
from ..play.settings import parse_redeals
from .lang import IntRange, current_lang, msg, option

F = TypeVar("F", bound=Callable[..., Any])
#: Digits a numeric option may have: every count and seed here fits in 20.
MAX_OPTION_DIGITS = 40


class DealNumber(click.ParamType[int]):
    """A deal number 0 … 2^64−1, read by the one deal-number parser (``play.parse_deal``)."""

    name = "DEAL"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            return parse_deal(value if isinstance(value, int) else str(value))
        except PlayError as e:
            self.fail(play_error_text(e), param, ctx)


class DealRange(click.ParamType[range]):
    """``N`` (one deal) or ``A..B`` (the half-open range [A, B))."""

    name = "DEAL|A..B"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> range:
        if isinstance(value, range):
            return value
        text = str(value)
        if ".." not in text:
            n = DealNumber().convert(text, param, ctx)
            return range(n, n + 1)
        a_text, _, b_text = text.partition("..")
        a = DealNumber().convert(a_text, param, ctx)
        # The end may be 2^64 itself (half-open): read it as a deal number, then allow one more.
        if b_text == str(MAX_DEAL + 1):
            b = MAX_DEAL + 1
        else:
            b = DealNumber().convert(b_text, param, ctx)
        if b <= a:
            self.fail(msg("cli.empty_range", a=a, b=b), param, ctx)
        return range(a, b)


class Redeals(click.ParamType[int | None]):
    name = "N|unlimited"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | None:
        if value is None or isinstance(value, int):
            return value
        try:
            return parse_redeals(str(value))
        except PlayError as e:
            self.fail(play_error_text(e), param, ctx)


class WholeNumber(IntRange):
    """A whole number in ASCII digits, optionally bounded. Plain ``int()`` (and so
    ``click.INT``) also reads '５' or '٣', which no user means as a count."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(msg("cli.not_whole", value=repr(clip(value))), param, ctx)
        if isinstance(value, str) and len(value.strip().lstrip("+-").lstrip("0")) > MAX_OPTION_DIGITS:
            # Checked before int(): the message would repeat all 5,000 digits otherwise.
            text = value.strip()
            self.fail(msg("cli.too_large", head=text[:20], n=f"{len(text):,}"), param, ctx)
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


def play_error_text(e: PlayError) -> str:
    """A play-layer refusal of a command-line value in the current language, by the one
    renderer of refusals (``i18n.error_text``)."""
    return i18n.error_text(e.code, e.params, current_lang())


DEAL = DealNumber()
DEAL_RANGE = DealRange()
REDEALS = Redeals()


def variant_options(func: F) -> F:
    """Add ``--redeals``, ``--waste-playable`` and ``--no-privilege``; the command
    receives one ``variant: Variant`` argument instead."""

    func = option("--no-privilege", "no_privilege", is_flag=True, help_key="cli.help.no_privilege")(func)
    func = option("--waste-playable", is_flag=True, help_key="cli.help.waste_playable")(func)
    func = option("--redeals", type=REDEALS, default="3", show_default=True, help_key="cli.help.redeals")(func)
    return func


def make_variant(redeals: int | None, waste_playable: bool, no_privilege: bool) -> Variant:
    return Variant(redeals=redeals, waste_playable=waste_playable, privileged_last=not no_privilege)
