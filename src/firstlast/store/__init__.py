"""Saved games, players and settings in an embedded SQLite database (docs/play.md,
"Storage and migrations", "Storage faults").

It stores and reads, and decides nothing: what is stored when is the play layer's policy
(``firstlast.play``). Each transaction is atomic, and every game update is guarded by a
version number, so two writers can never silently lose a move. WAL files that stop being
writable while open are refused before SQLite touches them (``_check_files``: a write
through ``-shm``'s memory map would end the process by SIGBUS).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path

from .. import runtime
from .files import (
    check_integrity,
    read_only_uri,
    refuse_special_file,
    strand,
    unwritable,
    writable,
)
from .records import (
    DailyRow,
    GameRow,
    GameSummary,
    Origin,
    ResultRow,
    StoreConflict,
    StoredGame,
    StoreError,
    TransactionBroken,
    UnknownGame,
    new_id,
    timestamp,
)
from .schema import MIGRATIONS, SCHEMA_VERSION
from .transaction import Transaction

__all__ = [
    "MIGRATIONS", "SCHEMA_VERSION", "DailyRow", "GameRow", "GameStore", "GameSummary", "Origin",
    "ResultRow", "StoreConflict", "StoreError", "StoredGame", "Transaction", "TransactionBroken", "UnknownGame",
    "new_id", "timestamp",
]


class _Seat:
    """A connection that transactions take turns on, kept open (opening one and setting
    it up cost more than a move): opened with ``pragmas`` when first needed."""

    def __init__(self, *pragmas: str) -> None:
        self.pragmas = pragmas
        self.db: sqlite3.Connection | None = None
        self.lock = threading.Lock()
        self.owner: int | None = None  # the thread whose turn it is
        self.opened = 0  # connections opened so far


class GameStore:
    """The SQLite store. Safe to use from several threads (their transactions take
    turns on one connection) and processes (SQLite's locks) at once."""

    def __init__(self, path: Path | str | None = None) -> None:
        if path is None:  # the player's own, in the user's data folder
            import platformdirs  # here: the site's worker never asks, and it costs a start tempfile and more

            path = Path(platformdirs.user_data_dir("firstlast", appauthor=False)) / "firstlast.sqlite3"
        self.path = Path(path)
        #: True when SQLite opened the file read-only (its permissions, a read-only file
        #: system, an immutable file): games can be read, every write will fail.
        self.read_only = False
        self._writes = _Seat()
        self._reads = _Seat("query_only=ON")
        #: The URI SQLite opens the file by when it can only be read where it lies
        #: (``read_only_uri``), else ``None``: the path itself.
        self._uri: str | None = None
        try:
            refuse_special_file(self.path)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = self._open()
            try:
                self.read_only = not writable(db)
            except sqlite3.OperationalError as e:
                # SQLite opens a file it may not write read-only, but in a folder it may
                # not write it cannot make the files a read needs beside it either.
                db.close()
                if e.sqlite_errorcode & 0xFF != sqlite3.SQLITE_CANTOPEN:
                    raise
                if not self.path.exists():
                    raise StoreError(f"{self.path}: cannot create the database there ({e}); can its folder be"
                                     " written?") from None
                self._uri = read_only_uri(self.path)
                self.read_only = True
                db = self._open()
            with closing(db):
                check_integrity(db)  # before a migration writes anything
                version = int(db.execute("PRAGMA user_version").fetchone()[0])
                if self.read_only and version != SCHEMA_VERSION:  # an upgrade would have to write
                    raise StoreError(f"{self.path}: the database is read-only and needs upgrading (schema {version},"
                                     f" this firstlast writes {SCHEMA_VERSION}); make it writable")
                if not self.read_only:
                    self._upgrade(db)
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a usable firstlast database ({e})") from None
        except OSError as e:
            raise StoreError(f"{self.path}: cannot open the database ({e.strerror or e})") from None

    def _upgrade(self, db: sqlite3.Connection) -> None:
        """Bring the schema to ``SCHEMA_VERSION``, one migration after another, all in
        one transaction: a crash mid-way leaves the old schema and its data."""
        with self._begin(db):
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
        db.execute(f"PRAGMA journal_mode={runtime.JOURNAL_MODE}")

    def _open(self) -> sqlite3.Connection:
        return sqlite3.connect(self._uri or self.path, uri=self._uri is not None, timeout=10, isolation_level=None,
                               check_same_thread=False)

    def _connect(self, *pragmas: str) -> sqlite3.Connection:
        db = self._open()
        try:
            # synchronous=FULL: a commit is on disk (fsync) when it returns.
            for pragma in ("synchronous=FULL", "foreign_keys=ON", *pragmas):
                db.execute(f"PRAGMA {pragma}")
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
    def _turn(self, seat: _Seat) -> Iterator[sqlite3.Connection]:
        """``seat``'s connection, this thread's alone until the block ends. A connection
        that failed is closed (rolling back what it held) and replaced; SQLite's errors
        leave as ``StoreError``."""
        if seat.owner == threading.get_ident():
            # It would wait for itself: for the seat's lock, and a write's BEGIN IMMEDIATE
            # for the outer one's write lock too (SQLite gave up after 10 s, "locked").
            raise RuntimeError("a transaction cannot be opened inside another of its kind on the same thread")
        with seat.lock:
            seat.owner = threading.get_ident()
            try:
                if seat.db is None:
                    seat.db = self._connect(*seat.pragmas)
                    seat.opened += 1
                db = seat.db
                try:
                    yield db
                except BaseException as e:
                    if db.in_transaction or isinstance(e, sqlite3.Error):
                        seat.db = None
                        self._close(db)
                    raise
            except sqlite3.Error as e:  # SQLite's failures are the store's: callers catch StoreError alone
                raise StoreError(str(e)) from e
            finally:
                seat.owner = None

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One write transaction: everything done with the ``Transaction`` commits
        together or not at all. Write transactions take turns on one connection."""
        self._check_files()
        with self._turn(self._writes) as db, self._begin(db) as tx:
            yield tx

    @contextmanager
    def reading(self) -> Iterator[Transaction]:
        """One read transaction: a consistent snapshot of the store, on a connection of
        its own that only reads (``PRAGMA query_only``). It takes no write lock (in WAL
        mode readers and the writer do not wait for each other), so reads never queue
        behind a commit's fsync. Reads take turns on that connection. Writing through it
        fails, and so does a read opened inside another on the same thread (RuntimeError)."""
        self._check_files()
        with self._turn(self._reads) as db:
            db.execute("BEGIN")
            try:
                yield Transaction(db)
            finally:
                db.execute("COMMIT")  # ends the snapshot (nothing was written)

    @property
    def readers(self) -> int:
        """Read connections opened so far (``PRAGMA data_version`` is a connection's own)."""
        return self._reads.opened

    def _check_files(self) -> None:
        """Refuse (``StoreError``) while a WAL file of a writable database cannot be written."""
        if self.read_only or runtime.JOURNAL_MODE != "WAL":
            return
        name = unwritable(self.path)
        if name is not None:
            raise StoreError(f"{name}: cannot be written now (read-only or immutable); nothing was done")

    def _close(self, db: sqlite3.Connection) -> None:
        """Close ``db``, unless that would write to a file that cannot be written now."""
        if not self.read_only and runtime.JOURNAL_MODE == "WAL" and unwritable(self.path) is not None:
            strand(db)
            return
        with suppress(sqlite3.Error):
            db.close()

    def close(self) -> None:
        """Close the store's connections (later transactions open others)."""
        for seat in (self._writes, self._reads):
            with seat.lock:
                db, seat.db = seat.db, None
                if db is not None:
                    self._close(db)

    def __del__(self) -> None:
        # A connection is only freed by the garbage collector (its statement cache refers
        # back to it): close it with the store, so that the file is left as it was before
        # (the WAL checkpointed and removed) as soon as the store is dropped.
        with suppress(Exception):  # (an __init__ that failed may have left no seats)
            self.close()
