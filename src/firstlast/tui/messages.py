"""Refusals as the terminal says them: made from the refusal's code and parameters in
the player's language (``firstlast.i18n``), never by reading the English sentence.

The engine's refusals (``engine.errors.REFUSALS``) reach the terminal inside the play
layer's ``move.illegal`` (code in ``params["refusal"]``, its parameters beside it) and
are worded by ``i18n.refusal_text``. English names a card in the notation of the table
(``8♠``, not the engine's ``8s``); Russian names it in words. The play layer's other
codes have a ``error.<code>`` sentence each; one whose parameters do not fill it (a
free-text ``reason``) keeps the play layer's sentence.
"""

from __future__ import annotations

import errno
from collections.abc import Mapping

from .. import i18n
from ..engine import Card
from ..engine.errors import REFUSALS
from ..play import PlayError
from ..recordfile import MAX_RECORD_BYTES, RecordFileError
from . import cards as C


def card_text(token: object) -> str:
    """A card parameter (engine notation, ``8s``) as the table shows it (``8♠``);
    anything that is not a card is left as it is."""
    try:
        return C.pretty(Card.from_token(str(token)))
    except ValueError:
        return str(token)


def refusal_text(code: str, params: Mapping[str, object], lang: str = "en") -> str | None:
    """The engine refusal ``code`` said from ``params`` in ``lang`` (English cards with
    suit symbols, as on the table); ``None`` if the code is not one of the engine's or
    its parameters do not fit."""
    if code not in REFUSALS:
        return None
    values: dict[str, object] = dict(params)
    if lang == "en" and "card" in values:
        values["card"] = card_text(values["card"])
    try:
        return i18n.refusal_text(code, values, lang)
    except (KeyError, ValueError):
        return None


def error_text(error: PlayError, lang: str = "en") -> str:
    """What the status line says for ``error``, in ``lang``."""
    params = error.params
    if error.code == "move.illegal":
        code = params.get("refusal")
        if isinstance(code, str):
            text = refusal_text(code, params, lang)
            if text is not None:
                return text
    key = f"error.{error.code}"
    template = i18n.catalog(lang).get(key)
    if template is not None and i18n.placeholders(template) <= set(params):
        return i18n.fill(template, params)
    return error.message


def record_file_text(error: RecordFileError, path: str, lang: str = "en") -> str:
    """Why a record file could not be read, from its code, in ``lang`` (the system's
    reason for an unreadable file by its errno name: "No such file", in words)."""
    if error.code == "unreadable" and error.os_error is not None:
        reason = i18n.catalog(lang).get(f"record_file.errno.{errno.errorcode.get(error.os_error.errno or 0, '')}")
        return i18n.t(lang, "record_file.unreadable", path=path,
                      reason=reason or error.os_error.strerror or i18n.t(lang, "record_file.errno.other"))
    return i18n.t(lang, f"record_file.{error.code}", path=path, max=MAX_RECORD_BYTES)
