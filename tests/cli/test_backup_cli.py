"""``firstlast export`` and ``import`` (docs/backup.md): the local player's backup, a
round trip through a file or a pipe, what an import says in both languages, and bad
input: one line, a non-zero exit, never a traceback, nothing stored."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from playing import step

from firstlast.cli.main import main
from firstlast.play import PlayService
from firstlast.store import GameStore

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str, out: str = "") -> bool:
    return (err.startswith(("firstlast: error: ", "firstlast: ошибка: ")) and err.count("\n") == 1
            and "Traceback" not in err + out)


def played(db: Path) -> PlayService:
    """The local player of ``db`` with a won game, a lost one and one on the table."""
    play = PlayService(GameStore(db))
    pid = play.local_player()
    for deal in (7, 1):
        g = play.start(pid, "number", deal)
        step(play, pid, g.id, 10_000)
    g = play.start(pid, "number", 0)
    step(play, pid, g.id, 5)
    play.update_settings(pid, {"speed": 1})
    return play


def summary(db: Path) -> tuple[list[dict[str, object]], int, int]:
    play = PlayService(GameStore(db))
    pid = play.local_player()
    return msgspec.to_builtins(play.stats(pid)), len(play.games(pid, limit=1000)), play.settings(pid).speed


def test_export_then_import_into_a_fresh_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target, file = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3", tmp_path / "backup.json"
    played(source)
    code, out, err = run(capsys, "export", str(file), "--db", str(source))
    assert code == 0 and err == "" and out == f"Backup written to {file}: 3 games.\n"
    assert json.loads(file.read_text(encoding="utf-8"))["format"] == "firstlast-backup"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary file left
    code, out, err = run(capsys, "import", str(file), "--db", str(target))
    assert code == 0 and err == ""
    assert out == "3 games imported, 0 already here. 1 setting was taken from the backup.\n"
    assert summary(target) == summary(source) and summary(target)[0][0]["won"] == 1
    code, out, _ = run(capsys, "import", str(file), "--db", str(target))
    assert code == 0 and out == "0 games imported, 3 already here.\n"
    assert summary(target) == summary(source)


def test_a_newer_copy_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target, file = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3", tmp_path / "backup.json"
    play = played(source)
    run(capsys, "export", str(file), "--db", str(source))
    run(capsys, "import", str(file), "--db", str(target))
    pid = play.local_player()
    table = play.current(pid)
    assert table is not None
    step(play, pid, table.id, 4)
    run(capsys, "export", str(file), "--db", str(source))
    code, out, _ = run(capsys, "--lang", "ru", "import", str(file), "--db", str(target))
    assert code == 0 and out == "0 игр загружено, 1 обновлена по более новой копии, 2 уже были здесь.\n"


def test_export_overwrites_atomically_and_keeps_the_permissions(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    source, file = tmp_path / "a.sqlite3", tmp_path / "backup.json"
    played(source)
    file.write_text("old\n", encoding="utf-8")
    file.chmod(0o600)
    code, _, _ = run(capsys, "export", str(file), "--db", str(source))
    assert code == 0 and json.loads(file.read_text(encoding="utf-8"))["version"] == 1
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.sqlite3", "backup.json"]


def test_standard_output_and_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    source, target = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    played(source)
    code, out, err = run(capsys, "export", "-", "--db", str(source))
    assert code == 0 and json.loads(out)["games"] and err == "Backup written: 3 games.\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(out.encode("utf-8")), encoding="utf-8"))
    code, out, err = run(capsys, "import", "-", "--db", str(target))
    assert code == 0 and out.startswith("3 games imported") and err == ""
    assert summary(target) == summary(source)



def test_standard_input_is_refused_as_a_file_is(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # One reader and one set of sentences for a file and for "-" (recordfile, file.*).
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe{}"), encoding="utf-8"))
    code, out, err = run(capsys, "import", "-", "--db", str(tmp_path / "db.sqlite3"))
    assert code == 1 and err == "firstlast: error: -: not a text file (not UTF-8)\n" and out == ""


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_a_real_pipe_between_two_processes(out: str, tmp_path: Path) -> None:
    # Regression: to /dev/stdout, "Backup written to /dev/stdout" followed the backup on the pipe.
    if not Path(out).exists() and out != "-":
        pytest.skip(f"no {out} here")
    source, target = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    played(source)
    cli = [sys.executable, "-m", "firstlast.cli.main"]
    export = subprocess.run([*cli, "export", out, "--db", str(source)], capture_output=True, timeout=120, check=True)
    assert export.stderr.decode() == "Backup written: 3 games.\n"
    imported = subprocess.run([*cli, "import", "-", "--db", str(target)], input=export.stdout, capture_output=True,
                              timeout=120, check=False)
    assert imported.returncode == 0 and imported.stdout.decode().startswith("3 games imported")
    assert summary(target) == summary(source)


def _good(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    source, file = tmp_path / "src.sqlite3", tmp_path / "good.json"
    played(source)
    run(capsys, "export", str(file), "--db", str(source))
    return json.loads(file.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _with_game(doc: dict[str, object], **changes: object) -> str:
    games = doc["games"]
    assert isinstance(games, list)
    return json.dumps({**doc, "games": [*games[:-1], {**games[-1], **changes}]})


@pytest.mark.parametrize(("name", "content", "words"), [
    ("not-utf8.json", b"\xff\xfe{}", "not a text file (not UTF-8)"),
    ("not-json.json", b"this is not JSON\n", "nothing was imported: the backup is not JSON (line 1, column 1)"),
    ("list.json", b"[1, 2]", "nothing was imported: not a firstlast backup"),
    ("format.json", b'{"format": "other", "version": 1, "games": []}', "not a firstlast backup"),
    ("version.json", b'{"format": "firstlast-backup", "version": 7, "games": []}', "is of version 7"),
    ("huge-number.json", b'{"format": "firstlast-backup", "version": 1, "games": [{"deal": ' + b"9" * 5000 + b"}]}",
     "has 5,000 digits"),
    ("surrogate.json", b'{"format": "firstlast-backup", "version": 1, "games": [], "app": "\\ud800"}',
     "holds a lone surrogate"),
])
def test_bad_files_are_one_line_and_store_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                  content: bytes, words: str) -> None:
    file, db = tmp_path / name, tmp_path / "target.sqlite3"
    file.write_bytes(content)
    code, out, err = run(capsys, "import", str(file), "--db", str(db))
    assert code == 1 and out == "" and one_line_error(err), err
    assert words in err
    assert summary(db) == ([], 0, 2)  # no game, the default settings


@pytest.mark.parametrize(("change", "words"), [
    ({"deal": "9" * 5000}, "games[2].deal: deal numbers go from 0 to 18446744073709551615"),
    ({"moves": "turn"}, "move 1 (turn) does not replay: a card that fits must be played before turning (R9)"),
    ({"created": "9999-12-31T23:59:59-05:00"}, "games[2].created: must be a date and time"),
])
def test_a_damaged_game_is_named_and_the_others_restored(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         change: dict[str, str], words: str) -> None:
    """Issue 29: one damaged game refused the whole file."""
    file, db = tmp_path / "damaged.json", tmp_path / "target.sqlite3"
    file.write_text(_with_game(_good(tmp_path, capsys), **change), encoding="utf-8")
    code, out, err = run(capsys, "import", str(file), "--db", str(db))
    assert code == 0 and out.startswith("2 games imported") and "Traceback" not in err
    assert err.startswith("Not restored: game 3 of the backup (") and err.count("\n") == 1 and words in err, err
    assert err.count("game 3") == 1, err  # named once, not again by the refusal
    assert summary(db)[1] == 2


def test_a_refused_move_is_said_in_russian(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _good(tmp_path, capsys)
    games = doc["games"]
    assert isinstance(games, list)
    file = tmp_path / "illegal.json"
    file.write_text(_with_game(doc, moves="turn " + games[-1]["moves"]), encoding="utf-8")
    code, out, err = run(capsys, "--lang", "ru", "import", str(file), "--db", str(tmp_path / "t.sqlite3"))
    assert code == 0 and out.startswith("2 "), out
    assert "Не восстановлена игра 3 резервной копии (раскладка 0, id " in err
    assert "): ход 1 (turn) не воспроизводится: " in err and err.count("игра 3") == 1, err
    assert "a card that fits" not in err  # the engine's refusal in Russian, from its code


def test_export_names_a_game_it_leaves_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29: export copied a game whose stored moves were damaged, silently."""
    db, file = tmp_path / "a.sqlite3", tmp_path / "backup.json"
    play = played(db)
    [first, *_] = play.games(play.local_player(), limit=10)
    with play.store.transaction() as tx:
        tx.db.execute("UPDATE games SET moves = 'F9 ' || moves WHERE id = ?", (first.id,))
    code, out, err = run(capsys, "export", str(file), "--db", str(db))
    assert code == 0 and out == f"Backup written to {file}: 2 games.\n"
    assert err.startswith("Left out of the backup: game ") and f"id {first.id}" in err and err.count("\n") == 1
    assert err.count("game") == 1 and "move 1 (F9) does not replay: " in err, err  # named once
    code, out, err = run(capsys, "import", str(file), "--db", str(tmp_path / "b.sqlite3"))
    assert code == 0 and err == "" and out.startswith("2 games imported")


