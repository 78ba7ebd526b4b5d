"""Saved games and statistics in an embedded SQLite database.

Shared by the browser game and the terminal game, so a game started in one can be
finished in the other. A game row holds what defines the game — deal, variant, move
list — plus the redo line; everything else is derived by replaying through the engine.
Each save is one transaction (atomic: a crash leaves the previous save intact), guarded
by a version number so that two writers can never silently lose a move.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from .engine import Game, Variant
from .engine.errors import FirstLastError
from .engine.record import game_from_record, record_to_text

SCHEMA_VERSION = 1
_SCHEMA = """
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
    status TEXT NOT NULL,          -- playing | won | lost
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


class StoreError(FirstLastError):
    """A stored game that cannot be found, read or written."""


class UnknownGame(StoreError):
    """No such game (or it belongs to another player)."""


class StoreConflict(StoreError):
    """Someone else saved the game since it was loaded."""


def default_db_path() -> Path:
    """``firstlast.sqlite3`` in the user's data folder (platformdirs)."""
    return Path(platformdirs.user_data_dir("firstlast", appauthor=False)) / "firstlast.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class StoredGame:
    """A game as stored, replayed through the engine."""

    id: str
    player: str
    game: Game
    version: int
    created: str
    updated: str
    finished: str | None


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

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id, "deal": str(self.deal), "variant": self.variant.token, "status": self.status,
            "score": self.score, "passes": self.passes, "moves": self.moves, "created": self.created,
            "updated": self.updated, "finished": self.finished,
        }


@dataclass
class Stats:
    """Statistics of finished games for one variant."""

    variant: Variant
    played: int = 0
    won: int = 0
    current_streak: int = 0
    best_streak: int = 0
    scores: list[int] = field(default_factory=list)  # one per finished game, oldest first
    passes_total: int = 0

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_passes(self) -> float:
        return self.passes_total / self.played if self.played else 0.0

    def score_histogram(self) -> list[int]:
        """Count of finished games by score 0…104."""
        hist = [0] * 105
        for s in self.scores:
            hist[s] += 1
        return hist

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant.token, "description": self.variant.describe(), "played": self.played,
            "won": self.won, "win_rate": self.win_rate, "current_streak": self.current_streak,
            "best_streak": self.best_streak, "average_passes": self.average_passes,
            "score_histogram": self.score_histogram(),
        }


