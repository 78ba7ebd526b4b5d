"""The play layer's refusals: a stable code, its parameters, and a kind (docs/play.md,
"Errors"). Faces never read the English sentence to decide anything.
"""

from __future__ import annotations

from typing import Final, Literal

from ..engine.errors import FirstLastError, IllegalMoveError, InvalidMoveError
from ..i18n import error_text

#: ``invalid``: the request itself is malformed or out of range (nothing was tried);
#: ``illegal``: well formed, but the rules or the game's state refuse it now;
#: ``not_found``: no such game for this player; ``conflict``: the game changed
#: elsewhere; ``busy``: the same long work is under way for this player, or too much of
#: it for everyone (ask again later); ``unavailable``: storage or an optional part is not
#: usable right now, or the program is stopping.
Kind = Literal["invalid", "illegal", "not_found", "conflict", "busy", "unavailable"]

#: Every code and its kind. Its words are the catalogs' (``error.<code>`` in
#: ``i18n/en.json`` and ``ru.json``), said by ``i18n.error_text``.
CODES: Final[dict[str, Kind]] = {
    "deal.invalid": "invalid", "deal.range": "invalid",
    "variant.invalid": "invalid", "variant.redeals": "invalid", "variant.field": "invalid",
    "move.invalid": "invalid", "move.illegal": "illegal", "game.over": "illegal",
    "undo.empty": "illegal", "redo.empty": "illegal", "next.none": "illegal", "again.none": "illegal",
    "game.unknown": "not_found", "game.changed": "conflict",
    "record.invalid": "invalid", "record.move": "invalid", "record.empty": "invalid",
    "backup.too_large": "invalid", "backup.json": "invalid", "backup.format": "invalid", "backup.version": "invalid",
    "backup.field": "invalid", "backup.too_many": "invalid", "backup.too_long": "invalid",
    "backup.too_complex": "invalid", "backup.game": "invalid",
    "daily.date": "illegal",  # well formed; not a day of the calendar today (tomorrow may be)
    "daily.month": "invalid", "daily.before": "illegal",  # as daily.date: a day, well formed, outside the calendar
    "wish.long": "invalid", "settings.unknown": "invalid", "settings.value": "invalid",
    # The variant's rules refusing the request (no deal drawn came out), not a failure: 409.
    "winnable.none": "illegal",
    "winnable.busy": "busy", "backup.busy": "busy", "storage": "unavailable", "stopping": "unavailable",
}


class PlayError(FirstLastError):
    """A refused request: ``code`` (a key of ``CODES``), ``params`` and ``kind``."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.kind: Kind = CODES[code]
        self.params = params
        super().__init__(error_text(code, params, "en"))

    def text(self, lang: str) -> str:
        """The refusal in ``lang``, from its code (``i18n.error_text``), never by reading
        the English sentence: what the terminal and the CLI say."""
        return error_text(self.code, self.params, lang)

    def to_json(self) -> dict[str, object]:
        """``{"error": sentence, "code": code, "params": {...}}`` (params JSON-safe)."""
        return {"error": str(self), "code": self.code, "params": {k: _plain(v) for k, v in self.params.items()}}


def engine_params(e: IllegalMoveError | InvalidMoveError) -> dict[str, object]:
    """The engine's refusal (``refusal`` and its ``rule``) or syntax error (``invalid``)
    with its parameters, as a ``PlayError`` carries them on, so that every face words it
    (``i18n.error_text``)."""
    if isinstance(e, IllegalMoveError):
        return {"rule": e.rule, "refusal": e.code, **e.params}
    return {"invalid": e.code, **e.params}


def _plain(value: object) -> object:
    return value if value is None or isinstance(value, bool | int | float | str) else str(value)
