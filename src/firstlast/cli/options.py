"""Shared command-line option types and the variant flags (V1–V3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..engine import MAX_DEAL, Variant, parse_redeals
from ..engine.cards import is_number

F = TypeVar("F", bound=Callable[..., Any])


class DealNumber(click.ParamType):
    """A deal number 0 … 2^64−1."""

    name = "DEAL"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            n = value
        else:
            text = str(value).strip().replace("_", "")
            if not is_number(text):
                self.fail(f"deal number must be a whole number 0…{MAX_DEAL}, not {value!r}", param, ctx)
            n = int(text)
        if not 0 <= n <= MAX_DEAL:
            self.fail(f"deal number must be 0…{MAX_DEAL}, not {n}", param, ctx)
        return n


class DealRange(click.ParamType):
    """``N`` (one deal) or ``A..B`` (the half-open range [A, B))."""

    name = "DEAL|A..B"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> range:
        text = str(value).strip()
        if ".." not in text:
            n = DealNumber().convert(text, param, ctx)
            return range(n, n + 1)
        a_text, _, b_text = text.partition("..")
        a = DealNumber().convert(a_text, param, ctx)
        if not is_number(b_text.strip().replace("_", "")):
            self.fail(f"range end must be a whole number, not {b_text!r}", param, ctx)
        b = int(b_text.strip().replace("_", ""))
        if b > MAX_DEAL + 1:
            self.fail(f"range end must be at most {MAX_DEAL + 1}", param, ctx)
        if b <= a:
            self.fail(f"empty range {a}..{b}: the end must be greater than the start (half-open [A, B))", param, ctx)
        return range(a, b)


class Redeals(click.ParamType):
    name = "N|unlimited"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | None:
        if value is None or isinstance(value, int):
            return value  # type: ignore[no-any-return]
        if any(ch.isdigit() and not ch.isascii() for ch in str(value)):  # int() would read '５' as 5
            self.fail(f"redeals must be a whole number ≥ 0 (digits 0-9) or 'unlimited', not {value!r}", param, ctx)
        try:
            return parse_redeals(str(value))
        except ValueError as e:
            self.fail(str(e), param, ctx)


class WholeNumber(click.IntRange):
    """A whole number in ASCII digits, optionally bounded. Plain ``int()`` (and so
    ``click.INT``) also reads '５' or '٣', which no user means as a count."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not a whole number (digits 0-9)", param, ctx)
        return super().convert(value, param, ctx)


class FilePath(click.Path):
    """A file: not a folder, and not empty (``Path('')`` is the current folder,
    which would make writers fail late or write a hidden ``.png``)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and (not value.strip() or value.endswith(("/", "\\"))):
            self.fail(f"{value!r} is not a file name", param, ctx)
        return super().convert(value, param, ctx)


DEAL = DealNumber()
DEAL_RANGE = DealRange()
REDEALS = Redeals()


def variant_options(func: F) -> F:
    """Add ``--redeals``, ``--waste-playable`` and ``--no-privilege``; the command
    receives one ``variant: Variant`` argument instead."""

    def build(ctx: click.Context, _param: click.Parameter, _value: Any) -> None:
        pass

    func = click.option(
        "--no-privilege", "no_privilege", is_flag=True,
        help="V3: the last first-row card is not privileged (R8 off).",
    )(func)
    func = click.option(
        "--waste-playable", is_flag=True, help="V2: the waste's top card may be played.",
    )(func)
    func = click.option(
        "--redeals", type=REDEALS, default="3", show_default=True,
        help="V1: number of redeals, or 'unlimited'.",
    )(func)
    return func


def make_variant(redeals: int | None, waste_playable: bool, no_privilege: bool) -> Variant:
    return Variant(redeals=redeals, waste_playable=waste_playable, privileged_last=not no_privilege)
