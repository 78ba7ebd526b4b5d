"""Saved games, players and settings in an embedded SQLite database.

Shared by the browser game and the terminal game, so a game started in one can be
finished in the other. A game row holds what defines the game — deal, variant, move
list — plus the redo line; everything else is derived by replaying through the engine.

This module only stores and reads, and decides nothing: *what* is stored when (which
game is on the table, when a game has a result and that it is kept, what counts in the
statistics) is the play layer's policy (``firstlast.play``). Writes go one way only: a
``Transaction`` from ``GameStore.transaction()`` (the play layer's writer opens
them), with ``Transaction.savepoint()`` for a part that may be undone alone. Reads take
a snapshot with ``GameStore.reading()``; ``load``, ``games``, ``settings`` and
``has_player`` are one-read shortcuts of it (for tools and tests).

Each transaction is atomic (a crash leaves the previous state intact) and every game
update is guarded by a version number, so two writers can never silently lose a move.

A database file that stops being writable while open (made read-only or immutable,
``chattr +i``) is refused before SQLite touches it (``StoreError``): in WAL mode SQLite
writes its index through a shared memory map of ``<db>-shm``, and a write through that
map to a file that may no longer be written kills the process with SIGBUS, which no
error handler can catch. The store stays usable and serves again once the files can be
written. A connection that could only be closed by writing to such a file is kept open
instead (its close would checkpoint through the map).
A database that is read-only when opened (the file, or a read-only folder or mount, where
SQLite cannot make its ``-shm`` and ``-wal``: ``_read_only_uri``) opens ``read_only``;
every write then fails as SQLite refuses it.
The schema is versioned with ``PRAGMA user_version`` and upgraded by the ordered
``MIGRATIONS`` below; a database written by an older firstlast is upgraded in place, in
one transaction, without losing a game or a statistic.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Literal

import platformdirs

from . import runtime
from .engine import Game, Move, Step, Variant
from .engine.errors import FirstLastError

Origin = Literal["played", "imported"]

# ---------------------------------------------------------------------------- schema
_SCHEMA_1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(id),
    deal TEXT NOT NULL,            -- text: deal numbers reach 2^64-1, past SQLite's integers
    variant TEXT NOT NULL,         -- Variant.token, e.g. r3, ruw, r0n
    moves TEXT NOT NULL DEFAULT '',
    redo TEXT NOT NULL DEFAULT '', -- moves that redo would make, next first
    status TEXT NOT NULL,          -- playing | won | lost: the position on the table now
    score INTEGER NOT NULL,
    passes INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    finished TEXT
);
CREATE INDEX IF NOT EXISTS games_by_player ON games (player, updated);
CREATE INDEX IF NOT EXISTS games_finished ON games (variant, finished);
"""


def _script(db: sqlite3.Connection, sql: str) -> None:
    """Run ``sql`` statement by statement (``executescript`` would commit the open
    transaction first, and migrations must be all or nothing)."""
    for statement in sql.split(";"):
        lines = [line.split("--")[0] for line in statement.splitlines()]
        if "".join(lines).strip():
            db.execute("\n".join(lines))


