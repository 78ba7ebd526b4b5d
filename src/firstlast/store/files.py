"""The database's files, as SQLite cannot guard them (docs/play.md, "Storage faults"): a
special file refused, a read-only one opened read-only, a damaged one refused at the
start, and WAL files that stop being writable while open."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from contextlib import suppress
from pathlib import Path

from .records import StoreError


def refuse_special_file(path: Path) -> None:
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


def writable(db: sqlite3.Connection) -> bool:
    """Whether SQLite can write the database: a write that is rolled back at once (in
    a rollback journal or WAL nothing reaches the file). SQLite opens a file it may not
    write read-only, without a word, and fails each write later."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        db.execute(f"PRAGMA user_version={version}")
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_READONLY:  # the primary code: its extended codes too
            return False
        raise
    finally:
        db.execute("ROLLBACK")
    return True


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` for reading where SQLite cannot create the files it
    keeps beside a database (a read-only folder or mount): ``immutable=1``, SQLite's
    documented way to read a file on read-only media. It would not see changes still in
    a ``-wal`` or a hot ``-journal``: such a file is refused, in words, rather than read
    as it was before them."""
    for suffix in ("-wal", "-journal"):
        side = Path(f"{path}{suffix}")
        with suppress(OSError):
            if side.stat().st_size > 0:
                raise StoreError(f"{path}: cannot be read here: its last changes are still in {side}, and SQLite"
                                 " cannot read them without writing beside the database (its folder is read-only);"
                                 " open it once where it can be written")
    return f"{path.absolute().as_uri()}?mode=ro&immutable=1"


def check_integrity(db: sqlite3.Connection) -> None:
    """``PRAGMA quick_check``: a file with garbage pages is refused at the start, in one
    line, rather than failing (or worse) in the middle of a game. It reads every page
    once: milliseconds for a player's games."""
    rows = db.execute("PRAGMA quick_check(1)").fetchall()
    if rows != [("ok",)]:
        detail = " ".join(str(rows[0][0] if rows else "").replace("*** in database main ***", "").split())
        raise sqlite3.DatabaseError("database disk image is malformed" + (f": {detail}" if detail else ""))


def unwritable(path: Path) -> str | None:
    """The first of the database's WAL files (it, its journal and its index map) that
    exists and cannot be written now (``os.access`` says no for an immutable file, even
    to root), else ``None``."""
    for suffix in ("", "-wal", "-shm"):
        name = f"{path}{suffix}"
        if not os.access(name, os.W_OK) and os.path.lexists(name):
            return name
    return None


def strand(db: sqlite3.Connection) -> None:
    """Keep ``db`` open until the process ends, and beyond the interpreter's own
    clean-up (which would free the object, and closing it would write): it is held by
    a daemon thread that waits for ever, whose frame the interpreter leaves as it is
    when it stops (it never frees a daemon thread's frame)."""
    threading.Thread(target=_hold, args=(db,), name="firstlast-stranded", daemon=True).start()


def _hold(db: sqlite3.Connection) -> None:
    threading.Event().wait()
