"""Watching a game move by move (an imported game, someone's): the table as it was after
each move, the move said in words. Nothing is written; the game on the table stays."""

from __future__ import annotations

from typing import ClassVar, Final

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.timer import Timer

from ..engine import Card, Game
from ..i18n import announce, describe_variant, t
from ..play.view import table_view
from . import cards as C
from .keys import BarKey, KeyBar, binding
from .widgets import FeltScreen, StatusLine, TableView

#: Moves a second while the replay plays by itself.
REPLAY_SPEED: Final = 4


class ReplayScreen(FeltScreen):
    """→ the next move, ← the one before, Home/End the deal and the end, space plays
    or pauses, Escape (or q) leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("right,s", "go(1)", "tui.replay.keys.step"),
        binding("left,u", "go(-1)", "tui.replay.keys.back"),
        binding("home", "go(-100000)", "tui.replay.keys.back"),
        binding("end", "go(100000)", "tui.replay.keys.step"),
        binding("space,a", "play", "tui.replay.keys.play"),
        binding("escape,q", "dismiss", "tui.replay.keys.close"),  # its timer goes with it
    ]

    at: reactive[int] = reactive(0)

    def __init__(self, game: Game, lang: str) -> None:
        super().__init__()
        self.game, self.lang = game, lang
        self.card_size = C.SMALL  # until mounted, on the terminal's size
        self.positions = game.positions
        self.timer: Timer | None = None
        self.show_felt()

    def compose(self) -> ComposeResult:
        yield StatusLine(id="replay-title")
        with Vertical(id="table-area"):
            yield TableView(id="replay-table")
        yield StatusLine(id="replay-status")
        yield KeyBar((BarKey("→", "tui.replay.keys.step"), BarKey("←", "tui.replay.keys.back"),
                      BarKey("space", "tui.replay.keys.play"), BarKey("Esc", "tui.replay.keys.close")), self.lang)

    def on_mount(self) -> None:
        self._lay_out(self.app.size.width, self.app.size.height)  # then ``at``'s first watch, after mounting

    def on_resize(self, event: events.Resize) -> None:
        # The table follows the terminal, as the game screen's does (it kept the size it
        # opened with, and a smaller terminal cut it).
        self._lay_out(event.size.width, event.size.height)
        self.watch_at(self.at)

    def _lay_out(self, width: int, height: int) -> None:
        """The biggest cards that fit: no side bar here, the table has the whole width."""
        self.card_size = C.choose_size(width, height, 0)
        self.query_one(TableView).lay_out(self.card_size, self.lang)

    def watch_at(self, at: int) -> None:
        game = self.game
        moved: frozenset[Card] = frozenset()
        if at:
            step = game.steps[at - 1]
            moved = frozenset(m.card for m in step.movements)
            said = announce(step.movements, self.lang)
        else:
            said = t(self.lang, "tui.replay.start")
        marked: frozenset[str] | None = None if C.LOOK.marks else frozenset()  # as the setting show_playable says
        self.query_one(TableView).show(table_view(game, self.positions[at]), self.card_size, moved, self.lang, marked)
        self.query_one("#replay-title", StatusLine).message = t(
            self.lang, "tui.replay.title", deal=game.deal, variant=describe_variant(game.variant, self.lang),
            move=at, moves=len(game))
        self.query_one("#replay-status", StatusLine).message = said

    def action_go(self, delta: int) -> None:
        self.at = max(0, min(len(self.game), self.at + delta))
        if self.timer is not None and (delta < 0 or self.at == len(self.game)):
            self._stop()

    def action_play(self) -> None:
        if self.timer is not None:
            self._stop()
            return
        if self.at == len(self.game):
            self.at = 0
        self.timer = self.set_interval(1 / REPLAY_SPEED, lambda: self.action_go(1))

    def _stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
