"""The terminal's handle on the local player's table: the play layer's last answer, so
the screen has a position to draw. Every decision is the play layer's (docs/play.md).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..engine import Game, Variant
from ..i18n import t
from ..play import (
    ActionName,
    ActionResult,
    GameStore,
    PlayError,
    PlayerSettings,
    PlayService,
    Settings,
    StartKind,
    StoredGame,
    command,
    leaving,
)


@dataclass(frozen=True)
class Pending:
    """A new game asked for on the command line, not started yet because starting it
    would abandon the game under way on the table."""

    deal: int
    variant: Variant | None


class Session:
    """The local player's game on the table, through ``PlayService``. Its writes raise
    the play layer's refusal (``PlayError``), which the screen says."""

    def __init__(self, play: PlayService, stored: StoredGame, pending: Pending | None = None) -> None:
        self.play = play
        self.player = stored.player
        self.stored = stored
        self.pending = pending
        self._changes = play.changes()

    @classmethod
    def open(cls, store: GameStore, deal: int | None, variant: Variant | None, resume: bool,
             lang: str | None = None) -> Session:
        """``deal`` given: a new game of it (``resume``: its latest unfinished game); no deal:
        the table's game, else the latest unfinished, else a new random deal (``variant``:
        only games with those rules). A new game that would abandon the one under way
        waits, ``pending``, for the player's yes. ``LookupError`` (in ``lang``, else the
        setting's) when ``resume`` finds nothing."""
        play = PlayService(store)
        player = play.local_player()
        if resume:
            stored = play.resume(player, deal, variant)
            if stored is None:
                lang = lang or play.settings(player).lang or "en"
                raise LookupError(t(lang, "tui.no_resume") if deal is None
                                  else t(lang, "tui.no_resume_deal", deal=deal))
            return cls(play, stored)
        table = play.current(player)
        if deal is not None:
            if table is not None and leaving(table) == "abandon":
                return cls(play, table, Pending(deal, variant))
            return cls(play, play.start(player, "number", deal, variant))
        if table is not None and (variant is None or table.game.variant == variant):
            return cls(play, table)
        return cls(play, play.resume(player, None, variant) or play.start(player, "random", None, variant))

    @property
    def game(self) -> Game:
        return self.stored.game

    @property
    def game_id(self) -> str:
        return self.stored.id

    def settings(self) -> Settings:
        return self.play.settings(self.player)

    def under_way(self) -> bool:
        """Whether leaving the game on the table would abandon it (ask first)."""
        return leaving(self.stored) == "abandon"

    # ------------------------------------------------------------ doing
    def act(self, action: ActionName, argument: str | int | None = None) -> ActionResult:
        """``action`` on the game shown, at the version shown; refused as changed or
        unknown, the table as now stored is followed first."""
        try:
            result = self.play.act(self.player, self.stored.id, command(action, argument), self.stored.version)
        except PlayError as e:
            if e.code in ("game.changed", "game.unknown"):
                self.follow()
            raise
        self.stored = result.stored
        return result

    def start(self, how: StartKind, deal: object = None, variant: Variant | None = None,
              day: dt.date | None = None, wish: str | None = None) -> StoredGame:
        self.stored = self.play.start(self.player, how, deal, variant, day=day, wish=wish)
        return self.stored

    def reopen(self, game_id: str) -> StoredGame:
        """Put one of the player's games on the table (reopen it)."""
        self.stored = self.play.open(self.player, game_id)
        return self.stored

    def store_changed(self) -> bool:
        """Whether anything was committed to the store since last asked (the play
        layer's change counter: cheap, no game read), by this or another window."""
        try:
            now = self.play.changes()
        except PlayError:
            return False  # unreadable for now; the next action reports any real problem
        changed, self._changes = now != self._changes, now
        return changed

    def follow(self) -> bool:
        """Show the player's table as stored now: moves made on this game elsewhere, or
        another game put on the table elsewhere (the browser). True if it changed."""
        try:
            table = self.play.current(self.player)
        except PlayError:
            return False  # unreadable for now; the next action reports any real problem
        if table is None or (table.id, table.version) == (self.stored.id, self.stored.version):
            return False
        self.stored = table
        return True

    def save_settings(self, **changes: object) -> PlayerSettings:
        return self.play.update_settings(self.player, changes)
