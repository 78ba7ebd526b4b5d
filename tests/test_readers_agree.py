"""Every face reads a record the same way: one table of tricky inputs, fed to each.

The faces: the engine's reader (``game_from_record``), ``firstlast replay`` on a file,
the terminal's import (its file dialog, then ``PlayService.import_record``), the play
layer's import itself and the web's ``POST /api/games/import``. For each input the test
asserts what docs/record-format.md ("Exactly what is read") says — accepted or refused —
and that every face says the same; an input on which the faces disagree, or on which
they all agree against the doc, fails. Backups (their byte-order mark, their move words,
their variant's redeals) get the same treatment from their three faces: the play layer,
``firstlast import`` and ``POST /api/backup``.
"""

from __future__ import annotations

import json
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playing import export_backup, step
from starlette.testclient import TestClient

from firstlast.cli.main import main
from firstlast.engine import CANONICAL, MAX_REDEALS, Game, Variant
from firstlast.engine.errors import RecordError
from firstlast.engine.record import MAX_RECORD_BYTES, game_from_record, record_to_text
from firstlast.play import PlayError, PlayService
from firstlast.store import GameStore
from firstlast.tui.dialogs import ImportDialog, Refused
from firstlast.web import create_app

warnings.filterwarnings("ignore", message=".*httpx.*")

OLD_W = Path(__file__).parent / "data" / "golden" / "record-18446744073709551615-r0wn-old-W.txt"


def _record(variant: Variant = CANONICAL) -> str:
    game = Game(7, variant)  # comes out under the canonical rules after 223 moves
    for _ in range(40):
        game.step()
    return record_to_text(game, date="2026-01-01")


R = _record()
R_1000 = _record(Variant(MAX_REDEALS))