def _migrate_2(db: sqlite3.Connection) -> None:
    """Schema 2: a game's result is kept once reached (statistics count it forever),
    games have an origin (imported records are not the importer's play), a game left
    unfinished for another is marked abandoned, each player has one game on the table,
    and settings follow one schema (``firstlast.play.settings``)."""
    _script(db, """
        ALTER TABLE games ADD COLUMN origin TEXT NOT NULL DEFAULT 'played';  -- played | imported
        ALTER TABLE games ADD COLUMN result TEXT;        -- won | lost: the first end reached, kept
        ALTER TABLE games ADD COLUMN result_score INTEGER;
        ALTER TABLE games ADD COLUMN result_passes INTEGER;
        ALTER TABLE games ADD COLUMN abandoned TEXT;     -- when it was left unfinished for another
        ALTER TABLE players ADD COLUMN current TEXT;      -- the game on the table
        CREATE INDEX IF NOT EXISTS games_results ON games (player, variant, origin);
    """)
    # Games that had ended keep that end as their result.
    db.execute("UPDATE games SET result=status, result_score=score, result_passes=passes,"
               " finished=COALESCE(finished, updated) WHERE status IN ('won', 'lost')")
    # Each player's latest unfinished game goes on the table; the other unfinished games
    # with moves were left for another one: abandoned (they can be reopened).
    players = [r[0] for r in db.execute("SELECT id FROM players")]
    for pid in players:
        rows = db.execute("SELECT id, moves, updated FROM games WHERE player=? AND status='playing'"
                          " ORDER BY updated DESC, rowid DESC", (pid,)).fetchall()
        if rows:
            db.execute("UPDATE players SET current=? WHERE id=?", (rows[0][0], pid))
        for gid, moves, updated in rows[1:]:
            if moves.strip():
                db.execute("UPDATE games SET abandoned=? WHERE id=?", (updated, gid))
            else:  # dealt and never played: nothing to keep
                db.execute("DELETE FROM games WHERE id=?", (gid,))
    # Settings: the browser kept the variant as three keys (redeals -1 = unlimited), the
    # terminal as a token; both become the one token.
    for pid, text in db.execute("SELECT id, settings FROM players").fetchall():
        try:
            old = json.loads(text)
        except ValueError:
            old = {}
        if not isinstance(old, dict):
            old = {}
        new: dict[str, object] = {}
        if old.get("lang") in ("ru", "en"):
            new["lang"] = old["lang"]
        if isinstance(old.get("speed"), int) and not isinstance(old.get("speed"), bool) and 0 <= old["speed"] <= 3:
            new["speed"] = old["speed"]
        if isinstance(old.get("show_chance"), bool):
            new["show_chance"] = old["show_chance"]
        if old.get("verbosity") in ("brief", "full"):
            new["verbosity"] = old["verbosity"]
        token = old.get("variant")
        if isinstance(token, str):
            with suppress(ValueError):
                new["variant"] = Variant.from_token(token).token
        elif isinstance(old.get("redeals"), int) and not isinstance(old.get("redeals"), bool):
            redeals = old["redeals"]
            new["variant"] = Variant(
                redeals=None if redeals < 0 else redeals,
                waste_playable=old.get("waste_playable") is True,
                privileged_last=old.get("privileged_last") is not False,
            ).token
        db.execute("UPDATE players SET settings=? WHERE id=?", (json.dumps(new), pid))


def _migrate_3(db: sqlite3.Connection) -> None:
    """Schema 3: how each game's deal was chosen (the play layer's start kind: a deal
    that comes out is explained on the chance meter); older games have none."""
    _script(db, """
        ALTER TABLE games ADD COLUMN dealt TEXT;  -- number | random | next | again | daily | winnable
    """)


def _migrate_4(db: sqlite3.Connection) -> None:
    """Schema 4: the player's date on which each game was dealt (a deal of the day
    counts in the daily streak when it is played on its own date: the play layer's
    calendar) and the wish made before it (the patience laid out "on a wish"; kept
    privately, only in the player's backup). Older games take the date of their
    creation (UTC) and no wish."""
    _script(db, """
        ALTER TABLE games ADD COLUMN dealt_on TEXT;  -- YYYY-MM-DD, the player's date when dealt
        ALTER TABLE games ADD COLUMN wish TEXT;      -- null: none, '': a wish made in silence
        CREATE INDEX IF NOT EXISTS games_daily ON games (player, dealt);
    """)
    db.execute("UPDATE games SET dealt_on=substr(created, 1, 10)")


#: Ordered upgrades: entry ``i`` takes schema ``i`` to ``i + 1`` (schema 1 creates the
#: tables). Append only; never edit a step that has shipped.
MIGRATIONS: Final[tuple[Callable[[sqlite3.Connection], None], ...]] = (
    lambda db: _script(db, _SCHEMA_1),
    _migrate_2,
    _migrate_3,
    _migrate_4,
)
SCHEMA_VERSION: Final = len(MIGRATIONS)


class StoreError(FirstLastError):
    """A stored game that cannot be found, read or written."""


class UnknownGame(StoreError):
    """No such game (or it belongs to another player)."""


class StoreConflict(StoreError):
    """Someone else saved the game since it was loaded."""


class TransactionBroken(StoreError):
    """A savepoint could not be undone or released: the transaction cannot go on and
    must be rolled back whole."""


def default_db_path() -> Path:
    """``firstlast.sqlite3`` in the user's data folder (platformdirs)."""
    return Path(platformdirs.user_data_dir("firstlast", appauthor=False)) / "firstlast.sqlite3"


