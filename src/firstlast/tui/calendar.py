"""The terminal's calendar of deals of the day (``play.daily``, the page's Calendar):
a month as a grid, the days played and won marked, today ringed, the daily streaks;
the arrows move a day, PgUp/PgDn a month, Enter plays the chosen day's deal."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..i18n import t
from ..play import PlayError, PlayService
from ..play.daily import FIRST_DAY, Calendar
from .dialogs import Page
from .keys import BarKey, KeyBar, binding


def calendar_renderable(cal: Calendar, chosen: dt.date, lang: str = "en") -> Table:
    """``cal`` as a grid, Monday first: ★ won, • played, [today], (played on another
    day); the chosen day reversed; then the streaks and the chosen day's deal."""
    first = cal.days[0].date
    grid = Table(title=t(lang, f"daily.month.{first.month}", year=first.year), show_edge=False, box=None,
                 padding=(0, 1))
    for w in range(1, 8):
        grid.add_column(t(lang, f"daily.weekday.{w}"), justify="right")
    cells: list[Text] = [Text("")] * first.weekday()
    for day in cal.days:
        mark = {"won": "★", "played": "•", "none": " "}[day.state]
        n = f"{day.date.day:2d}{mark}"
        text = f"[{n}]" if day.today else f"({n})" if day.state != "none" and not day.on_day else f" {n} "
        style = "dim" if day.future else "bold #ffd24a" if day.state == "won" else ""
        if day.date == chosen:
            style += " reverse"
        cells.append(Text(text, style=style.strip()))
    cells += [Text("")] * (-len(cells) % 7)  # the last week filled out
    for week in range(0, len(cells), 7):
        grid.add_row(*cells[week:week + 7])
    s = cal.streaks
    grid.caption = "\n".join((
        t(lang, "daily.streak", played=s.played, won=s.won, best_played=s.best_played, best_won=s.best_won),
        t(lang, "daily.totals", played=s.days_played, won=s.days_won),
        t(lang, "tui.calendar.marks"),
        t(lang, "tui.calendar.chosen", date=chosen.isoformat(), deal=f"{chosen:%Y%m%d}"),
    ))
    return grid


class CalendarScreen(Page[dt.date | None]):
    """The calendar; dismissed with the date whose deal to play, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("escape,q,c", "dismiss", "tui.binding.back"),
        binding("left", "move(-1)", "daily.prev", show=False),
        binding("right", "move(1)", "daily.next", show=False),
        binding("up", "move(-7)", "daily.prev", show=False),
        binding("down", "move(7)", "daily.next", show=False),
        binding("pageup", "month(-1)", "daily.prev", show=False),
        binding("pagedown", "month(1)", "daily.next", show=False),
        binding("enter", "play", "tui.calendar.keys", show=False),
    ]

    def __init__(self, play: PlayService, player: str, lang: str = "en") -> None:
        super().__init__()
        self.play, self.player, self.lang = play, player, lang
        self.today = play.today()
        self.chosen = self.today
        self.cal: Calendar = play.calendar(player)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(t(self.lang, "daily.title"), style="bold"), id="calendar-title")
            yield Static(calendar_renderable(self.cal, self.chosen, self.lang), id="calendar-body", classes="body")
            yield Static(Text(t(self.lang, "daily.legend"), style="dim"), id="calendar-legend")
        yield KeyBar((BarKey("←→", "tui.calendar.keys"), BarKey("Esc", "tui.binding.back")), self.lang)

    def _go(self, date: dt.date) -> None:
        date = min(max(date, FIRST_DAY), self.today)
        month = f"{date.year:04d}-{date.month:02d}"
        if month != self.cal.month:
            try:
                self.cal = self.play.calendar(self.player, month)
            except PlayError as e:
                self.notify(e.text(self.lang), severity="error")
                return
        self.chosen = date
        self.query_one("#calendar-body", Static).update(calendar_renderable(self.cal, self.chosen, self.lang))

    def action_move(self, days: int) -> None:
        self._go(self.chosen + dt.timedelta(days=days))

    def action_month(self, by: int) -> None:
        k = self.chosen.year * 12 + self.chosen.month - 1 + by
        self._go(dt.date(k // 12, k % 12 + 1, 1))

    def action_play(self) -> None:
        self.dismiss(self.chosen)
