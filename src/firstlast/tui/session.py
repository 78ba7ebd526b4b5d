"""The terminal's handle on the local player's table.

Thin by design: every decision — which game is on the table, what an action does, what
happens to a game that is left, what to do when another window wrote to the game — is
the play layer's (``firstlast.play``, the same code the browser game calls). This only
remembers the play layer's last answer, so the screen has a position to draw, and turns
refusals into one line for the status bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Game, Movement, Step, Variant
from ..play import ActionResult, PlayError, PlayService, Settings, StartKind
from ..play.service import ActionName
from ..store import GameStore, StoredGame


@dataclass
class Done:
    """What an action did: ``ok`` with its steps and movements, or the refusal."""

    ok: bool
    steps: tuple[Step, ...] = ()
    movements: tuple[Movement, ...] = ()
    error: PlayError | None = None
    new_game: bool = False

    @property
    def message(self) -> str:
        return "" if self.error is None else self.error.message


class Session:
    """The local player's game on the table, through ``PlayService``."""

    def __init__(self, play: PlayService, stored: StoredGame) -> None:
        self.play = play
        self.player = stored.player
        self.stored = stored

    @classmethod
    def open(cls, store: GameStore, deal: int | None, variant: Variant | None, resume: bool) -> Session:
        """``deal`` given: a new game of it (with ``resume``, its latest unfinished game).
        No deal: the game on the table, else the latest unfinished game, else a new
        random deal (with ``variant``, only games with those rules). Raises
        ``LookupError`` when ``resume`` finds nothing."""
        play = PlayService(store)
        player = play.local_player()
        if resume:
            stored = play.resume(player, deal, variant)
            if stored is None:
                what = "" if deal is None else f" of deal {deal}"
                raise LookupError(f"no unfinished game{what} to resume")
            return cls(play, stored)
        if deal is not None:
            return cls(play, play.start(player, "number", deal, variant))
        table = play.current(player)
        if table is not None and (variant is None or table.game.variant == variant):
            return cls(play, table)
        return cls(play, play.resume(player, None, variant) or play.start(player, "random", None, variant))

    @property
    def game(self) -> Game:
        return self.stored.game

    @property
    def game_id(self) -> str:
        return self.stored.id

    @property
    def store(self) -> GameStore:
        return self.play.store

    def settings(self) -> Settings:
        return self.play.settings(self.player)

    # ------------------------------------------------------------ doing
    def act(self, action: ActionName, argument: str | int | None = None) -> Done:
        """Ask the play layer for ``action`` on the game shown, at the version shown."""
        try:
            result: ActionResult = self.play.act(self.player, self.stored.id, action, argument, self.stored.version)
        except PlayError as e:
            if e.code in ("game.changed", "game.unknown"):
                self.follow()  # show what is saved (or whatever is on the table now)
            return Done(False, error=e)
        self.stored = result.stored
        return Done(True, result.steps, result.movements, new_game=result.new_game)

    def start(self, how: StartKind, deal: object = None, variant: Variant | None = None) -> Done:
        try:
            self.stored = self.play.start(self.player, how, deal, variant)
        except PlayError as e:
            return Done(False, error=e)
        return Done(True, new_game=True)

    def reopen(self, game_id: str) -> Done:
        """Put one of the player's games on the table (reopen it)."""
        try:
            self.stored = self.play.open(self.player, game_id)
        except PlayError as e:
            return Done(False, error=e)
        return Done(True, new_game=True)

    def follow(self) -> bool:
        """Show the player's table as stored now: moves made on this game elsewhere, or
        another game put on the table elsewhere (the browser). True if it changed."""
        try:
            table = self.play.current(self.player)
        except PlayError:
            return False  # unreadable for now; the next action reports any real problem
        if table is None:
            return False
        if table.id == self.stored.id and table.version == self.stored.version:
            return False
        self.stored = table
        return True

    def save_settings(self, **changes: object) -> PlayError | None:
        try:
            self.play.update_settings(self.player, changes)
        except PlayError as e:
            return e
        return None