def timestamp() -> str:
    """Now, as every time in the store is written (UTC, ISO 8601, milliseconds)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def new_id() -> str:
    """An unguessable id (players are known by it alone)."""
    return secrets.token_urlsafe(18)


class MovesText:
    """The text of a game's moves as last written, kept with the game so that the next
    save turns only the new moves into text. Steps only come and go at the end of a
    game, and each is a new object: the steps up to the last one still the same object
    are unchanged."""

    __slots__ = ("steps", "texts")

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.texts: list[str] = []

    def of(self, game: Game) -> str:
        steps = game.steps
        k = min(len(self.steps), len(steps))
        while k and self.steps[k - 1] is not steps[k - 1]:
            k -= 1
        del self.steps[k:], self.texts[k:]
        for step in steps[k:]:
            self.steps.append(step)
            self.texts.append(str(step.move))
        return " ".join(self.texts)

    def copy(self) -> MovesText:
        twin = MovesText()
        twin.steps, twin.texts = self.steps.copy(), self.texts.copy()
        return twin


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
    moves_text: MovesText = field(default_factory=MovesText, repr=False, compare=False)

    @classmethod
    def new(cls, player: str, game: Game, origin: Origin = "played", dealt: str | None = None,
            dealt_on: str | None = None, wish: str | None = None) -> StoredGame:
        """``game`` as a new game of ``player``, not stored yet (``Transaction.insert``):
        a new id, created now, version 0, no result; ``dealt``: how its deal was chosen,
        ``dealt_on``: the player's date then, ``wish``: the wish made before it."""
        now = timestamp()
        return cls(new_id(), player, game, 0, now, now, None, origin, dealt=dealt, dealt_on=dealt_on, wish=wish)

    def copy(self) -> StoredGame:
        """A copy to change, not replayed (``Game.copy``)."""
        return replace(self, game=self.game.copy(), moves_text=self.moves_text.copy())

    def row(self) -> GameRow:
        """Every column as ``Transaction.insert`` writes it."""
        g, pos = self.game, self.game.position
        return GameRow(self.id, str(g.deal), g.variant.token, self.moves_text.of(g), _moves_text(g.redo_moves),
                       pos.status, pos.score, pos.passes, self.version, self.created, self.updated, self.finished,
                       self.origin, self.result, self.result_score, self.result_passes, self.abandoned, self.dealt,
                       self.dealt_on, self.wish)


@dataclass
class GameSummary:
    id: str
    deal: int
    variant: Variant
    status: str
    score: int
    passes: int
    moves: int
    created: str
    updated: str
    finished: str | None
    origin: Origin
    result: str | None
    abandoned: str | None


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


def _origin(value: object) -> Origin:
    return "imported" if value == "imported" else "played"


def _summary(r: sqlite3.Row) -> GameSummary:
    return GameSummary(r["id"], int(r["deal"]), Variant.from_token(r["variant"]), r["status"], r["score"],
                       r["passes"], len(r["moves"].split()), r["created"], r["updated"], r["finished"],
                       _origin(r["origin"]), r["result"], r["abandoned"])


@dataclass(frozen=True)
class GameRow:
    """Every stored column of one game, as it is: a backup copies games whole
    (``firstlast.play.backup``), so that what is derived from them (the statistics)
    comes back the same."""

    id: str
    deal: str
    variant: str
    moves: str
    redo: str
    status: str
    score: int
    passes: int
    version: int
    created: str
    updated: str
    finished: str | None
    origin: Origin
    result: str | None
    result_score: int | None
    result_passes: int | None
    abandoned: str | None
    dealt: str | None = None
    dealt_on: str | None = None
    wish: str | None = None


#: The columns of a game row, by name: ``GameRow``'s fields.
_COLUMNS: Final = tuple(f.name for f in fields(GameRow))
_ROW_COLUMNS: Final = ", ".join(_COLUMNS)
_NAMED: Final = ", ".join(f":{c}" for c in _COLUMNS)
_ASSIGNED: Final = ", ".join(f"{c}=:{c}" for c in _COLUMNS if c != "id")


def _row(r: sqlite3.Row) -> GameRow:
    return GameRow(**{name: r[name] for name in _COLUMNS} | {"origin": _origin(r["origin"])})


