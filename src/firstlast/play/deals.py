"""Choosing deals: the one deal-number syntax (``parse_deal``), random, next, daily and
winnable deals (docs/play.md, "Deal numbers").
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from functools import cache, partial
from importlib import resources
from typing import Final, Literal, get_args

from ..engine import MAX_DEAL, Variant, play_out
from ..engine.cards import is_number
from .errors import PlayError

#: How a new game picks its deal (docs/play.md's table); a stored game keeps it (``dealt``).
StartKind = Literal["number", "random", "next", "again", "daily", "winnable"]
START_KINDS: Final[tuple[StartKind, ...]] = get_args(StartKind)
#: The first deal a newcomer meets on the static site (its table is made at build time,
#: site/build.py's first_table): deal 7 comes out under the book's rules (R1–R11, three redeals:
#: its forced line wins, tests/site/test_first_table.py), so a first game can end well.
WELCOME_DEAL: Final = 7
#: Deals drawn at random are 1…RANDOM_DEAL_MAX (§4 allows 0…2^64−1; these are the
#: ones a person can say).
RANDOM_DEAL_MAX: Final = 999_999_999
#: Most random deals a search for a winnable deal plays out, and per chunk, with the
#: engine alone (0.1–0.6 s a chunk: searches take turns by chunks, docs/play.md; enough
#: for every variant not listed: each comes out at least 5 % of the time, and none in
#: 5,000 has a chance below e^−250), and with the fast forced line (about a million deals
#: a second; chunks of ~20 ms).
ENGINE_SEARCH: Final = (5_000, 250)
FAST_SEARCH: Final = (2_000_000, 20_000)
#: The shipped deals known to come out (``scripts/winnable_deals.py``), for the variants
#: rarer than ``RARE_BELOW`` (docs/odds.md), which a search would take too long to find.
KNOWN_WINNABLE: Final = "winnable-deals.json"
RARE_BELOW: Final = 0.05


def parse_deal(value: object) -> int:
    """A deal number from text of ASCII digits (``"42"``) or an ``int``."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PlayError("deal.invalid", max=MAX_DEAL, text=str(value)[:40])
    if isinstance(value, str):
        if not is_number(value):
            raise PlayError("deal.invalid", max=MAX_DEAL, text=value[:40])
        if len(value) > len(str(MAX_DEAL)):  # before int(): 5,000 digits cost nothing
            raise PlayError("deal.range", max=MAX_DEAL)
        value = int(value)
    if not 0 <= value <= MAX_DEAL:
        raise PlayError("deal.range", max=MAX_DEAL)
    return value


def random_deal(rng: random.Random | None = None) -> int:
    """A deal drawn at random, 1…``RANDOM_DEAL_MAX`` uniformly (every face's random deal);
    from ``rng`` when given (seeded: reproducible), else the system's randomness."""
    return (rng or random.SystemRandom()).randrange(RANDOM_DEAL_MAX) + 1


def next_deal(deal: int) -> int:
    """The deal after ``deal``; the last deal number wraps round to 0."""
    return 0 if deal >= MAX_DEAL else deal + 1


def today() -> dt.date:
    """Today as the play layer sees it: the local calendar date, or ``FIRSTLAST_TODAY``
    when set (a date the tests fake). The one place a date is read from the clock: the
    faces ask the play layer (``PlayService.today``), never the clock."""
    with suppress(ValueError):  # unset, or not a date
        return dt.date.fromisoformat(os.environ.get("FIRSTLAST_TODAY", "").strip())
    return dt.date.today()


def daily_deal(date: dt.date) -> int:
    """The deal of the day: the date as the number YYYYMMDD (30 November 2026 is deal
    20261130)."""
    return date.year * 10_000 + date.month * 100 + date.day


def daily_date(deal: int) -> dt.date | None:
    """The date whose deal of the day ``deal`` is (``daily_deal``'s inverse), or ``None``
    when the number is not a date written as YYYYMMDD."""
    if not 10_000_101 <= deal <= 99_991_231:
        return None
    try:
        return dt.date(deal // 10_000, deal // 100 % 100, deal % 100)
    except ValueError:
        return None


def first_winnable(candidates: Sequence[int], variant: Variant) -> int | None:
    """The first of ``candidates`` whose forced line comes out under ``variant``, if
    any: one chunk of the search, pure, so that it can run in another process or worker
    (by the fast forced line where it runs, else the engine)."""
    from ..odds import fastline

    if fastline.available():
        won = fastline.play_deals(candidates, variant, parallel=False).won
        return candidates[won.index(1)] if 1 in won else None
    for deal in candidates:
        if play_out(deal, variant).won:
            return deal
    return None


def search_size() -> tuple[int, int]:
    """How many candidates a search plays at most, and per chunk."""
    from ..odds import fastline

    return FAST_SEARCH if fastline.available() else ENGINE_SEARCH


def known_winnable() -> Mapping[str, tuple[int, ...]]:
    """The shipped deals known to come out, by variant token (the rare variants only:
    ``RARE_BELOW``). ``FIRSTLAST_KNOWN_WINNABLE=none`` leaves the list aside, so that
    every variant is searched (diagnostics, and tests of long searches)."""
    if os.environ.get("FIRSTLAST_KNOWN_WINNABLE", "").strip().lower() == "none":
        return {}
    return _read_known()


@cache
def _read_known() -> Mapping[str, tuple[int, ...]]:
    text = resources.files(__package__).joinpath(KNOWN_WINNABLE).read_text(encoding="utf-8")
    return {token: tuple(int(d) for d in found) for token, found in json.loads(text)["deals"].items()}


def winnable_deal(variant: Variant, draw: Callable[[], int] | None = None, tries: int | None = None,
                  search: Callable[[list[int], Variant], int | None] = first_winnable,
                  rng: random.Random | None = None) -> int:
    """A random deal whose forced line comes out under ``variant`` (docs/play.md, the
    ``winnable`` row): candidates drawn by ``draw`` (``random_deal`` by default) played
    out by ``search`` (``first_winnable`` or a call of it elsewhere) a chunk at a time,
    ``tries`` at most (``search_size()``). The chance comes from ``rng``: the same seed,
    the same deal."""
    rng = rng or random.Random(secrets.randbits(64))
    listed = known_winnable().get(variant.token)
    if listed:
        deal = rng.choice(listed)
        # Checked by an exact play-out before it is dealt: a deal that does not come
        # out (a damaged list) is never offered; the search below takes over.
        if search([deal], variant) == deal:
            return deal
    most, chunk = search_size()
    tries = most if tries is None else tries
    draw = draw or partial(random_deal, rng)
    for done in range(0, tries, chunk):
        found = search([draw() for _ in range(min(chunk, tries - done))], variant)
        if found is not None:
            return found
    raise PlayError("winnable.none", variant=variant.token, tries=tries)
