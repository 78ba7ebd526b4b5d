"""``Transaction``: every read and write of the store, inside one SQLite transaction (no
caller runs SQL of its own); rows are read by column name (``sqlite3.Row``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Final

import msgspec

from ..engine import Game, Move, Variant
from ..engine.errors import FirstLastError
from .records import (
    COLUMNS_AS_STORED,
    DailyRow,
    GameRow,
    GameSummary,
    ResultRow,
    StoreConflict,
    StoredGame,
    StoreError,
    TransactionBroken,
    UnknownGame,
    new_id,
    timestamp,
)

#: The columns of a game row, by name: ``GameRow``'s fields.
_COLUMNS: Final = GameRow.__struct_fields__
_ROW_COLUMNS: Final = ", ".join(_COLUMNS)
_NAMED: Final = ", ".join(f":{c}" for c in _COLUMNS)
_ASSIGNED: Final = ", ".join(f"{c}=:{c}" for c in _COLUMNS if c != "id")


def _row(r: sqlite3.Row) -> GameRow:
    return GameRow(**{name: r[name] for name in _COLUMNS})


class Transaction:
    """Reads and writes inside one SQLite transaction (``GameStore.transaction()``, or
    ``GameStore.reading()`` to read)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.row_factory = sqlite3.Row  # columns by name
        self._savepoints = 0  # savepoints open now (their names are by depth)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """A part of the transaction that is undone alone: if the block raises, what it
        wrote is rolled back and the exception goes on (the rest of the transaction is
        kept; SQLite's error as ``StoreError``); if it ends, its writes stay, to commit with
        the transaction. Savepoints nest. When the undo or the release itself fails,
        ``TransactionBroken`` is raised: the transaction cannot go on (roll it back whole)."""
        name = f"part{self._savepoints}"
        self._unbroken(f"SAVEPOINT {name}")
        self._savepoints += 1
        try:
            yield
        except BaseException as e:
            self._unbroken(f"ROLLBACK TO {name}", f"RELEASE {name}")
            if isinstance(e, sqlite3.Error):
                raise StoreError(str(e)) from e
            raise
        else:
            self._unbroken(f"RELEASE {name}")
        finally:
            self._savepoints -= 1

    def _unbroken(self, *statements: str) -> None:
        try:
            for sql in statements:
                self.db.execute(sql)
        except sqlite3.Error as e:
            raise TransactionBroken(str(e)) from e

    # ------------------------------------------------------------ the store's own notes
    def meta(self, key: str) -> str | None:
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
        try:
            return {} if row is None else msgspec.json.decode(row[0], type=dict[str, object])
        except ValueError:  # not JSON, or not an object: the play layer's defaults stand
            return {}

    def save_settings(self, player: str, settings: dict[str, object]) -> None:
        self.db.execute("UPDATE players SET settings=? WHERE id=?", (json.dumps(settings), player))

    def current(self, player: str) -> str | None:
        row = self.db.execute("SELECT current FROM players WHERE id=?", (player,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def set_current(self, player: str, game_id: str | None) -> None:
        self.db.execute("UPDATE players SET current=? WHERE id=?", (game_id, player))

    # ------------------------------------------------------------ games
    def insert(self, stored: StoredGame) -> None:
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
        return StoredGame(player=r["player"], game=game, **{name: getattr(row, name) for name in COLUMNS_AS_STORED})

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
        """Write the game as it is now (``StoredGame.row``), a version on; ``StoreConflict``
        if it was saved elsewhere since it was loaded (then nothing is written)."""
        row = msgspec.structs.replace(stored.row(), version=stored.version + 1, updated=timestamp())
        cur = self.db.execute(f"UPDATE games SET {_ASSIGNED} WHERE id=:id AND version=:loaded",
                              msgspec.structs.asdict(row) | {"loaded": stored.version})
        if cur.rowcount != 1:
            raise StoreConflict(f"game {stored.id} was changed elsewhere; reload it")
        stored.version = row.version
        stored.updated = row.updated

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
        return [GameSummary(r["id"], r["deal"], r["variant"], Variant.from_token(r["variant"]).describe(), r["status"],
                            r["score"], r["passes"], len(r["moves"].split()), r["created"], r["updated"],
                            r["finished"], r["origin"], r["result"], r["abandoned"] is not None)
                for r in self.db.execute(sql, args).fetchall()]

    def result_rows(self, variant: Variant, player: str) -> list[ResultRow]:
        """Every game of ``player`` in ``variant``, oldest event first."""
        rows = self.db.execute("SELECT origin, result, result_score, result_passes, abandoned IS NOT NULL AS left,"
                               " COALESCE(finished, abandoned, updated) AS at, id FROM games WHERE variant=? AND"
                               " player=? ORDER BY at, rowid", (variant.token, player)).fetchall()
        return [ResultRow(r["origin"], r["result"], r["result_score"], r["result_passes"], bool(r["left"]), r["at"],
                          r["id"]) for r in rows]

    def daily_rows(self, player: str) -> list[DailyRow]:
        """Every game of ``player`` dealt as a deal of the day, in the order stored."""
        rows = self.db.execute("SELECT id, deal, dealt_on, origin, result, moves != '' AS moved FROM games"
                               " WHERE player=? AND dealt='daily' ORDER BY rowid", (player,)).fetchall()
        return [DailyRow(r["id"], int(r["deal"]), r["dealt_on"], r["origin"], r["result"], bool(r["moved"]))
                for r in rows]

    def variants_played(self, player: str) -> list[Variant]:
        rows = self.db.execute("SELECT DISTINCT variant FROM games WHERE player=?", (player,)).fetchall()
        return [Variant.from_token(r["variant"]) for r in rows]

    # ------------------------------------------------------------ whole rows (backups)
    def rows(self, player: str) -> list[GameRow]:
        return [_row(r) for r in self.db.execute(f"SELECT {_ROW_COLUMNS} FROM games WHERE player=? ORDER BY rowid",
                                                 (player,)).fetchall()]

    def insert_row(self, player: str, row: GameRow) -> None:
        self.db.execute(f"INSERT INTO games (player, {_ROW_COLUMNS}) VALUES (:player, {_NAMED})",
                        msgspec.structs.asdict(row) | {"player": player})

    def replace_row(self, player: str, row: GameRow) -> None:
        """Overwrite ``player``'s game ``row.id`` with ``row``: ``UnknownGame`` if there is none."""
        cur = self.db.execute(f"UPDATE games SET {_ASSIGNED} WHERE id=:id AND player=:player",
                              msgspec.structs.asdict(row) | {"player": player})
        if cur.rowcount != 1:
            raise UnknownGame(f"no such game: {row.id}")
