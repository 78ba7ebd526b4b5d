"""Backups: one file with all of a player's games and settings, the one policy of every
face (docs/backup.md tells it whole: nothing in the file is trusted; export never writes
what import would refuse; the merge adds no duplicate and never erases a result).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Annotated, Final, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType
from msgspec.structs import replace

from .. import __version__
from ..engine import Game, IllegalMoveError, InvalidMoveError, Status, Variant
from ..engine.cards import clip
from ..engine.record import move_words, read_move
from ..i18n import plural, t
from ..store import GameRow, Transaction, new_id
from ..store.records import ID_PATTERN
from . import jsontext
from .deals import StartKind, parse_deal
from .errors import PlayError, engine_params
from .fields import MAX_SAFE, MAX_WISH, DealNumber, DealText, IsoDate, KeptResult, Origin, VariantToken, refused
from .settings import DEFAULTS, Settings, SettingsJSON, parse_variant

#: The file's ``format`` and the ``version`` this module writes and reads.
FORMAT: Final = "firstlast-backup"
VERSION: Final = 1
#: Largest backup read or written, in characters (a game takes about 1.5 KB).
MAX_BACKUP_CHARS: Final = 16 * 2**20
#: Most games in one backup.
MAX_BACKUP_GAMES: Final = 10_000
#: Most moves (moves and redo lines together) of all the games of one backup: each is
#: replayed, at about 100,000 moves a second.
MAX_BACKUP_MOVES: Final = 3_000_000
#: Most JSON values (strings, objects and lists, and the commas between values) a
#: backup's text may hold (a game holds about 60), counted before the text is read: read
#: whole, 16 MiB of ``{}``s made 4 million objects (384 MiB, a second with the GIL held).
MAX_BACKUP_VALUES: Final = 100 * MAX_BACKUP_GAMES
#: A JSON string (its escapes skipped), or a character that opens a value or parts them,
#: with what comes before it (one match a value: the scanner is not restarted between).
_VALUE: Final = re.compile(r'[^"\[{,]*+(?:"[^"\\]*+(?:\\.[^"\\]*+)*+"|[\[{,])')
#: A JSON number with more digits than this is refused before Python reads it.
_MAX_DIGITS: Final = 30
_MAX_TEXT: Final = 200  # ``app``, ``exported``, a timestamp
Timestamp = Annotated[str, Meta(max_length=_MAX_TEXT, description="ISO 8601, UTC, milliseconds")]
Score = Annotated[int, Meta(ge=0, le=104)]
Passes = Annotated[int, Meta(ge=1)]
Moves = Annotated[str, Meta(max_length=MAX_BACKUP_CHARS)]
Params = dict[str, str | int | float | bool | None]


# ---------------------------------------------------------------------------- the file
# The store's row, its fields (in their order) the file's, each with its bounds.
class BackupGame(GameRow, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One game of a backup: everything the store keeps of it (docs/backup.md). What the
    replay derives (``status``, ``score``, ``passes``) may be left out."""

    id: Annotated[str, Meta(pattern=ID_PATTERN, description="1…64 letters, digits, - or _")]
    # A file may give the deal as a number, and leave out what the replay derives: wider than the row's.
    deal: DealText | DealNumber  # type: ignore[assignment]
    variant: VariantToken
    moves: Annotated[Moves, Meta(description="the moves made, in the engine's notation, one space apart")]
    redo: Annotated[Moves, Meta(description="the moves redo would make, next first")] = ""
    status: Status | UnsetType = UNSET  # type: ignore[assignment]
    score: Score | UnsetType = UNSET  # type: ignore[assignment]
    passes: Passes | UnsetType = UNSET  # type: ignore[assignment]
    result: KeptResult = None
    result_score: Score | None = None
    result_passes: Passes | None = None
    origin: Origin = "played"
    created: Timestamp
    updated: Timestamp
    finished: Annotated[Timestamp | None, Meta(description="when the result was reached")] = None
    abandoned: Annotated[Timestamp | None, Meta(description="when it was left unfinished for another game")] = None
    version: Annotated[int, Meta(ge=0, le=MAX_SAFE)] = 0
    dealt: Annotated[StartKind | None, Meta(description="how the deal was chosen; null: imported or older")] = None
    dealt_on: Annotated[IsoDate | None, Meta(description=(
        "the player's date when it was dealt (a deal of the day played on its date counts in the streak)"))] = None
    wish: Annotated[Annotated[str, Meta(max_length=MAX_WISH)] | None, Meta(description=(
        "the wish made before the deal (\"\": in silence; null: none): private, in the backup only"))] = None