def test_missing_file_folder_and_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    code, out, err = run(capsys, "import", str(tmp_path / "nope.json"), "--db", str(db))
    assert code == 1 and one_line_error(err) and "No such file or directory" in err
    code, out, err = run(capsys, "import", str(tmp_path), "--db", str(db))
    assert code == 2 and one_line_error(err) and "is a directory" in err
    code, out, err = run(capsys, "export", str(tmp_path), "--db", str(db))
    assert code == 2 and one_line_error(err) and "is a directory" in err
    code, out, err = run(capsys, "export", str(tmp_path / "no" / "such" / "b.json"), "--db", str(db))
    assert code == 1 and out == "" and one_line_error(err) and "no such folder" in err


@needs_fifo
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    cli = [sys.executable, "-m", "firstlast.cli.main"]
    db = str(tmp_path / "games.sqlite3")
    for command in ("import", "export"):
        proc = subprocess.run([*cli, command, str(fifo), "--db", db], capture_output=True, text=True, timeout=60,
                              check=False)
        assert proc.returncode == 1 and one_line_error(proc.stderr), proc.stderr
        assert "not a regular file" in proc.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_too_large_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from firstlast.cli import backup_commands

    monkeypatch.setattr(backup_commands, "MAX_BACKUP_CHARS", 10)
    file = tmp_path / "big.json"
    file.write_text(" " * 11, encoding="utf-8")
    code, _, err = run(capsys, "import", str(file), "--db", str(tmp_path / "g.sqlite3"))
    assert code == 1 and one_line_error(err) and "too large for a backup (over 10 bytes)" in err


def test_a_database_that_is_not_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    code, out, err = run(capsys, "export", str(tmp_path / "b.json"), "--db", str(bad))
    assert code == 1 and out == "" and one_line_error(err) and not (tmp_path / "b.json").exists()


def test_help_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "export", "--help")
    assert code == 0 and "standard output" in out
    code, out, _ = run(capsys, "--lang", "ru", "import", "--help")
    assert code == 0 and "без повторов" in out
