"""Refusals as the terminal says them: the play layer's code and parameters in the
player's language, by the one renderer every face uses (``i18n.error_text``), never by
reading the English sentence."""

from __future__ import annotations

from .. import i18n
from ..play import PlayError


def error_text(error: PlayError, lang: str = "en") -> str:
    """What the status line says for ``error``, in ``lang``."""
    return i18n.error_text(error.code, error.params, lang)