class LeftOut(msgspec.Struct, kw_only=True):
    """A stored game an export left out: an import would refuse it (``Skipped.to_json``)."""

    n: Annotated[int, Meta(ge=1, description="its place among the player's games, from 1")]
    id: str | None
    deal: str | None
    error: Annotated[str, Meta(description="why, in English")]
    code: Annotated[str, Meta(description="the refusal's code (backup.field, backup.game)")]
    params: Params


class Backup(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A player's backup file: every game and the settings (docs/backup.md)."""

    format: Literal["firstlast-backup"]
    version: Literal[1]
    app: Annotated[str, Meta(max_length=_MAX_TEXT, description="the firstlast that wrote it (not read back)")] = ""
    exported: Timestamp = ""
    settings: SettingsJSON  # type: ignore[valid-type]  # the settings' one declaration, the variant as its token
    table: Annotated[Annotated[str, Meta(max_length=64)] | None, Meta(description=(
        "the id of the game on the table"))] = None
    games: Annotated[list[BackupGame], Meta(description="in the order they were stored")]
    left_out: Annotated[list[LeftOut], Meta(description=(
        "games left out: a restore would refuse them (written only when there are some)"))] | UnsetType = UNSET


@dataclass(frozen=True)
class Skipped:
    """A game left out of a restore (or of an export), and why: its place ``n`` (1…) in
    the file (or the store's order), its id and deal as far as they could be read, and
    the refusal, worded by each face in its language."""

    n: int
    id: str | None
    deal: str | None
    error: PlayError

    def to_json(self) -> dict[str, object]:
        return {"n": self.n, "id": self.id, "deal": self.deal, **self.error.to_json()}

    def text(self, lang: str, key: str = "backup.skipped_game") -> str:
        """The game named once, then its refusal (which does not name it): ``key``, left
        out of a restore or (``backup.left_out_game``) of an export."""
        return t(lang, key, n=self.n, deal=self.deal or "?", id=self.id or "?", error=self.error.text(lang))


@dataclass(frozen=True)
class Checked:
    """A backup file, read and checked (``read_backup``): its settings (only the keys it
    gives), the id of its game on the table, its good games as rows to store."""

    settings: Mapping[str, object]
    table: str | None
    games: tuple[GameRow, ...]
    skipped: tuple[Skipped, ...] = ()


@dataclass(frozen=True)
class ImportReport:
    """What an import did (docs/backup.md, "The merge rule"): games ``added``,
    ``updated``, ``kept``; the setting keys taken; whether the file's game went on the table."""

    player: str
    added: int
    updated: int
    kept: int
    settings: tuple[str, ...]
    table: bool
    skipped: tuple[Skipped, ...] = ()

    @property
    def games(self) -> int:
        return self.added + self.updated + self.kept

    def text(self, lang: str, *, skipped: bool = False) -> str:
        """What the import did, in words ("12 games imported, 3 already here."); with
        ``skipped``, each game left out after it, a sentence of its own
        (``Skipped.text``), then their count: the page's one line (the CLI names them a
        line each)."""
        text = t(lang, "backup.done_updated" if self.updated else "backup.done",
                 added=plural(lang, "backup.added", self.added), kept=plural(lang, "backup.kept", self.kept),
                 updated=plural(lang, "backup.updated", self.updated))
        if self.settings:
            text += " " + plural(lang, "backup.settings", len(self.settings))
        if skipped and self.skipped:
            for s in self.skipped:
                text += f" {s.text(lang)}."
            text += " " + plural(lang, "backup.skipped", len(self.skipped))
        return text


# ---------------------------------------------------------------------------- export
def export(rows: list[GameRow], settings: Settings, table: str | None) -> tuple[str, int, tuple[Skipped, ...]]:
    """The backup's text of a player's games, settings and table, how many games it holds,
    and the games left out of it: those ``read_backup`` would refuse. Replays: call it
    outside any transaction."""
    if len(rows) > MAX_BACKUP_GAMES:
        raise PlayError("backup.too_many", count=len(rows), max=MAX_BACKUP_GAMES)
    moves = sum(len(r.moves.split()) + len(r.redo.split()) for r in rows)
    if moves > MAX_BACKUP_MOVES:
        raise PlayError("backup.too_long", count=moves, max=MAX_BACKUP_MOVES)
    games: list[dict[str, object]] = []
    skipped: list[Skipped] = []
    for n, row in enumerate(rows, start=1):
        g = msgspec.structs.asdict(row)  # the file's order: the row's
        try:
            _checked(n, *_read_game(n, g))
        except PlayError as e:
            skipped.append(_skip(n, g, e))
            continue
        games.append(g)
    doc: dict[str, object] = {
        "format": FORMAT, "version": VERSION, "app": f"firstlast {__version__}",
        "exported": datetime.now(UTC).isoformat(timespec="milliseconds"), "settings": settings.to_json(),
        "table": table if table in {g["id"] for g in games} else None}
    if skipped:
        doc["left_out"] = [s.to_json() for s in skipped]
    doc["games"] = games
    return dumps(doc), len(games), tuple(skipped)


def dumps(doc: Mapping[str, object]) -> str:
    """The file's text: UTF-8 JSON, the header one field a line, then one game a line."""
    head = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in doc.items() if k != "games"]
    games = doc.get("games")
    assert isinstance(games, list)
    lines = ["  " + json.dumps(g, ensure_ascii=False, separators=(", ", ": ")) for g in games]
    body = ' "games": []' if not lines else ' "games": [\n' + ",\n".join(lines) + "\n ]"
    text = "{\n" + "\n".join(head) + ("\n" if head else "") + body + "\n}\n"
    if len(text) > MAX_BACKUP_CHARS:
        raise PlayError("backup.too_large", max=MAX_BACKUP_CHARS // 2**20)
    _check_values(text)  # never written where a restore would refuse it
    return text


# ---------------------------------------------------------------------------- reading
def _check_values(text: str) -> None:
    """Refuse (``backup.too_complex``) a text of more than ``MAX_BACKUP_VALUES`` JSON
    values, before any is made. The characters that may open or part values, counted in
    milliseconds, overstate the count; only past the bound are values counted one by one."""
    if sum(text.count(c) for c in '"[{,') <= MAX_BACKUP_VALUES:
        return
    for n, _ in enumerate(_VALUE.finditer(text), start=1):
        if n > MAX_BACKUP_VALUES:
            raise PlayError("backup.too_complex", max=MAX_BACKUP_VALUES)


def _big_number(text: str) -> int:
    """JSON's integers, refused past ``_MAX_DIGITS`` digits before ``int()`` (which
    would fail past 4,300 and take its time before that)."""
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise _fault("a number", f"has {len(text):,} digits")
    return int(text)


def _no_constant(text: str) -> object:
    raise _fault("a number", f"is {text}, which JSON does not allow")


def _fault(where: str, reason: str) -> PlayError:
    return PlayError("backup.field", where=where, reason=reason)


S = TypeVar("S", bound=msgspec.Struct)


def _decoded(value: object, model: type[S], where: str) -> S:
    """``value`` as a ``model``, or ``backup.field`` naming the first field it refuses,
    worded from that field's declared bounds (``fields.refused``)."""
    try:
        return msgspec.convert(value, model)
    except msgspec.ValidationError as e:
        error = str(e)
    if not isinstance(value, dict):
        raise _fault(where, "must be a JSON object")
    for key in value:
        if key not in model.__struct_encode_fields__:
            raise _fault(f"{where}.{clip(str(key), 40)}" if where else clip(str(key), 40), "is not a field of a backup")
    raise _fault(*(refused(model, value, where, word=True) or (where, error)))


def _time(value: str | None, where: str) -> str | None:
    """A timestamp (ISO 8601; one without a zone is UTC), as the store writes them:
    UTC, milliseconds (``None``: none)."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        # A zone can carry the time past year 1 or 9999: Python's range (OverflowError).
        return when.astimezone(UTC).isoformat(timespec="milliseconds")
    except (ValueError, OverflowError):
        raise _fault(where, "must be a date and time (ISO 8601) in the years 1…9999") from None


def _where(n: int) -> str:
    return f"games[{n - 1}]"


def _read_game(n: int, value: object) -> tuple[BackupGame, GameRow]:
    """The ``n``th game of a file, its fields checked as declared, and its row to store
    (replayed later: ``_checked``)."""
    where = _where(n)
    if isinstance(value, dict):  # the play layer's own words for a deal or a variant it refuses
        for name, parse in (("deal", parse_deal), ("variant", parse_variant)):
            if name in value:
                try:
                    parse(value[name])
                except PlayError as e:
                    raise _fault(f"{where}.{name}", str(e)) from None
        if isinstance(value.get("variant"), str):  # a token as its reader takes it (" r3")
            value = {**value, "variant": parse_variant(value["variant"]).token}
    g = _decoded(value, BackupGame, where)
    if g.dealt_on is not None:
        try:
            date.fromisoformat(g.dealt_on)
        except ValueError:
            raise _fault(f"{where}.dealt_on", "must be a date, YYYY-MM-DD, or null") from None
    fields = msgspec.structs.asdict(g)
    times = {name: _time(fields[name], f"{where}.{name}") for name in ("created", "updated", "finished", "abandoned")}
    row = GameRow(**{**fields, **times, "deal": str(parse_deal(g.deal)), "variant": parse_variant(g.variant).token,
                     "moves": " ".join(move_words(g.moves)), "redo": " ".join(move_words(g.redo)),
                     "status": "playing", "score": 0, "passes": 1})
    return g, row


def _checked(n: int, file: BackupGame, row: GameRow) -> GameRow:
    """The ``n``th game's ``row`` once it replays move by move (its redo line too, then
    taken back), with what the replay derives, whatever the ``file`` says (docs/backup.md:
    a backup cannot make a lost deal a win)."""
    game = Game(int(row.deal), Variant.from_token(row.variant))
    redo = move_words(row.redo)
    for i, text in enumerate([*move_words(row.moves), *redo], start=1):
        try:
            game.push(read_move(text))
        except (IllegalMoveError, InvalidMoveError) as e:
            raise PlayError("backup.game", n=n, deal=row.deal, move=i, token=clip(text, 20), reason=str(e),
                            **engine_params(e)) from None
    end = game.position
    for _ in redo:
        game.undo()
    pos = game.position
    for name, derived in (("status", pos.status), ("score", pos.score), ("passes", pos.passes)):
        if (given := getattr(file, name)) is not UNSET and given != derived:
            given = clip(json.dumps(given), 20)
            raise _fault(f"{_where(n)}.{name}", f"is {given}, but the moves give {derived}")
    row = replace(row, status=pos.status, score=pos.score, passes=pos.passes)
    if end.status == "playing":
        return replace(row, result=None, result_score=None, result_passes=None, finished=None)
    return replace(row, result=end.status, result_score=end.score, result_passes=end.passes,
                   finished=row.finished or row.updated)


def _skip(n: int, value: object, error: PlayError) -> Skipped:
    """The game ``value`` (the ``n``th of a file) left out for ``error``: named by its
    id and deal, as far as they can be read."""
    g = value if isinstance(value, dict) else {}
    gid, deal = g.get("id"), g.get("deal")
    return Skipped(n, clip(gid, 64) if isinstance(gid, str) else None,
                   clip(str(deal), 30) if isinstance(deal, str | int) and not isinstance(deal, bool) else None, error)


def read_backup(text: str, go_on: Callable[[], bool] | None = None) -> Checked:
    """Read and check a backup's text whole: every field, every game replayed; nothing is
    stored here. ``go_on`` is asked before each game is replayed (seconds for thousands
    of games): false ends the check with ``PlayError('stopping')``."""
    if len(text) > MAX_BACKUP_CHARS:
        raise PlayError("backup.too_large", max=MAX_BACKUP_CHARS // 2**20)
    # One byte-order mark is not part of the text; JSON refuses a second (backup.json),
    # as the record reader does: the faces hand the text over as it came.
    text = text.removeprefix("\ufeff")
    _check_values(text)
    try:
        doc = jsontext.loads(text, parse_int=_big_number, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise PlayError("backup.json", line=e.lineno, column=e.colno) from None
    except jsontext.UnencodableText:
        raise _fault("a string", "holds a lone surrogate (\\ud800…\\udfff), which is no text") from None
    except RecursionError:
        raise PlayError("backup.format") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PlayError("backup.format")
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        raise PlayError("backup.version", version=clip(json.dumps(doc.get("version")), 20), supported=VERSION)
    settings = doc.get("settings", {})
    if not isinstance(settings, dict):
        raise _fault("settings", "must be a JSON object")
    try:
        DEFAULTS.updated(settings)  # the file's settings are the keys it gives: checked one by one
    except PlayError as e:
        raise _fault("settings", str(e)) from None
    # The file's own fields as declared (``Backup``); its games are read one by one, below.
    games = doc.get("games")
    head = {k: v for k, v in doc.items() if k != "left_out"}  # not read back
    head |= {"settings": DEFAULTS.to_json(), **({"games": []} if isinstance(games, list) else {})}
    table = _decoded(head, Backup, "").table
    assert isinstance(games, list)  # else refused just now
    if len(games) > MAX_BACKUP_GAMES:
        raise PlayError("backup.too_many", count=len(games), max=MAX_BACKUP_GAMES)
    skipped: list[Skipped] = []
    read: dict[str, tuple[int, BackupGame, GameRow]] = {}  # by id
    for n, g in enumerate(games, start=1):
        try:
            file, row = _read_game(n, g)
            if row.id in read:
                raise _fault(f"{_where(n)}.id", f"is the id of {_where(read[row.id][0])} too")
        except PlayError as e:
            skipped.append(_skip(n, g, e))
            continue
        read[row.id] = n, file, row
    moves = sum(len(move_words(row.moves)) + len(move_words(row.redo)) for _, _, row in read.values())
    if moves > MAX_BACKUP_MOVES:
        raise PlayError("backup.too_long", count=moves, max=MAX_BACKUP_MOVES)
    checked = []
    for n, file, row in read.values():  # the replays: the long part
        if go_on is not None and not go_on():
            raise PlayError("stopping")
        try:
            checked.append(_checked(n, file, row))
        except PlayError as e:
            skipped.append(_skip(n, games[n - 1], e))
    if table not in {row.id for row in checked}:
        table = None  # not a game of the file, or one left out: the table stays as it is
    skipped.sort(key=lambda s: s.n)
    return Checked(dict(settings), table, tuple(checked), tuple(skipped))


# ---------------------------------------------------------------------------- merging
def merged(here: GameRow, there: GameRow) -> GameRow:
    """The stored game ``here`` once the file's copy ``there`` of it is merged in
    (docs/backup.md, "The merge rule")."""
    # Updated later, or as late with a higher version (the store's timestamps compare as text).
    newer = there if (there.updated, there.version) > (here.updated, here.version) else here
    results = [r for r in (here, there) if r.result is not None]
    first = min(results, key=lambda r: (r.finished or "", r is there)) if results else None
    out = replace(newer, id=here.id, origin=here.origin, created=here.created, version=here.version,
                  dealt=here.dealt, dealt_on=here.dealt_on if here.dealt_on is not None else there.dealt_on,
                  wish=here.wish if here.wish is not None else there.wish)
    if first is not None:
        out = replace(out, result=first.result, result_score=first.result_score, result_passes=first.result_passes,
                      finished=first.finished)
    if out == here:
        return here
    return replace(out, version=max(here.version, there.version) + 1)


def merge(tx: Transaction, player: str, backup: Checked, dropped: Callable[[str], None]) -> ImportReport:
    """Store ``backup`` into ``player``'s games and settings, in the caller's
    transaction; ``dropped(id)`` is told each stored game that changed (a cached copy
    of it is stale)."""
    stored = tx.rows(player)
    by_id = {r.id: r for r in stored}
    file_ids = {g.id for g in backup.games}
    by_key: dict[tuple[str, str, str], GameRow] = {}
    for r in stored:
        if r.id not in file_ids:
            by_key.setdefault((r.deal, r.variant, r.created), r)
    ids: dict[str, str] = {}  # the file's id -> the stored game's
    added = updated = kept = 0
    for g in backup.games:
        here = by_id.get(g.id) or by_key.pop((g.deal, g.variant, g.created), None)
        if here is None:
            gid = g.id if tx.head(g.id) is None else new_id()
            tx.insert_row(player, replace(g, id=gid))
            ids[g.id] = gid
            added += 1
            continue
        ids[g.id] = here.id
        out = merged(here, g)
        if out is here:
            kept += 1
            continue
        tx.replace_row(player, out)
        dropped(here.id)
        updated += 1
    # Settings: only those the player still has at their default.
    mine = Settings.from_stored(tx.settings(player))
    theirs = DEFAULTS.updated(backup.settings)
    taken = tuple(key for key in Settings.__struct_fields__ if key in backup.settings
                  and getattr(mine, key) == getattr(DEFAULTS, key) != getattr(theirs, key))
    if taken:
        tx.save_settings(player, mine.updated({k: theirs.to_json()[k] for k in taken}).to_json())
    # The table: the file's game, when the player has none there.
    table = False
    current = tx.current(player)
    if backup.table is not None and current not in by_id:
        tx.set_current(player, ids[backup.table])
        table = True
    return ImportReport(player, added, updated, kept, taken, table, backup.skipped)
