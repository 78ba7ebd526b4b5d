"""Game records: the save file, the export and the replay (docs/record-format.md says
what a record is and everything its reader accepts).

``game_from_record`` is the one reader of a record's text, for every face, so that no
face accepts a record another refuses. It replays every move through the rules and checks
the result headers against the replay, so a corrupt or tampered record is refused with
the line at fault, and a half-loaded game is never returned.
"""

from __future__ import annotations

import re
from typing import Final

from .. import __version__
from .cards import clip, is_number, parse_whole
from .errors import EmptyRecordError, FirstLastError, RecordError, not_a_move
from .game import Game
from .position import MOVE_WORDS, Move
from .rng import MAX_DEAL
from .variant import MAX_REDEALS, Variant

FORMAT = "firstlast-record 1"
MOVES_PER_LINE = 10
#: Largest record read, in bytes of its UTF-8 text (a byte-order mark counted): one
#: bound for a file and for text (the web's import). A whole game's record is a few KiB.
MAX_RECORD_BYTES: Final = 2**20
_BOM: Final = "\ufeff"
#: Blanks around a line and between moves: ASCII space and tab only. Other Unicode
#: spaces (NBSP, U+2003) are refused where they would matter, not read as blanks.
_BLANKS: Final = " \t"
_BLANK_RUN: Final = re.compile(r"[ \t]+")
#: Refused anywhere in a record: control characters other than tab (CR only just before
#: LF) and the Unicode line and paragraph separators, which some programs take for line
#: ends and others do not, so that the lines read are the lines an editor shows.
_FORBIDDEN: Final = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_HEADER = re.compile(r'\[([A-Za-z]+) "([^"\\]*)"\]')
_REQUIRED = ("Format", "Deal", "Redeals", "WastePlayable", "PrivilegedLast")


def read_move(word: str) -> Move:
    """One move word of a stored move list (a record's, a backup's): a word of
    ``MOVE_WORDS``, nothing around it. Stricter than ``Move.parse`` (no shorthand, no
    blanks): a file holds the words the engine writes."""
    move = MOVE_WORDS.get(word.lower()) if word.isascii() else None
    if move is None:
        raise not_a_move(word)
    return move


def move_words(text: str) -> list[str]:
    """The words of a move list, separated by blanks (as in a record's move lines)."""
    return [w for w in _BLANK_RUN.split(text) if w]


def record_to_text(game: Game, *, date: str = "?") -> str:
    """The record of ``game``: headers, then its moves. ``ValueError`` for a record the
    reader would refuse, so that every record written reads back."""
    v = game.variant
    if v.redeals is not None and v.redeals > MAX_REDEALS:
        raise ValueError(f"a record holds a game of at most {MAX_REDEALS} redeals or unlimited ones (V1)")
    headers = {
        "Format": FORMAT,
        "Program": f"firstlast {__version__}",
        "Date": date,
        "Deal": str(game.deal),
        "Redeals": "unlimited" if v.redeals is None else str(v.redeals),
        "WastePlayable": "yes" if v.waste_playable else "no",
        "PrivilegedLast": "yes" if v.privileged_last else "no",
        **_result_headers(game),
    }
    for k, val in headers.items():
        if '"' in val or "\\" in val or _FORBIDDEN.search(val):
            raise ValueError(f"bad header value {k}: {clip(val)!r}")
    lines = [f'[{k} "{val}"]' for k, val in headers.items()]
    lines.append("")
    moves = [str(m) for m in game.moves]
    for i in range(0, len(moves), MOVES_PER_LINE):
        lines.append(f"{i + 1}. " + " ".join(moves[i:i + MOVES_PER_LINE]))
    text = "\n".join(lines) + "\n"
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise ValueError(f"the record would be over {MAX_RECORD_BYTES:,} bytes, more than a record may hold")
    return text


def _result_headers(game: Game) -> dict[str, str]:
    """The headers a replay of the moves decides, written and then checked."""
    pos = game.position
    return {"Result": "unfinished" if pos.status == "playing" else pos.status, "Score": str(pos.score),
            "Passes": str(pos.passes), "Moves": str(len(game))}


