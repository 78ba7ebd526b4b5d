"""Reading a game record from a file, once for every face (the CLI's ``replay``, the
terminal's import). The engine reads record *text* (``engine.record``); this is the I/O
around it: only a small regular UTF-8 file is read, and anything else is refused in one
line before it is opened for reading (``replay FIFO`` used to block forever, ``replay
/dev/zero`` to read on)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from .engine.record import MAX_RECORD_BYTES


class RecordFileError(ValueError):
    """A record file that cannot be read, and why: ``code`` is ``not_regular``,
    ``too_large`` (over ``limit`` bytes), ``not_text``, or ``unreadable`` (``os_error`` is
    then the system's error). Every face words it by ``i18n.file_error_text``."""

    def __init__(self, code: str, limit: int, os_error: OSError | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.limit = limit
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
            raise RecordFileError("not_regular", limit)
        if st.st_size > limit:
            raise RecordFileError("too_large", limit)
        # Non-blocking, and checked again once open: the name may have been swapped meanwhile.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise RecordFileError("not_regular", limit)
            return read_record_stream(f, limit)
    except OSError as e:
        raise RecordFileError("unreadable", limit, e) from None


def read_record_stream(f: BinaryIO, limit: int) -> str:
    """The text of an open binary stream (the file, or standard input: ``firstlast
    import -``), by the same bound and decoding as ``read_record_file``."""
    data = f.read(limit + 1)
    if len(data) > limit:
        raise RecordFileError("too_large", limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordFileError("not_text", limit) from None
