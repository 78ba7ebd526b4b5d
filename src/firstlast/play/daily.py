"""The deal of the day, remembered: the calendar and the daily streaks, from the stored
games alone (docs/play.md, "The deal of the day"). Pure: the service reads the rows and
passes today, so no date is read from the clock here.
"""

from __future__ import annotations

import datetime as dt
import re
from calendar import monthrange
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from ..store import DailyRow
from .deals import daily_date, daily_deal
from .errors import PlayError
from .fields import DealText

DayState = Literal["none", "played", "won"]
#: The first date the calendar offers (deal 19000101); deals of earlier dates stay
#: playable by number.
FIRST_DAY: Final = dt.date(1900, 1, 1)
ONE_DAY: Final = dt.timedelta(days=1)
#: A month of the calendar as written, YYYY-MM (``calendar``; the web's query says it too).
MONTH_PATTERN: Final = "^[0-9]{4}-(0[1-9]|1[0-2])$"


class CalendarDay(msgspec.Struct, frozen=True, kw_only=True):
    """One date's deal of the day (play.daily)."""

    date: Annotated[dt.date, Meta(description="YYYY-MM-DD")]
    deal: DealText
    state: Annotated[DayState, Meta(description=(
        "played: a move was made in a game of its deal; won: one came out"))]
    on_day: Annotated[bool, Meta(description="played (or won) on its own date: it counts in the streaks")]
    today: bool
    future: Annotated[bool, Meta(description="a day to come: not playable yet")]


class Streaks(msgspec.Struct, frozen=True, kw_only=True):
    """The daily streaks (docs/play.md, "The deal of the day"), now and at best, and the
    days played and won in all. Declared once: the web's answer is this Struct."""

    played: int = 0
    won: int = 0
    best_played: int = 0
    best_won: int = 0
    days_played: int = 0
    days_won: int = 0


class Calendar(msgspec.Struct, frozen=True, kw_only=True):
    """A month of deals of the day (docs/play.md, "The deal of the day")."""

    today: Annotated[dt.date, Meta(description="YYYY-MM-DD")]
    month: Annotated[str, Meta(description="YYYY-MM")]
    days: Annotated[tuple[CalendarDay, ...], Meta(description="the 1st first")]
    streaks: Streaks
    previous: Annotated[str | None, Meta(description="the month before (YYYY-MM), if the calendar has it")]
    next: Annotated[str | None, Meta(description="the month after, up to today's")]


@dataclass(frozen=True)
class DayFacts:
    """What the stored games say of each date: played or won at all, and on the day."""

    played: frozenset[dt.date]
    won: frozenset[dt.date]
    played_on_day: frozenset[dt.date]
    won_on_day: frozenset[dt.date]


def facts(rows: Iterable[DailyRow]) -> DayFacts:
    """The dates the player's daily games played and won (imported ones never count)."""
    games = [(date, r) for r in rows if (date := daily_date(r.deal)) is not None and r.origin == "played"
             and (r.moved or r.result is not None)]
    on_day = [(date, r) for date, r in games if r.dealt_on == date.isoformat()]
    return DayFacts(frozenset(d for d, _ in games), frozenset(d for d, r in games if r.result == "won"),
                    frozenset(d for d, _ in on_day), frozenset(d for d, r in on_day if r.result == "won"))


def current_run(days: frozenset[dt.date], today: dt.date) -> int:
    """Days in a row in ``days`` ending today, or yesterday when today is not in them
    (the day is not over)."""
    d = today if today in days else today - ONE_DAY
    n = 0
    while d in days:
        n += 1
        d -= ONE_DAY
    return n


def longest_run(days: Iterable[dt.date]) -> int:
    """The most days in a row in ``days``."""
    best = run = 0
    last: dt.date | None = None
    for d in sorted(set(days)):
        run = run + 1 if last is not None and d - last == ONE_DAY else 1
        best = max(best, run)
        last = d
    return best


def streaks(f: DayFacts, today: dt.date) -> Streaks:
    """The daily streaks on ``today`` (days after today, from a clock set back, are left
    out)."""
    played = frozenset(d for d in f.played_on_day if d <= today)
    won = frozenset(d for d in f.won_on_day if d <= today)
    return Streaks(played=current_run(played, today), won=current_run(won, today), best_played=longest_run(played),
                   best_won=longest_run(won), days_played=sum(1 for d in f.played if d <= today),
                   days_won=sum(1 for d in f.won if d <= today))


def check_day(date: dt.date, today: dt.date, said: str | None = None) -> dt.date:
    """``date`` if its deal of the day can be played now (``FIRST_DAY`` … today), else
    ``daily.before`` (before the calendar) or ``daily.date`` (a day to come), naming it
    as ``said`` (a month) or as the day."""
    if not FIRST_DAY <= date <= today:
        code = "daily.before" if date < FIRST_DAY else "daily.date"
        raise PlayError(code, date=said or date.isoformat(), first=FIRST_DAY.isoformat(), today=today.isoformat())
    return date


def calendar(f: DayFacts, today: dt.date, month: str | None = None) -> Calendar:
    """The month ``month`` (``YYYY-MM``, else ``daily.month``; today's by default), from
    FIRST_DAY's month to today's (else ``check_day``'s refusal)."""
    month = today.isoformat()[:7] if month is None else month
    if re.fullmatch(MONTH_PATTERN, month) is None:
        raise PlayError("daily.month", text=month[:20])
    year, number = int(month[:4]), int(month[5:])
    # Its first day, as FIRST_DAY is the first of a month (the year 0000 is before it too).
    check_day(dt.date(max(year, dt.MINYEAR), number, 1), today, month)
    days = []
    for day in range(1, monthrange(year, number)[1] + 1):
        d = dt.date(year, number, day)
        state: DayState = "won" if d in f.won else "played" if d in f.played else "none"
        on_day = d in (f.won_on_day if state == "won" else f.played_on_day)
        days.append(CalendarDay(date=d, deal=str(daily_deal(d)), state=state, on_day=on_day, today=d == today,
                                future=d > today))
    start, end = days[0].date, days[-1].date  # the month before and after: the calendar's, up to today's
    return Calendar(today=today, month=month, days=tuple(days), streaks=streaks(f, today),
                    previous=f"{start - ONE_DAY:%Y-%m}" if start > FIRST_DAY else None,
                    next=f"{end + ONE_DAY:%Y-%m}" if end < today else None)