def _split(text: str) -> tuple[dict[str, tuple[str, int]], list[tuple[int, str]]]:
    """The headers (name -> value, line) and the move lines (line, text) of a record, once
    the text as a whole is a record's: its size, no NUL, one byte-order mark at most, lines
    ending with LF or CR LF, no forbidden characters, not empty. Lines count from 1."""
    too_long = f"the record is too long (over {MAX_RECORD_BYTES:,} bytes)"
    if len(text) > MAX_RECORD_BYTES:  # a character is at least one byte: no need to encode
        raise RecordError(too_long)
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:  # a lone surrogate (from JSON's "\ud800"): no UTF-8 file holds one
        raise RecordError("not a text file (not UTF-8)") from None
    if size > MAX_RECORD_BYTES:
        raise RecordError(too_long)
    if "\x00" in text:
        raise RecordError("not a text file (NUL byte found)")
    # One byte-order mark (a record saved by a Windows editor) is not part of the text.
    # A second one is: no editor writes two, and the faces must not each remove one.
    body = text.removeprefix(_BOM)
    if body.startswith(_BOM):
        raise RecordError("two byte-order marks (U+FEFF) at the start: only one is ignored", 1)
    lines = [raw.removesuffix("\r") for raw in body.split("\n")]  # Windows line ends
    for n, line in enumerate(lines, start=1):
        bad = _FORBIDDEN.search(line)
        if bad is not None:
            raise RecordError(f"character U+{ord(bad.group()):04X} is not allowed in a record"
                              " (lines end with LF or CR LF; blanks are spaces and tabs)", n)
    if not any(line.strip(_BLANKS) for line in lines):
        raise EmptyRecordError("the record is empty")
    headers: dict[str, tuple[str, int]] = {}
    moves: list[tuple[int, str]] = []
    for n, raw in enumerate(lines, start=1):
        line = raw.strip(_BLANKS)
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if moves:
                raise RecordError("header after the moves began", n)
            m = _HEADER.fullmatch(line)
            if m is None:
                raise RecordError(f'malformed header (expected [Name "value"]): {line[:60]!r}', n)
            if m.group(1) in headers:
                raise RecordError(f"header {clip(m.group(1))} given twice", n)
            headers[m.group(1)] = (m.group(2), n)
        else:
            moves.append((n, line))
    return headers, moves


def _variant(headers: dict[str, tuple[str, int]]) -> Variant:
    def flag(name: str) -> bool:
        value, n = headers[name]
        if value not in ("yes", "no"):
            raise RecordError(f"{name} must be yes or no, not {clip(value)!r}", n)
        return value == "yes"

    value, n = headers["Redeals"]
    try:
        # New games' own cap (V1): a record past it could not be stored or estimated.
        redeals = None if value == "unlimited" else parse_whole(value, MAX_REDEALS)  # length bounded before int()
    except ValueError:
        raise RecordError(f"Redeals must be unlimited or a whole number 0…{MAX_REDEALS}, not {clip(value)!r}",
                          n) from None
    return Variant(redeals, flag("WastePlayable"), flag("PrivilegedLast"))


def game_from_record(text: str) -> Game:
    """Check and replay a record; raises ``RecordError`` naming the line at fault
    (``EmptyRecordError`` when there is nothing in it)."""
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
        if not dot or not is_number(number_text) or rest[:1] not in ("", *_BLANKS):
            raise RecordError("a move line starts with its first move's number and a dot (then a blank and"
                              f" the moves): {line[:60]!r}", n)
        # Compared as text: leading zeros are allowed, and no int() is made of a huge number.
        if number_text.lstrip("0") != str(len(game) + 1):
            raise RecordError(f"move number {clip(number_text)} where {len(game) + 1} was expected"
                              " (moves missing or added)", n)
        for token in move_words(rest):
            try:
                game.push(read_move(token))
            except FirstLastError as e:
                raise RecordError(f"move {len(game) + 1} {clip(token)!r}: {e}", n, move=len(game) + 1,
                                  token=clip(token)) from None
    for name, actual in _result_headers(game).items():
        if name in headers and headers[name][0] != actual:
            value, n = headers[name]
            raise RecordError(f"{name} says {clip(value)!r} but replaying the moves gives {actual!r}", n)
    return game
