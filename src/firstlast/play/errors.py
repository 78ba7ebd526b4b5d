"""The play layer's refusals: a stable code, its parameters, and a kind.

Faces never read the English sentence to decide anything: the web maps ``kind`` to an
HTTP status and sends ``code`` and ``params``; the terminal shows the sentence in its
status line. ``message`` is the English rendering, made from the code's template.
"""

from __future__ import annotations

from typing import Final, Literal

from ..engine.errors import FirstLastError

#: ``invalid``: the request itself is malformed or out of range (nothing was tried);
#: ``illegal``: well formed, but the rules or the game's state refuse it now;
#: ``not_found``: no such game for this player; ``conflict``: the game changed
#: elsewhere; ``busy``: the same long work is under way for this player, or too much of
#: it for everyone (ask again later); ``unavailable``: storage or an optional part is not
#: usable right now, or the program is stopping.
Kind = Literal["invalid", "illegal", "not_found", "conflict", "busy", "unavailable"]

#: Every code, its kind and its English template (``str.format`` over the params).
CODES: Final[dict[str, tuple[Kind, str]]] = {
    "deal.invalid": ("invalid", "a deal number is a whole number 0…{max} written in digits 0-9, not {text!r}"),
    "deal.range": ("invalid", "deal numbers go from 0 to {max}"),
    "variant.invalid": ("invalid", "not a variant: {text!r} (a token such as r3, ru, r0w, r3n)"),
    "variant.redeals": ("invalid", "redeals must be unlimited or a whole number 0…{max}"),
    "variant.field": ("invalid", "variant.{field} {reason}"),
    "move.invalid": ("invalid", "{reason}"),
    "move.illegal": ("illegal", "{reason}"),
    "game.over": ("illegal", "the game is over: there is no move to make (R11)"),
    "undo.empty": ("illegal", "nothing to undo: no move has been made"),
    "redo.empty": ("illegal", "nothing to redo"),
    "next.none": ("illegal", "there is no game on the table to take the next deal from"),
    "again.none": ("illegal", "there is no game on the table to play again"),
    "game.unknown": ("not_found", "no such game"),
    "game.changed": ("conflict", "the game was changed elsewhere (another window or the terminal); "
                                 "showing the saved game"),
    "game.busy": ("conflict", "the game was changed elsewhere at the same moment; reload it"),
    "record.invalid": ("invalid", "bad record: {reason}"),
    "record.empty": ("invalid", "the record is empty"),
    "backup.too_large": ("invalid", "the backup is too large (at most {max} MiB)"),
    "backup.json": ("invalid", "the backup is not JSON (line {line}, column {column})"),
    "backup.format": ("invalid", 'not a firstlast backup (a JSON object with "format": "firstlast-backup")'),
    "backup.version": ("invalid", "the backup is of version {version}; this firstlast reads version {supported}"),
    "backup.field": ("invalid", "the backup is damaged: {where}: {reason}"),
    "backup.too_many": ("invalid", "the backup holds {count} games; at most {max} are restored at once"),
    "backup.too_long": ("invalid", "the backup's games hold {count} moves in all; at most {max} are checked at once"),
    "backup.game": ("invalid", "game {n} of the backup (deal {deal}) does not replay: move {move} ({token}): {reason}"),
    "settings.unknown": ("invalid", "unknown setting {key!r} (expected {expected})"),
    "settings.value": ("invalid", "{key} {reason}"),
    # The variant's rules refusing the request (no deal drawn came out), not a failure: 409.
    "winnable.none": ("illegal", "found no deal that comes out under {variant} in {tries} tries"),
    "winnable.busy": ("busy", "already looking for a deal that comes out; try again in a moment"),
    "backup.busy": ("busy", "another backup is being restored; try again in a moment"),
    "storage": ("unavailable", "the game store cannot be used right now: {reason}"),
    "stopping": ("unavailable", "the game is stopping: nothing was done"),
}


class PlayError(FirstLastError):
    """A refused request: ``code`` (a key of ``CODES``), ``params`` and ``kind``."""

    def __init__(self, code: str, **params: object) -> None:
        kind, template = CODES[code]
        self.code = code
        self.kind: Kind = kind
        self.params = params
        super().__init__(template.format(**params))

    @property
    def message(self) -> str:
        return str(self)

    def to_json(self) -> dict[str, object]:
        """``{"error": sentence, "code": code, "params": {...}}`` (params JSON-safe)."""
        return {"error": self.message, "code": self.code, "params": {k: _plain(v) for k, v in self.params.items()}}


def _plain(value: object) -> object:
    return value if value is None or isinstance(value, bool | int | float | str) else str(value)