def _moves(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to its move lines only."""
    return "\n".join(change(line) if line[:1].isdigit() else line for line in text.split("\n"))


def _first(text: str, old: str, new: str) -> str:
    """``text`` with the first ``old`` of its move lines replaced by ``new``."""
    at = text.index("\n1. ")
    return text[:at] + text[at:].replace(old, new, 1)


def _padded(size: int, fill: str = "x") -> str:
    """``R`` with a comment that brings it to ``size`` bytes of UTF-8 (about)."""
    room = size - len(R.encode("utf-8")) - len("#\n")
    return R + "#" + fill * (room // len(fill.encode("utf-8"))) + "x" * (room % len(fill.encode("utf-8"))) + "\n"


#: (name, text, accepted?) — accepted as docs/record-format.md says.
CASES: list[tuple[str, str, bool]] = [
    ("plain", R, True),
    ("no final line end", R.rstrip("\n"), True),
    ("CRLF", R.replace("\n", "\r\n"), True),
    ("BOM", "\ufeff" + R, True),
    ("BOM + CRLF", "\ufeff" + R.replace("\n", "\r\n"), True),
    ("two BOMs", "\ufeff\ufeff" + R, False),
    ("two BOMs + CRLF", "\ufeff\ufeff" + R.replace("\n", "\r\n"), False),
    ("BOM after a blank line", "\n\ufeff" + R, False),
    ("Redeals 1000", R_1000, True),
    ("Redeals 1001", R_1000.replace('[Redeals "1000"]', '[Redeals "1001"]'), False),
    ("Redeals 0003", R.replace('[Redeals "3"]', '[Redeals "0003"]'), True),
    ("Redeals 4,000 digits", R.replace('[Redeals "3"]', f'[Redeals "1{"0" * 3999}"]'), False),
    ("Redeals 5,000 digits", R.replace('[Redeals "3"]', f'[Redeals "{"9" * 5000}"]'), False),
    ("Redeals unlimited", _record(Variant(None)), True),
    ("Redeals Unlimited", _record(Variant(None)).replace('"unlimited"', '"Unlimited"'), False),
    ("tabs between moves", _moves(R, lambda line: line.replace(" ", "\t")), True),
    ("blanks around lines", "\n".join(f" \t{line}  " if line else line for line in R.split("\n")), True),
    ("trailing spaces", "\n".join(line + "   " for line in R.split("\n")), True),
    ("NBSP between moves", _first(R, "turn turn", "turn\u00a0turn"), False),
    ("U+2003 between moves", _first(R, "turn turn", "turn\u2003turn"), False),
    ("U+2028 between moves", _first(R, "turn turn", "turn\u2028turn"), False),
    ("U+2028 line ends", R.replace("\n", "\u2028"), False),
    ("NEL line ends", R.replace("\n", "\x85"), False),
    ("CR line ends", R.replace("\n", "\r"), False),
    ("vertical tab between moves", _first(R, "turn turn", "turn\x0bturn"), False),
    ("form feed line", R.replace("\n\n", "\n\x0c\n", 1), False),
    ("NBSP after a header", R.replace('[Deal "7"]', '[Deal "7"]\u00a0'), False),
    ("lower-case moves", _moves(R, str.lower), True),
    ("upper-case moves", _moves(R, str.upper), True),
    ("old W for the waste", OLD_W.read_text(encoding="utf-8"), True),
    ("t for turn", _first(R, "turn", "t"), False),
    ("a blank before the dot", _first(R, "11. ", "11 . "), False),
    ("no blank after the dot", _first(R, "11. ", "11."), False),
    ("empty", "", False),
    ("blanks only", " \t\n\r\n\n", False),
    ("BOM only", "\ufeff", False),
    ("NUL", R + "\x00", False),
    ("lone surrogate in a comment", R + "# \ud800\n", False),
    ("Russian comment", "# партия из газеты\n" + R, True),
    ("tampered score", R.replace('[Score "', '[Score "1'), False),
    ("exactly 1 MiB", _padded(MAX_RECORD_BYTES), True),
    ("1 MiB and a byte", _padded(MAX_RECORD_BYTES + 1), False),
    ("under 1 Mi characters, over 1 MiB", _padded(MAX_RECORD_BYTES + 2, "я"), False),
]


@pytest.fixture(scope="module")
def play(tmp_path_factory: pytest.TempPathFactory) -> PlayService:
    return PlayService(GameStore(tmp_path_factory.mktemp("play") / "games.sqlite3"))


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = GameStore(tmp_path_factory.mktemp("web") / "games.sqlite3")
    with TestClient(create_app(store), base_url="http://127.0.0.1", follow_redirects=False) as c:
        yield c


def _file(tmp_path: Path, text: str) -> Path:
    """The record as a file: its UTF-8 bytes (a lone surrogate as the bytes no decoder takes)."""
    path = tmp_path / "game.txt"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


def engine_face(text: str, tmp_path: Path, play: PlayService, web: TestClient) -> bool:
    try:
        game_from_record(text)
    except RecordError:
        return False
    return True


def replay_face(text: str, tmp_path: Path, play: PlayService, web: TestClient) -> bool:
    code = main(["replay", str(_file(tmp_path, text))])
    assert code in (0, 1), code
    return code == 0


def terminal_face(text: str, tmp_path: Path, play: PlayService, web: TestClient) -> bool:
    # What the terminal's import does: its dialog reads the file, the play layer the text.
    try:
        read = ImportDialog("en").read(str(_file(tmp_path, text)))
    except Refused:
        return False
    return play_face(read, tmp_path, play, web)


def play_face(text: str, tmp_path: Path, play: PlayService, web: TestClient) -> bool:
    try:
        play.import_record(None, text)
    except PlayError as e:
        assert e.code in ("record.invalid", "record.move", "record.empty"), e.code
        return False
    return True


def web_face(text: str, tmp_path: Path, play: PlayService, web: TestClient) -> bool:
    # JSON with ASCII escapes, so that a lone surrogate travels as "\ud800".
    r = web.post("/api/games/import", content=json.dumps({"record": text}),
                 headers={"content-type": "application/json"})
    assert r.status_code in (201, 400, 413, 422), r.text
    return r.status_code == 201


FACES: dict[str, Callable[[str, Path, PlayService, TestClient], bool]] = {
    "engine": engine_face, "replay": replay_face, "terminal": terminal_face, "play": play_face, "web": web_face,
}


@pytest.mark.parametrize(("text", "accepted"), [pytest.param(t, a, id=n) for n, t, a in CASES])
def test_every_face_accepts_and_refuses_the_same_records(text: str, accepted: bool, tmp_path: Path,
                                                         play: PlayService, web: TestClient,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    said = {name: face(text, tmp_path, play, web) for name, face in FACES.items()}
    capsys.readouterr()  # replay's own output
    assert said == dict.fromkeys(FACES, accepted)


def test_the_refusals_name_what_is_wrong() -> None:
    # One reader, so one sentence: the faces word it around (line, file name, language).
    for text, words in (("\ufeff\ufeff" + R, "line 1: two byte-order marks"),
                        (R_1000.replace('"1000"]', '"1001"]'),
                         f"Redeals must be unlimited or a whole number 0…{MAX_REDEALS}"),
                        (_first(R, "turn turn", "turn\u00a0turn"), "not a move"),
                        (R.replace("\n", "\u2028"), "character U+2028 is not allowed"),
                        (_first(R, "turn", "t"), "'t': not a move"),
                        ("\ufeff \n", "the record is empty"),
                        (_padded(MAX_RECORD_BYTES + 1), "the record is too long (over 1,048,576 bytes)")):
        with pytest.raises(RecordError) as info:
            game_from_record(text)
        assert words in str(info.value), (words, str(info.value))


# ---------------------------------------------------------------------------- backups
def _backup() -> str:
    """A backup of one game of 40 moves (its moves as the store writes them)."""
    with tempfile.TemporaryDirectory() as folder:
        play = PlayService(GameStore(Path(folder) / "games.sqlite3"))
        pid = play.local_player()
        game = play.start(pid, "number", 7)
        step(play, pid, game.id, 40)
        text = export_backup(play, pid)
        play.store.close()
        return text


B = _backup()
B_MOVES = next(line for line in B.split("\n") if '"moves": "' in line)


def _in_moves(old: str, new: str, count: int = 1) -> str:
    """``B`` with ``old`` replaced by ``new`` in its game's moves (``count`` times, -1: all)."""
    head, _, rest = B_MOVES.partition('"moves": "')
    moves, quote, tail = rest.partition('"')
    return B.replace(B_MOVES, head + '"moves": "' + moves.replace(old, new, count) + quote + tail)


#: (name, text, outcome): a backup's byte-order mark and move words as a record's. A file
#: is ``restored`` whole, ``refused`` whole, or its one game is ``left out`` as damaged
#: (issue 29.3: a damaged game never costs the others).
BACKUP_CASES: list[tuple[str, str, str]] = [
    ("plain", B, "restored"),
    ("BOM", "\ufeff" + B, "restored"),
    ("two BOMs", "\ufeff\ufeff" + B, "refused"),
    ("tabs between moves", _in_moves(" ", "\\t", -1), "restored"),
    ("lower-case moves", _in_moves("R", "r", -1), "restored"),
    ("NBSP between moves", _in_moves("turn turn", "turn\u00a0turn"), "left out"),
    ("t for turn", _in_moves("turn", "t"), "left out"),
    ("Redeals 1001", B.replace('"variant": "r3"', '"variant": "r1001"'), "refused"),
]


@pytest.mark.parametrize(("text", "outcome"), [pytest.param(t, o, id=n) for n, t, o in BACKUP_CASES])
def test_every_face_restores_the_same_backups(text: str, outcome: str, tmp_path: Path, play: PlayService,
                                              web: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        report = play.import_backup(None, text)
        by_play = "left out" if report.skipped else "restored"
    except PlayError as e:
        assert e.code.startswith("backup."), e.code
        by_play = "refused"
    capsys.readouterr()
    code = main(["import", str(_file(tmp_path, text)), "--db", str(tmp_path / "games.sqlite3")])
    assert code in (0, 1), code
    printed = capsys.readouterr()
    by_import = "refused" if code else ("left out" if "Not restored" in printed.out + printed.err else "restored")
    r = web.post("/api/backup", content=json.dumps({"backup": text}), headers={"content-type": "application/json"})
    assert r.status_code in (200, 422), r.text
    by_web = "refused" if r.status_code != 200 else ("left out" if r.json()["skipped"] else "restored")
    assert {"play": by_play, "import": by_import, "web": by_web} == dict.fromkeys(("play", "import", "web"), outcome)
