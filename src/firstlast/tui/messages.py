"""Refusals as the terminal says them: the play layer's code and parameters in the
player's language, by the one renderer every face uses (``i18n.error_text``), never by
reading the English sentence; and why a record file could not be read, from its code."""

from __future__ import annotations

import errno

from .. import i18n
from ..play import PlayError
from ..recordfile import MAX_RECORD_BYTES, RecordFileError


def error_text(error: PlayError, lang: str = "en") -> str:
    """What the status line says for ``error``, in ``lang``."""
    return i18n.error_text(error.code, error.params, lang)


def record_file_text(error: RecordFileError, path: str, lang: str = "en") -> str:
    """Why a record file could not be read, from its code, in ``lang`` (the system's
    reason for an unreadable file by its errno name: "No such file", in words)."""
    if error.code == "unreadable" and error.os_error is not None:
        reason = i18n.catalog(lang).get(f"record_file.errno.{errno.errorcode.get(error.os_error.errno or 0, '')}")
        return i18n.t(lang, "record_file.unreadable", path=path,
                      reason=reason or error.os_error.strerror or i18n.t(lang, "record_file.errno.other"))
    return i18n.t(lang, f"record_file.{error.code}", path=path, max=MAX_RECORD_BYTES)
