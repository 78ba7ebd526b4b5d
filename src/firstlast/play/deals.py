"""Choosing deals: the one deal-number syntax, random, next, daily and winnable deals.

Every face and the command line read deal numbers with ``parse_deal``: ASCII digits
only (no signs, separators or other scripts' digits), 0…2^64−1 (docs/rules.md §4).
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

from ..engine import MAX_DEAL, Variant, play_out
from .errors import PlayError

#: Longest text that can be a deal number (2^64−1 has 20 digits); checked before
#: ``int()``, so that 5,000 digits cost nothing.
MAX_DEAL_DIGITS: Final = 20
#: A winnable deal is looked for among this many random deals at most, played out by
#: the engine (no fast forced line), ``WINNABLE_CHUNK`` per chunk (about 0.1–0.6 s in
#: pure Python): a search is a series of chunks, so that searches of several players
#: take turns and a stopping server waits for one chunk at most (``PlayService``).
WINNABLE_TRIES: Final = 5_000
WINNABLE_CHUNK: Final = 250
#: The same with the fast forced line (``odds.fastline``, about a million deals a second
#: natively): enough that even the rarest variant (r0n, about 4 deals in a million)
#: finds one (none in two million: e^−8, about 3 in 10,000 searches), in about 2 s at
#: most; chunks of about 20 ms.
FAST_WINNABLE_TRIES: Final = 2_000_000
FAST_WINNABLE_CHUNK: Final = 20_000


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


def search_size() -> tuple[int, int]:
    """How many candidates a search for a deal that comes out plays at most, and per
    chunk: more where the fast forced line runs (its chunks run where ``first_winnable``
    runs, which finds the same line there)."""
    from ..odds import fastline

    return (FAST_WINNABLE_TRIES, FAST_WINNABLE_CHUNK) if fastline.available() else (WINNABLE_TRIES, WINNABLE_CHUNK)


def winnable_deal(variant: Variant, draw: Callable[[], int] | None = None, tries: int | None = None,
                  search: Search = first_winnable, chunk: int | None = None) -> int:
    """A random deal whose forced line comes out under ``variant`` (play is forced, so
    the deal and its redeal shuffles decide it: such a deal always comes out). The
    chance is drawn here (``draw``: by default a generator seeded from the system's
    randomness, so that a million draws cost a fraction of a second); ``search`` plays
    the candidates out, ``chunk`` at a time (``tries``, ``chunk``: ``search_size()``)."""
    if tries is None or chunk is None:
        default_tries, default_chunk = search_size()
        tries = default_tries if tries is None else tries
        chunk = default_chunk if chunk is None else chunk
    if draw is None:
        rng = random.Random(secrets.randbits(64))
        draw = partial(rng.getrandbits, 64)  # 0…2^64−1: every deal number (§4)
    left = tries
    while left > 0:
        size = min(chunk, left)
        found = search([draw() for _ in range(size)], variant)
        if found is not None:
            return found
        left -= size
    raise PlayError("winnable.none", variant=variant.token, tries=tries)