class Transaction:
    """Reads and writes inside one SQLite transaction (``GameStore.transaction()``, or
    ``GameStore.reading()`` to read). Every write is one of its methods: no caller runs
    SQL of its own."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.row_factory = sqlite3.Row  # columns by name
        self._savepoints = 0  # savepoints open now (their names are by depth)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A part of the transaction that is undone alone: if the block raises, what it
        wrote is rolled back and the exception goes on (the rest of the transaction is
        kept); if it ends, its writes stay, to commit with the transaction. Savepoints
        nest. When the undo or the release itself fails, ``TransactionBroken`` is
        raised: the transaction cannot go on (roll it back whole)."""
        name = f"part{self._savepoints}"
        try:
            self.db.execute(f"SAVEPOINT {name}")
        except sqlite3.Error as e:
            raise TransactionBroken(str(e)) from e
        self._savepoints += 1
        try:
            yield
        except BaseException:
            try:
                self.db.execute(f"ROLLBACK TO {name}")
                self.db.execute(f"RELEASE {name}")
            except sqlite3.Error as e:
                raise TransactionBroken(str(e)) from e
            raise
        else:
            try:
                self.db.execute(f"RELEASE {name}")
            except sqlite3.Error as e:
                raise TransactionBroken(str(e)) from e
        finally:
            self._savepoints -= 1

    # ------------------------------------------------------------ the store's own notes
    def meta(self, key: str) -> str | None:
        """The value noted under ``key`` (``set_meta``), if any."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # ------------------------------------------------------------ players
    def new_player(self) -> str:
        pid = new_id()
        self.db.execute("INSERT INTO players (id, created) VALUES (?, ?)", (pid, timestamp()))
        return pid

    def has_player(self, player: str) -> bool:
        return self.db.execute("SELECT 1 FROM players WHERE id=?", (player,)).fetchone() is not None

    def settings(self, player: str) -> dict[str, object]:
        row = self.db.execute("SELECT settings FROM players WHERE id=?", (player,)).fetchone()
        if row is None:
            return {}
        try:
            value = json.loads(row[0])
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def save_settings(self, player: str, settings: dict[str, object]) -> None:
        self.db.execute("UPDATE players SET settings=? WHERE id=?", (json.dumps(settings), player))

    def current(self, player: str) -> str | None:
        row = self.db.execute("SELECT current FROM players WHERE id=?", (player,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def set_current(self, player: str, game_id: str | None) -> None:
        self.db.execute("UPDATE players SET current=? WHERE id=?", (game_id, player))

    # ------------------------------------------------------------ games
    def insert(self, stored: StoredGame) -> None:
        """Store ``stored`` (``StoredGame.new``: its moves and redo line too) as a new
        game, every field as given."""
        self.insert_row(stored.player, stored.row())

    def load(self, game_id: str, player: str | None = None) -> StoredGame:
        r = self.db.execute(f"SELECT player, {_ROW_COLUMNS} FROM games WHERE id=?", (game_id,)).fetchone()
        if r is None or (player is not None and r["player"] != player):
            raise UnknownGame(f"no such game: {game_id}")
        row = _row(r)
        try:
            game = Game(int(row.deal), Variant.from_token(row.variant), row.moves.split(), row.redo.split())
        except (FirstLastError, ValueError) as e:
            raise StoreError(f"stored game {game_id} is corrupt: {e}") from None
        return StoredGame(row.id, r["player"], game, row.version, row.created, row.updated, row.finished, row.origin,
                          row.result, row.abandoned, row.result_score, row.result_passes, row.dealt, row.dealt_on,
                          row.wish)

    def head(self, game_id: str) -> tuple[str, int] | None:
        """The player and the version of game ``game_id`` (``None``: there is none): what
        says whether a game already read is the stored one, without reading its moves."""
        r = self.db.execute("SELECT player, version FROM games WHERE id=?", (game_id,)).fetchone()
        return None if r is None else (r["player"], r["version"])

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version``: it moves whenever another connection (of this
        process or another) commits."""
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def save(self, stored: StoredGame) -> None:
        """Write the game's moves, redo line, position and result fields as they are now;
        ``StoreConflict`` if it was saved elsewhere since it was loaded (then nothing is
        written)."""
        g = stored.game
        pos = g.position
        now = timestamp()
        cur = self.db.execute(
            "UPDATE games SET moves=?, redo=?, status=?, score=?, passes=?, version=version+1, updated=?,"
            " finished=?, result=?, result_score=?, result_passes=?, abandoned=? WHERE id=? AND version=?",
            (stored.moves_text.of(g), _moves_text(g.redo_moves), pos.status, pos.score, pos.passes, now,
             stored.finished, stored.result, stored.result_score, stored.result_passes, stored.abandoned, stored.id,
             stored.version),
        )
        if cur.rowcount != 1:
            raise StoreConflict(f"game {stored.id} was changed elsewhere; reload it")
        stored.version += 1
        stored.updated = now

    def imported(self, player: str, deal: int, variant: Variant, moves: Sequence[Move]) -> str | None:
        """The id of ``player``'s latest imported game of ``deal`` and ``variant`` with
        these ``moves``, if any (read, not replayed)."""
        wanted = [str(m) for m in moves]
        for r in self.db.execute("SELECT id, moves FROM games WHERE player=? AND origin='imported' AND deal=? AND"
                                 " variant=? ORDER BY updated DESC, rowid DESC", (player, str(deal), variant.token)):
            if r["moves"].split() == wanted:
                return str(r["id"])
        return None

    def mark_abandoned(self, game_id: str, abandoned: bool) -> None:
        """Set or clear the game's abandoned mark (bumps its version: it changed)."""
        self.db.execute("UPDATE games SET abandoned=?, version=version+1 WHERE id=?",
                        (timestamp() if abandoned else None, game_id))

    def delete(self, game_id: str) -> None:
        self.db.execute("DELETE FROM games WHERE id=?", (game_id,))
        self.db.execute("UPDATE players SET current=NULL WHERE current=?", (game_id,))

    def games(self, player: str | None = None, *, status: str | None = None, limit: int = 100) -> list[GameSummary]:
        """Most recently updated first; ``player=None`` lists every player's games.
        ``status``: playing, won, lost, finished (won or lost), abandoned, or unfinished
        (playing, abandoned included)."""
        sql = ("SELECT id, deal, variant, status, score, passes, moves, created, updated, finished, origin,"
               " result, abandoned FROM games WHERE 1=1")
        args: list[object] = []
        if player is not None:
            sql += " AND player=?"
            args.append(player)
        if status == "finished":
            sql += " AND status != 'playing'"
        elif status == "abandoned":
            sql += " AND status = 'playing' AND abandoned IS NOT NULL"
        elif status == "unfinished":
            sql += " AND status = 'playing'"
        elif status == "playing":
            sql += " AND status = 'playing' AND abandoned IS NULL"
        elif status is not None:
            sql += " AND status=?"
            args.append(status)
        sql += " ORDER BY updated DESC, rowid DESC LIMIT ?"
        args.append(limit)
        return [_summary(r) for r in self.db.execute(sql, args).fetchall()]

    def result_rows(self, variant: Variant, player: str | None = None) -> list[ResultRow]:
        """Every game of ``variant`` (of ``player``, or of all) with what statistics need,
        oldest event first."""
        sql = ("SELECT origin, result, result_score, result_passes, abandoned IS NOT NULL AS left,"
               " COALESCE(finished, abandoned, updated) AS at, id FROM games WHERE variant=?")
        args: list[object] = [variant.token]
        if player is not None:
            sql += " AND player=?"
            args.append(player)
        rows = self.db.execute(sql + " ORDER BY at, rowid", args).fetchall()
        return [ResultRow(_origin(r["origin"]), r["result"], r["result_score"], r["result_passes"], bool(r["left"]),
                          r["at"], r["id"]) for r in rows]

    def daily_rows(self, player: str) -> list[DailyRow]:
        """Every game of ``player`` dealt as a deal of the day, in the order stored."""
        rows = self.db.execute("SELECT id, deal, dealt_on, origin, result, moves != '' AS moved FROM games"
                               " WHERE player=? AND dealt='daily' ORDER BY rowid", (player,)).fetchall()
        return [DailyRow(r["id"], int(r["deal"]), r["dealt_on"], _origin(r["origin"]), r["result"], bool(r["moved"]))
                for r in rows]

    def variants_played(self, player: str | None = None) -> list[Variant]:
        sql = "SELECT DISTINCT variant FROM games"
        args: list[object] = []
        if player is not None:
            sql += " WHERE player=?"
            args.append(player)
        return [Variant.from_token(r["variant"]) for r in self.db.execute(sql, args).fetchall()]

    # ------------------------------------------------------------ whole rows (backups)
    def rows(self, player: str) -> list[GameRow]:
        """Every game of ``player``, every column, in the order they were stored."""
        return [_row(r) for r in self.db.execute(f"SELECT {_ROW_COLUMNS} FROM games WHERE player=? ORDER BY rowid",
                                                 (player,)).fetchall()]

    def owner(self, game_id: str) -> str | None:
        """The player whose game ``game_id`` is, or ``None`` when there is none."""
        head = self.head(game_id)
        return None if head is None else head[0]

    def insert_row(self, player: str, row: GameRow) -> None:
        """Store ``row`` as a new game of ``player``, every column as given."""
        self.db.execute(f"INSERT INTO games (player, {_ROW_COLUMNS}) VALUES (:player, {_NAMED})",
                        vars(row) | {"player": player})

    def replace_row(self, player: str, row: GameRow) -> None:
        """Overwrite ``player``'s game ``row.id`` with ``row`` (every column);
        ``UnknownGame`` if ``player`` has no such game."""
        cur = self.db.execute(f"UPDATE games SET {_ASSIGNED} WHERE id=:id AND player=:player",
                              vars(row) | {"player": player})
        if cur.rowcount != 1:
            raise UnknownGame(f"no such game: {row.id}")


