"""Choosing deals: the one deal-number syntax, random, next, daily and winnable deals.

Every face and the command line read deal numbers with ``parse_deal``: ASCII digits
only (no signs, separators or other scripts' digits), 0…2^64−1 (docs/rules.md §4).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from typing import Final

from ..engine import MAX_DEAL, Variant, play_out
from .errors import PlayError

#: Longest text that can be a deal number (2^64−1 has 20 digits); checked before
#: ``int()``, so that 5,000 digits cost nothing.
MAX_DEAL_DIGITS: Final = 20
#: A winnable deal is looked for among this many random deals at most.
WINNABLE_TRIES: Final = 5_000


def parse_deal(value: object) -> int:
    """A deal number from text of ASCII digits (``"42"``) or an ``int``."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PlayError("deal.invalid", max=MAX_DEAL, text=str(value)[:40])
    if isinstance(value, str):
        text = value
        if not text or len(text) > MAX_DEAL_DIGITS or not (text.isascii() and text.isdigit()):
            if text.isascii() and text.isdigit():
                raise PlayError("deal.range", max=MAX_DEAL)
            raise PlayError("deal.invalid", max=MAX_DEAL, text=value[:40])
        value = int(text)
    if not 0 <= value <= MAX_DEAL:
        raise PlayError("deal.range", max=MAX_DEAL)
    return value


def random_deal() -> int:
    """Any deal, 0…2^64−1, uniformly (the one range everywhere)."""
    return secrets.randbelow(MAX_DEAL + 1)


def next_deal(deal: int) -> int:
    """The deal after ``deal``; the last deal number wraps round to 0."""
    return 0 if deal >= MAX_DEAL else deal + 1


def daily_deal(date: dt.date | None = None) -> int:
    """The deal of the day: the date written as the number YYYYMMDD (30 November 2026
    is deal 20261130), so everyone gets the same deal on the same calendar date and can
    type it back. ``date`` defaults to today's local date."""
    d = date or dt.date.today()
    return d.year * 10_000 + d.month * 100 + d.day


def winnable_deal(variant: Variant, draw: Callable[[], int] = random_deal, tries: int = WINNABLE_TRIES) -> int:
    """A random deal whose forced line comes out under ``variant`` (play is forced, so
    the deal and its redeal shuffles decide it: such a deal always comes out)."""
    for _ in range(tries):
        deal = draw()
        if play_out(deal, variant).won:
            return deal
    raise PlayError("winnable.none", variant=variant.token, tries=tries)
