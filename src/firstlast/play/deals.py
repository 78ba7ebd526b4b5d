"""Choosing deals: the one deal-number syntax, random, next, daily and winnable deals.

Every face and the command line read deal numbers with ``parse_deal``: ASCII digits
only (no signs, separators or other scripts' digits), 0…2^64−1 (docs/rules.md §4).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Sequence
from typing import Final

from ..engine import MAX_DEAL, Variant, play_out
from .errors import PlayError

#: Longest text that can be a deal number (2^64−1 has 20 digits); checked before
#: ``int()``, so that 5,000 digits cost nothing.
MAX_DEAL_DIGITS: Final = 20
#: A winnable deal is looked for among this many random deals at most.
WINNABLE_TRIES: Final = 5_000
#: Candidates played out per chunk of the search (about 0.1–0.6 s in pure Python): a
#: search is a series of such chunks, so that searches of several players take turns
#: and a stopping server waits for one chunk at most (``PlayService``).
WINNABLE_CHUNK: Final = 250


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


def first_winnable(candidates: Sequence[int], variant: Variant) -> int | None:
    """The first of ``candidates`` whose forced line comes out under ``variant``, if
    any: one chunk of the search, pure (the draws are made by the caller), so that it
    can run in another process or worker. The fast forced line plays them where it runs
    (the same results, proven by tests/odds), else the engine."""
    from ..odds import fastline

    if fastline.available():
        won = fastline.play_deals(candidates, variant, parallel=False).won
        return candidates[won.index(1)] if 1 in won else None
    for deal in candidates:
        if play_out(deal, variant).won:
            return deal
    return None


#: Runs one chunk of the search: ``first_winnable`` or a call of it elsewhere.
Search = Callable[[list[int], Variant], int | None]


def winnable_deal(variant: Variant, draw: Callable[[], int] = random_deal, tries: int = WINNABLE_TRIES,
                  search: Search = first_winnable) -> int:
    """A random deal whose forced line comes out under ``variant`` (play is forced, so
    the deal and its redeal shuffles decide it: such a deal always comes out). The
    chance is drawn here (``draw``); ``search`` plays the candidates out, a chunk of
    ``WINNABLE_CHUNK`` at a time."""
    left = tries
    while left > 0:
        size = min(WINNABLE_CHUNK, left)
        found = search([draw() for _ in range(size)], variant)
        if found is not None:
            return found
        left -= size
    raise PlayError("winnable.none", variant=variant.token, tries=tries)