class GameStore:
    """The SQLite store. Every method opens its own connection, so it is safe to use
    from several threads and processes at once."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(self.path, timeout=10, isolation_level=None)) as db:
                tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if tables and "meta" not in tables:
                    # Another program's database (a mistyped --db): refuse it before the
                    # schema or WAL mode below changes anything in it.
                    raise StoreError(f"{self.path}: not a firstlast database (it holds other tables)")
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(_SCHEMA)
            with self._connect() as db:
                row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                elif row[0] != str(SCHEMA_VERSION):
                    raise StoreError(f"{self.path}: database schema {row[0]}, this program reads {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a usable firstlast database ({e})") from None
        except OSError as e:
            raise StoreError(f"{self.path}: cannot open the database ({e.strerror or e})") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=10, isolation_level=None)) as db:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    # ---------------------------------------------------------------- players
    def new_player(self) -> str:
        pid = secrets.token_urlsafe(18)
        with self._connect() as db:
            db.execute("INSERT INTO players (id, created) VALUES (?, ?)", (pid, _now()))
        return pid

    def has_player(self, player: str) -> bool:
        with self._connect() as db:
            return db.execute("SELECT 1 FROM players WHERE id=?", (player,)).fetchone() is not None

    def local_player(self) -> str:
        """The player of this machine's own user: the terminal game plays as it, and the
        browser that ``firstlast play`` opens is signed in as it."""
        with self._connect() as db:
            row = db.execute("SELECT value FROM meta WHERE key='local_player'").fetchone()
            if row is not None:
                return str(row[0])
            pid = secrets.token_urlsafe(18)
            db.execute("INSERT INTO players (id, created) VALUES (?, ?)", (pid, _now()))
            db.execute("INSERT INTO meta VALUES ('local_player', ?)", (pid,))
            return pid

    def settings(self, player: str) -> dict[str, object]:
        with self._connect() as db:
            row = db.execute("SELECT settings FROM players WHERE id=?", (player,)).fetchone()
        if row is None:
            raise UnknownGame("unknown player")
        value = json.loads(row[0])
        return value if isinstance(value, dict) else {}

    def save_settings(self, player: str, settings: dict[str, object]) -> None:
        with self._connect() as db:
            db.execute("UPDATE players SET settings=? WHERE id=?", (json.dumps(settings), player))

    # ---------------------------------------------------------------- games
    def create(self, player: str, deal: int, variant: Variant) -> StoredGame:
        """Start deal ``deal`` under ``variant`` for ``player``; returns it (id unguessable)."""
        game = Game(deal, variant)
        gid = secrets.token_urlsafe(18)
        now = _now()
        with self._connect() as db:
            db.execute(
                "INSERT INTO games (id, player, deal, variant, status, score, passes, created, updated)"
                " VALUES (?, ?, ?, ?, 'playing', 0, 1, ?, ?)",
                (gid, player, str(deal), variant.token, now, now),
            )
        return StoredGame(gid, player, game, 0, now, now, None)

    def load(self, game_id: str, player: str | None = None) -> StoredGame:
        """Load and replay a game; with ``player``, only that player's game."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, player, deal, variant, moves, redo, version, created, updated, finished"
                " FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None or (player is not None and row[1] != player):
            raise UnknownGame(f"no such game: {game_id}")
        try:
            game = Game(int(row[2]), Variant.from_token(row[3]), row[4].split(), row[5].split())
        except (FirstLastError, ValueError) as e:
            raise StoreError(f"stored game {game_id} is corrupt: {e}") from None
        return StoredGame(row[0], row[1], game, row[6], row[7], row[8], row[9])

    def save(self, stored: StoredGame) -> None:
        """Write the game's moves and redo line; raises ``StoreConflict`` if someone else
        saved it since it was loaded (then nothing is written)."""
        g = stored.game
        pos = g.position
        now = _now()
        finished = stored.finished
        if pos.status != "playing" and finished is None:
            finished = now
        elif pos.status == "playing":
            finished = None
        with self._connect() as db:
            cur = db.execute(
                "UPDATE games SET moves=?, redo=?, status=?, score=?, passes=?, version=version+1,"
                " updated=?, finished=? WHERE id=? AND version=?",
                (" ".join(map(str, g.moves)), " ".join(map(str, g.redo_moves)), pos.status, pos.score,
                 pos.passes, now, finished, stored.id, stored.version),
            )
            if cur.rowcount != 1:
                raise StoreConflict(f"game {stored.id} was changed elsewhere; reload it")
        stored.version += 1
        stored.updated = now
        stored.finished = finished

    def delete(self, game_id: str, player: str | None = None) -> None:
        with self._connect() as db:
            if player is None:
                db.execute("DELETE FROM games WHERE id=?", (game_id,))
            else:
                db.execute("DELETE FROM games WHERE id=? AND player=?", (game_id, player))

    def games(self, player: str | None = None, *, status: str | None = None, limit: int = 100) -> list[GameSummary]:
        """Most recently updated first; ``player=None`` lists every player's games."""
        sql = ("SELECT id, deal, variant, status, score, passes, moves, created, updated, finished"
               " FROM games WHERE 1=1")
        args: list[object] = []
        if player is not None:
            sql += " AND player=?"
            args.append(player)
        if status == "finished":
            sql += " AND status != 'playing'"
        elif status is not None:
            sql += " AND status=?"
            args.append(status)
        sql += " ORDER BY updated DESC, rowid DESC LIMIT ?"
        args.append(limit)
        with self._connect() as db:
            rows = db.execute(sql, args).fetchall()
        return [
            GameSummary(r[0], int(r[1]), Variant.from_token(r[2]), r[3], r[4], r[5], len(r[6].split()),
                        r[7], r[8], r[9])
            for r in rows
        ]

    def stats(self, variant: Variant, player: str | None = None) -> Stats:
        """Statistics of the finished games of ``variant`` (of ``player``, or of all)."""
        sql = "SELECT status, score, passes FROM games WHERE variant=? AND status != 'playing'"
        args: list[object] = [variant.token]
        if player is not None:
            sql += " AND player=?"
            args.append(player)
        with self._connect() as db:
            rows = db.execute(sql + " ORDER BY finished, rowid", args).fetchall()
        st = Stats(variant)
        streak = 0
        for status, score, passes in rows:
            st.played += 1
            st.scores.append(score)
            st.passes_total += passes
            if status == "won":
                st.won += 1
                streak += 1
                st.best_streak = max(st.best_streak, streak)
            else:
                streak = 0
        st.current_streak = streak
        return st

    def variants_played(self, player: str | None = None) -> list[Variant]:
        sql = "SELECT DISTINCT variant FROM games"
        args: list[object] = []
        if player is not None:
            sql += " WHERE player=?"
            args.append(player)
        with self._connect() as db:
            return [Variant.from_token(r[0]) for r in db.execute(sql, args).fetchall()]

    # ---------------------------------------------------------------- records
    def export_record(self, game_id: str, player: str | None = None) -> str:
        stored = self.load(game_id, player)
        return record_to_text(stored.game, date=stored.created[:10])

    def import_record(self, player: str, text: str) -> StoredGame:
        """Store a game from its text record (checked by replaying; ``RecordError`` if bad)."""
        game = game_from_record(text)
        stored = self.create(player, game.deal, game.variant)
        stored.game = game
        self.save(stored)
        return stored