def _moves_text(moves: Sequence[Move]) -> str:
    return " ".join(map(str, moves))


def _refuse_special_file(path: Path) -> None:
    """A path that exists must be a regular file (a link to one will do): SQLite would
    open a device or a FIFO and then create ``<path>-journal`` beside it (``--db
    /dev/null`` left ``/dev/null-journal``), or hang on a FIFO."""
    try:
        st = path.stat()  # follows links
    except FileNotFoundError:
        return  # a new database (or a link to where one will be made)
    if stat.S_ISREG(st.st_mode):
        return
    what = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
            else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
    raise StoreError(f"{path}: is {what}, not a database file")


def _writable(db: sqlite3.Connection) -> bool:
    """Whether SQLite can write the database: a write that is rolled back at once (in
    a rollback journal or WAL nothing reaches the file). SQLite opens a file it may not
    write read-only, without a word, and fails each write later."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        db.execute(f"PRAGMA user_version={version}")
    except sqlite3.OperationalError as e:
        if _code(e) == _SQLITE_READONLY:  # and its extended codes
            return False
        raise
    finally:
        db.execute("ROLLBACK")
    return True


#: SQLite's primary result codes the store tells apart (``sqlite_errorcode & 0xFF``).
_SQLITE_READONLY: Final = 8
_SQLITE_CANTOPEN: Final = 14


def _code(e: sqlite3.Error) -> int:
    """SQLite's primary result code of ``e`` (0 when it has none)."""
    return int(getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF


def _read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` for reading where SQLite cannot create the files it
    keeps beside a database (a read-only folder or mount): ``immutable=1``, SQLite's
    documented way to read a file on read-only media (no locks, no ``-shm`` index, no
    journal; every write is refused, SQLITE_READONLY). It would not see changes still in
    a ``-wal`` or a hot ``-journal``: such a file is refused, in words, rather than read
    as it was before them. (With ``-wal`` and ``-shm`` both there, SQLite opens the file
    by its path and never comes here.)"""
    for suffix in ("-wal", "-journal"):
        side = Path(f"{path}{suffix}")
        with suppress(OSError):
            if side.stat().st_size > 0:
                raise StoreError(f"{path}: cannot be read here: its last changes are still in {side}, and SQLite"
                                 " cannot read them without writing beside the database (its folder is read-only);"
                                 " open it once where it can be written")
    return f"{path.absolute().as_uri()}?mode=ro&immutable=1"


def _check_integrity(db: sqlite3.Connection) -> None:
    """``PRAGMA quick_check``: a file with garbage pages is refused at the start, in one
    line, rather than failing (or worse) in the middle of a game. It reads every page
    once: milliseconds for a player's games."""
    rows = db.execute("PRAGMA quick_check(1)").fetchall()
    if rows != [("ok",)]:
        detail = " ".join(str(rows[0][0] if rows else "").replace("*** in database main ***", "").split())
        raise sqlite3.DatabaseError("database disk image is malformed" + (f": {detail}" if detail else ""))


#: The files SQLite writes beside a database in WAL mode (the journal, the index map).
_WAL_FILES: Final = ("", "-wal", "-shm")
#: Connections kept open for good because closing them could not be done safely (see the
#: module's docstring): their objects are never freed, so no close runs at exit either.
_STRANDED: list[sqlite3.Connection] = []


def _unwritable(path: Path) -> str | None:
    """The first of the database's WAL files that exists and cannot be written now
    (``os.access`` says no for an immutable file, even to root), else ``None``."""
    for suffix in _WAL_FILES:
        name = f"{path}{suffix}"
        if not os.access(name, os.W_OK) and os.path.lexists(name):
            return name
    return None


def _strand(db: sqlite3.Connection) -> None:
    """Keep ``db`` open until the process ends, and beyond the interpreter's own
    clean-up (which would free the object, and closing it would write): it is held by
    a daemon thread that waits for ever, whose frame the interpreter leaves as it is
    when it stops (it never frees a daemon thread's frame)."""
    _STRANDED.append(db)
    if len(_STRANDED) == 1:
        threading.Thread(target=_hold, args=(_STRANDED,), name="firstlast-stranded", daemon=True).start()


def _hold(connections: list[sqlite3.Connection]) -> None:
    threading.Event().wait()


class GameStore:
    """The SQLite store. Safe to use from several threads (their transactions take
    turns on one connection) and processes (SQLite's locks) at once."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        #: True when SQLite opened the file read-only (its permissions, a read-only file
        #: system, an immutable file): games can be read, every write will fail.
        self.read_only = False
        self._conn: sqlite3.Connection | None = None
        self._conn_lock = threading.Lock()
        self._owner: int | None = None  # the thread in a transaction on ``_conn``
        self._reader: sqlite3.Connection | None = None  # reads only (``reading()``)
        self._reader_lock = threading.Lock()
        self._reader_owner: int | None = None
        #: Read connections opened so far (``PRAGMA data_version`` is a connection's own).
        self.readers = 0
        #: The URI SQLite opens the file by when it can only be read where it lies
        #: (``_read_only_uri``), else ``None``: the path itself.
        self._uri: str | None = None
        try:
            _refuse_special_file(self.path)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = self._open()
            try:
                self.read_only = not _writable(db)
            except sqlite3.OperationalError as e:
                # SQLite opens a file it may not write read-only, but in a folder it may
                # not write it cannot make the files a read needs beside it either.
                db.close()
                if _code(e) != _SQLITE_CANTOPEN:
                    raise
                if not self.path.exists():
                    raise StoreError(f"{self.path}: cannot create the database there ({e}); can its folder be"
                                     " written?") from None
                self._uri = _read_only_uri(self.path)
                self.read_only = True
                db = self._open()
            with closing(db):
                _check_integrity(db)  # before a migration writes anything
                if self.read_only:
                    self._check_read_only(db)
                else:
                    self._upgrade(db)
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a usable firstlast database ({e})") from None
        except OSError as e:
            raise StoreError(f"{self.path}: cannot open the database ({e.strerror or e})") from None

    def _check_read_only(self, db: sqlite3.Connection) -> None:
        """A read-only database is served as it is, if it needs no upgrade (which would
        have to write)."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: the database is read-only and needs upgrading (schema {version},"
                             f" this firstlast writes {SCHEMA_VERSION}); make it writable")

    def _upgrade(self, db: sqlite3.Connection) -> None:
        """Bring the schema to ``SCHEMA_VERSION``, one migration after another, all in
        one transaction: a crash mid-way leaves the old schema and its data."""
        db.execute("BEGIN IMMEDIATE")
        try:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if version == 0 and tables:
                if "meta" not in tables:
                    # Another program's database (a mistyped --db): refuse it before the
                    # schema or WAL mode below changes anything in it.
                    raise StoreError(f"{self.path}: not a firstlast database (it holds other tables)")
                # Schema 1 predates user_version and kept its number in meta.
                row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                version = 1 if row is not None and row[0] == "1" else 0
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: written by a newer firstlast (schema {version}, this one reads up to"
                                 f" {SCHEMA_VERSION}); upgrade firstlast")
            for step in MIGRATIONS[version:]:
                step(db)
            if version != SCHEMA_VERSION:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        db.execute(f"PRAGMA journal_mode={runtime.JOURNAL_MODE}")

    def _open(self) -> sqlite3.Connection:
        """A new connection to the database: its path, or the read-only URI."""
        if self._uri is not None:
            return sqlite3.connect(self._uri, uri=True, timeout=10, isolation_level=None, check_same_thread=False)
        return sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)

    def _connect(self) -> sqlite3.Connection:
        db = self._open()
        try:
            db.execute("PRAGMA synchronous=FULL")  # a commit is on disk (fsync) when it returns
            db.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            db.close()
            raise
        return db

    @contextmanager
    def _begin(self, db: sqlite3.Connection) -> Iterator[Transaction]:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield Transaction(db)
            # Again just before the COMMIT, which writes the WAL index through its map:
            # files made unwritable while the transaction ran are caught here, not by SIGBUS.
            self._check_files()
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One write transaction: everything done with the ``Transaction`` commits
        together or not at all.

        Transactions of this store take turns on one long-lived connection (opening one
        and setting it up cost more than a move); a transaction opened inside another
        on the same thread gets a connection of its own, as every one did before. A
        connection that failed is closed (rolling back what it held) and replaced."""
        self._check_files()
        me = threading.get_ident()
        if self._owner == me:
            with closing(self._connect()) as own, self._begin(own) as tx:
                yield tx
            return
        with self._conn_lock:
            self._owner = me
            try:
                db = self._conn
                if db is None:
                    db = self._conn = self._connect()
                try:
                    with self._begin(db) as tx:
                        yield tx
                except BaseException as e:
                    if db.in_transaction or isinstance(e, sqlite3.Error):
                        self._conn = None
                        self._close(db)
                    raise
            finally:
                self._owner = None

    @contextmanager
    def reading(self) -> Iterator[Transaction]:
        """One read transaction: a consistent snapshot of the store, on a connection of
        its own that only reads (``PRAGMA query_only``). It takes no write lock (in WAL
        mode readers and the writer do not wait for each other), so reads never queue
        behind a commit's fsync. Reads take turns on that connection; a read opened
        inside another on the same thread shares its snapshot. Writing through it fails."""
        self._check_files()
        me = threading.get_ident()
        if self._reader_owner == me:
            assert self._reader is not None
            yield Transaction(self._reader)
            return
        with self._reader_lock:
            self._reader_owner = me
            try:
                db = self._reader
                if db is None:
                    db = self._connect()
                    try:
                        db.execute("PRAGMA query_only=ON")
                    except BaseException:
                        db.close()
                        raise
                    self._reader = db
                    self.readers += 1
                try:
                    db.execute("BEGIN")
                    try:
                        yield Transaction(db)
                    finally:
                        db.execute("COMMIT")  # ends the snapshot (nothing was written)
                except sqlite3.Error:
                    self._reader = None
                    self._close(db)
                    raise
            finally:
                self._reader_owner = None

    def _check_files(self) -> None:
        """Refuse (``StoreError``) while a WAL file of an opened, writable database cannot
        be written: SQLite would write to it through its memory map (module docstring)."""
        if self.read_only or runtime.JOURNAL_MODE != "WAL":
            return
        name = _unwritable(self.path)
        if name is not None:
            raise StoreError(f"{name}: cannot be written now (read-only or immutable); nothing was done")

    def _close(self, db: sqlite3.Connection) -> None:
        """Close ``db``, unless that would write to a file that cannot be written now."""
        if not self.read_only and runtime.JOURNAL_MODE == "WAL" and _unwritable(self.path) is not None:
            _strand(db)
            return
        with suppress(sqlite3.Error):
            db.close()

    def close(self) -> None:
        """Close the store's connections (later transactions open others)."""
        with self._conn_lock:
            db, self._conn = self._conn, None
            if db is not None:
                self._close(db)
        with self._reader_lock:
            db, self._reader = self._reader, None
            if db is not None:
                self._close(db)

    def __del__(self) -> None:
        # A connection is only freed by the garbage collector (its statement cache refers
        # back to it): close it with the store, so that the file is left as it was before
        # (the WAL checkpointed and removed) as soon as the store is dropped.
        for name in ("_conn", "_reader"):
            db = getattr(self, name, None)
            if db is not None:
                with suppress(Exception):
                    self._close(db)

    # ------------------------------------------------------------ one-read shortcuts
    # Reads for tools and tests, each a snapshot of its own (``reading()``). There are no
    # write shortcuts: every write is a ``transaction()``'s, which the play layer's group
    # writer opens (``firstlast.play.writer``).
    def has_player(self, player: str) -> bool:
        with self.reading() as tx:
            return tx.has_player(player)

    def load(self, game_id: str, player: str | None = None) -> StoredGame:
        """Load and replay a game; with ``player``, only that player's game."""
        with self.reading() as tx:
            return tx.load(game_id, player)

    def games(self, player: str | None = None, *, status: str | None = None, limit: int = 100) -> list[GameSummary]:
        with self.reading() as tx:
            return tx.games(player, status=status, limit=limit)

    def settings(self, player: str) -> dict[str, object]:
        with self.reading() as tx:
            return tx.settings(player)
