"""Reading a game record from a file, once for every face (the CLI's ``replay``, the
terminal's import). The engine reads record *text* (``engine.record``); this is the I/O
around it: only a small regular UTF-8 file is read, and anything else is refused in one
line before it is opened for reading (``replay FIFO`` used to block forever, ``replay
/dev/zero`` to read on)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .engine.record import MAX_RECORD_BYTES

__all__ = ["MAX_RECORD_BYTES", "RecordFileError", "read_record_file"]


class RecordFileError(ValueError):
    """A record file that cannot be read: one line naming the file and why. ``code``
    says why to a face that words it itself: ``not_regular``, ``too_large``,
    ``not_text``, or ``unreadable`` (``os_error`` is then the system's error)."""

    def __init__(self, message: str, code: str, os_error: OSError | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.os_error = os_error


def read_record_file(path: Path, limit: int = MAX_RECORD_BYTES) -> str:
    """The text of a record file, decoded from UTF-8 as it is: a byte-order mark stays in
    the text, for the text's own reader to judge (``engine.record``, ``play.backup``: one
    is ignored, two are refused), the same for a file as for text sent to the web.
    ``limit``: the most bytes read (the record reader's own bound by default; a backup,
    ``firstlast import``, may be larger)."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise RecordFileError(f"{path}: not a regular file", "not_regular")
        if st.st_size > limit:
            raise RecordFileError(f"{path}: too large for a game record (over {limit:,} bytes)",
                                  "too_large")
        # Non-blocking, and checked again once open: the name may have been swapped meanwhile.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise RecordFileError(f"{path}: not a regular file", "not_regular")
            data = f.read(limit + 1)
    except OSError as e:
        raise RecordFileError(f"cannot read {path}: {e.strerror or e}", "unreadable", e) from None
    if len(data) > limit:
        raise RecordFileError(f"{path}: too large for a game record (over {limit:,} bytes)", "too_large")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordFileError(f"{path}: not a text file (not UTF-8)", "not_text") from None
