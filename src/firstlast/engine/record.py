"""Game records: the save file, the export and the replay (docs/record-format.md).

A record is plain text: ``[Name "value"]`` header lines, a blank line, then the moves,
ten to a line, each line starting with the number of its first move::

    [Format "firstlast-record 1"]
    [Deal "1"]
    ...
    1. turn turn R3 turn turn turn turn turn turn turn
    11. turn ...

Moves are written with the places' one names (``places.PLACE_NAMES``: ``R3``, ``F8``,
``waste``); ``W``, the waste's old name in moves, is still read (``Move.parse``), so
records written before keep replaying.

Reading replays every move through the rules and checks the result headers against
the replay, so a corrupt or tampered record is refused with the line at fault, and a
half-loaded game is never returned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .. import __version__
from .cards import clip, is_number, parse_whole
from .errors import FirstLastError, RecordError
from .game import Game
from .position import Move
from .rng import MAX_DEAL
from .variant import Variant

FORMAT = "firstlast-record 1"
MOVES_PER_LINE = 10
_HEADER = re.compile(r'\[([A-Za-z]+) "([^"\\]*)"\]')
_REQUIRED = ("Format", "Deal", "Redeals", "WastePlayable", "PrivilegedLast")
_KNOWN = (*_REQUIRED, "Program", "Date", "Result", "Score", "Passes", "Moves")


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def record_to_text(game: Game, *, date: str = "?", extra: Mapping[str, str] | None = None) -> str:
    """The record of ``game``: headers, then its moves."""
    pos = game.position
    v = game.variant
    headers = {
        "Format": FORMAT,
        "Program": f"firstlast {__version__}",
        "Date": date,
        "Deal": str(game.deal),
        "Redeals": "unlimited" if v.redeals is None else str(v.redeals),
        "WastePlayable": _yes_no(v.waste_playable),
        "PrivilegedLast": _yes_no(v.privileged_last),
        "Result": "unfinished" if pos.status == "playing" else pos.status,
        "Score": str(pos.score),
        "Passes": str(pos.passes),
        "Moves": str(len(game)),
    }
    for k, val in (extra or {}).items():
        if not re.fullmatch(r"[A-Za-z]+", k) or '"' in val or "\\" in val or "\n" in val:
            raise ValueError(f"bad extra header {k!r}: {val!r}")
        headers.setdefault(k, val)
    lines = [f'[{k} "{val}"]' for k, val in headers.items()]
    lines.append("")
    moves = [str(m) for m in game.moves]
    for i in range(0, len(moves), MOVES_PER_LINE):
        lines.append(f"{i + 1}. " + " ".join(moves[i:i + MOVES_PER_LINE]))
    return "\n".join(lines) + "\n"


def read_headers(text: str) -> dict[str, str]:
    """Only the headers of a record (for listings), checked for syntax."""
    headers, _ = _split(text)
    return {k: v for k, (v, _) in headers.items()}


def _split(text: str) -> tuple[dict[str, tuple[str, int]], list[tuple[int, str]]]:
    headers: dict[str, tuple[str, int]] = {}
    body: list[tuple[int, str]] = []
    # A byte-order mark (a record saved by a Windows editor) is not part of the text.
    for n, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if body:
                raise RecordError("header after the moves began", n)
            m = _HEADER.fullmatch(line)
            if m is None:
                raise RecordError(f'malformed header (expected [Name "value"]): {line[:60]!r}', n)
            if m.group(1) in headers:
                raise RecordError(f"header {clip(m.group(1))} given twice", n)
            headers[m.group(1)] = (m.group(2), n)
        else:
            body.append((n, line))
    return headers, body


def _variant(headers: dict[str, tuple[str, int]]) -> Variant:
    def flag(name: str) -> bool:
        value, n = headers[name]
        if value not in ("yes", "no"):
            raise RecordError(f"{name} must be yes or no, not {clip(value)!r}", n)
        return value == "yes"

    value, n = headers["Redeals"]
    if value == "unlimited":
        return Variant(None, flag("WastePlayable"), flag("PrivilegedLast"))
    if not is_number(value):
        raise RecordError(f"Redeals must be a whole number or 'unlimited', not {clip(value)!r}", n)
    try:
        redeals = parse_whole(value)  # any count the engine writes; the length is bounded before int()
    except ValueError as e:
        raise RecordError(f"Redeals: {e}", n) from None
    return Variant(redeals, flag("WastePlayable"), flag("PrivilegedLast"))


def game_from_record(text: str) -> Game:
    """Check and replay a record; raises ``RecordError`` naming the line at fault."""
    if "\x00" in text:
        raise RecordError("not a text file (NUL byte found)")
    headers, body = _split(text)
    for name in _REQUIRED:
        if name not in headers:
            raise RecordError(f"missing header {name}")
    fmt, n = headers["Format"]
    if fmt != FORMAT:
        raise RecordError(f"unknown format {clip(fmt)!r} (this program reads {FORMAT!r})", n)
    deal_text, n = headers["Deal"]
    try:
        deal = parse_whole(deal_text, MAX_DEAL)
    except ValueError:
        raise RecordError(f"Deal must be a whole number 0…{MAX_DEAL}, not {clip(deal_text)!r}", n) from None
    game = Game(deal, _variant(headers))
    for n, line in body:
        number_text, dot, rest = line.partition(".")
        number_text = number_text.strip()
        if not dot or not is_number(number_text):
            raise RecordError(f"a move line starts with its first move's number and a dot: {line[:60]!r}", n)
        try:
            number: int | None = parse_whole(number_text)
        except ValueError:
            number = None  # too many digits to be any move's number (checked before int())
        if number != len(game) + 1:
            raise RecordError(f"move number {clip(number_text)} where {len(game) + 1} was expected"
                              " (moves missing or added)", n)
        for token in rest.split():
            if len(token) > len("redeal"):  # not a move; keep the message one short line
                raise RecordError(f"move {len(game) + 1} {clip(token)!r}: not a move"
                                  " (expected turn, redeal, R1–R8, F1–F8 or waste)", n)
            try:
                game.push(Move.parse(token))
            except FirstLastError as e:
                raise RecordError(f"move {len(game) + 1} {clip(token)!r}: {e}", n, move=len(game) + 1,
                                  token=clip(token)) from None
    pos = game.position
    result = "unfinished" if pos.status == "playing" else pos.status
    for name, actual in (("Result", result), ("Score", str(pos.score)),
                         ("Passes", str(pos.passes)), ("Moves", str(len(game)))):
        if name in headers and headers[name][0] != actual:
            value, n = headers[name]
            raise RecordError(f"{name} says {clip(value)!r} but replaying the moves gives {actual!r}", n)
    return game
