"""What the store holds, as its readers and writers see it: a stored game
(``StoredGame``), its summary, its whole row (``GameRow``: its fields are the ``games``
table's columns), the rows the statistics and the calendar read, and the store's errors."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from typing import Final, Literal

import msgspec

from ..engine import Game, Status
from ..engine.errors import FirstLastError

Origin = Literal["played", "imported"]
#: The end a game reached first, kept after undo (R11).
Result = Literal["won", "lost"]


class StoreError(FirstLastError):
    """A stored game that cannot be found, read or written."""


class UnknownGame(StoreError):
    """No such game (or it belongs to another player)."""


class StoreConflict(StoreError):
    """Someone else saved the game since it was loaded."""


class TransactionBroken(StoreError):
    """A savepoint could not be undone or released: the transaction cannot go on and
    must be rolled back whole."""


def timestamp() -> str:
    """Now, as every time in the store is written (UTC, ISO 8601, milliseconds)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


#: Any id a face or a backup may name (``new_id`` makes 24 of these characters).
ID_PATTERN: Final = "^[A-Za-z0-9_-]{1,64}$"


def new_id() -> str:
    """An unguessable id (players are known by it alone)."""
    return secrets.token_urlsafe(18)


@dataclass
class StoredGame:
    """A game as stored, replayed through the engine. The play layer shares one it has
    read between its readers and changes only a ``copy``."""

    id: str
    player: str
    game: Game
    version: int
    created: str
    updated: str
    finished: str | None  # when its result was reached
    origin: Origin = "played"
    result: str | None = None  # won | lost: written as the play layer sets it (firstlast.play.results)
    abandoned: str | None = None
    result_score: int | None = None  # the score and passes of that result
    result_passes: int | None = None
    dealt: str | None = None  # how the deal was chosen (play's StartKind); None: imported or older
    dealt_on: str | None = None  # the player's date when it was dealt (YYYY-MM-DD); None: imported
    wish: str | None = None  # the wish made before it ("": in silence); None: none. Private

    @classmethod
    def new(cls, player: str, game: Game, origin: Origin = "played", dealt: str | None = None,
            dealt_on: str | None = None, wish: str | None = None) -> StoredGame:
        """``game`` as a new game of ``player``, not stored yet (``Transaction.insert``)."""
        now = timestamp()
        return cls(new_id(), player, game, 0, now, now, None, origin, dealt=dealt, dealt_on=dealt_on, wish=wish)

    def copy(self) -> StoredGame:
        """A copy to change, not replayed (``Game.copy``)."""
        return replace(self, game=self.game.copy())

    def row(self) -> GameRow:
        """Every column as ``Transaction.insert`` writes it."""
        g, pos = self.game, self.game.position
        return GameRow(deal=str(g.deal), variant=g.variant.token, moves=" ".join(map(str, g.moves)),
                       redo=" ".join(map(str, g.redo_moves)), status=pos.status, score=pos.score, passes=pos.passes,
                       **{name: getattr(self, name) for name in COLUMNS_AS_STORED})


class GameSummary(msgspec.Struct, frozen=True):
    """A stored game as a list of games shows it (``Transaction.games``), declared once:
    the web's ``GameSummary`` answer is it, its deal and variant bounded there. ``deal``
    is the number as text and ``variant`` its token, as stored; ``description`` the
    variant in words (``Variant.describe``)."""

    id: str
    deal: str
    variant: str
    description: str
    status: Status
    score: int
    passes: int
    moves: int
    created: str
    updated: str
    finished: str | None
    origin: Origin
    result: Result | None
    abandoned: bool


@dataclass(frozen=True)
class ResultRow:
    """One counted-or-not game for the statistics (see ``firstlast.play.stats``)."""

    origin: Origin
    result: str | None
    score: int | None
    passes: int | None
    abandoned: bool
    when: str  # finished, else abandoned, else updated: orders the rows in time
    id: str = ""


@dataclass(frozen=True)
class DailyRow:
    """One game dealt as a deal of the day, for the play layer's calendar: its deal (the
    date as YYYYMMDD), the player's date when it was dealt, its kept result and whether a
    move was made."""

    id: str
    deal: int
    dealt_on: str | None
    origin: Origin
    result: str | None
    moved: bool


class GameRow(msgspec.Struct, frozen=True, kw_only=True):
    """Every stored column of one game, as it is, in the order a backup file writes them:
    a backup copies games whole, so that what is derived from them (the statistics) comes
    back the same (``firstlast.play.backup.BackupGame`` is this row with its bounds)."""

    id: str
    deal: str
    variant: str
    moves: str
    redo: str
    status: str
    score: int
    passes: int
    result: str | None
    result_score: int | None
    result_passes: int | None
    origin: Origin
    created: str
    updated: str
    finished: str | None
    abandoned: str | None
    version: int
    dealt: str | None = None
    dealt_on: str | None = None
    wish: str | None = None


#: The columns a ``StoredGame`` keeps as they are (the others are its game's).
COLUMNS_AS_STORED: Final = tuple(f.name for f in fields(StoredGame) if f.name in GameRow.__struct_fields__)
