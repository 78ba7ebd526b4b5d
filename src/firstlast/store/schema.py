"""The store's schema, versioned with ``PRAGMA user_version`` and upgraded by the ordered
``MIGRATIONS``: a database written by an older firstlast is upgraded in place, in one
transaction, without losing a game or a statistic."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import suppress
from typing import Final

from ..engine import Variant

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
    transaction first, and migrations must be all or nothing). A part that is only a
    comment or blank runs as nothing."""
    for statement in sql.split(";"):
        db.execute(statement)


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
    # terminal as a token; both become the one token. The other keys both faces wrote
    # are kept as they were: the play layer reads settings leniently (a value that does
    # not check takes its default), so the store states no setting's bounds.
    for pid, text in db.execute("SELECT id, settings FROM players").fetchall():
        try:
            old = json.loads(text)
        except ValueError:
            old = {}
        if not isinstance(old, dict):
            old = {}
        new = {key: old[key] for key in ("lang", "speed", "show_chance", "verbosity") if key in old}
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
