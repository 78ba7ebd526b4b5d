"""Hostile input on the command line: huge numbers, odd files, links. One line, never a traceback."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from firstlast import recordfile
from firstlast.cli import engine_commands
from firstlast.cli.main import main
from firstlast.engine import Game, Position
from firstlast.engine.record import record_to_text

HUGE = "9" * 5000  # over Python's 4,300-digit limit for int()
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
needs_links = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str, out: str = "") -> bool:
    return (err.startswith("firstlast: error: ") and err.count("\n") == 1 and len(err) < 300
            and "Traceback" not in err + out)


def record_of(deal: int) -> str:
    game = Game(deal)
    game.autoplay()
    return record_to_text(game)


# ------------------------------------------------------------------ huge numbers


@pytest.mark.parametrize("args", [
    ["deal", HUGE], ["deal", "0" * 5000 + "1" + "0" * 20], ["autoplay", HUGE], ["autoplay", f"1..{HUGE}"],
    ["autoplay", f"{HUGE}..1"], ["autoplay", "1", "--redeals", HUGE], ["odds", "--deal", HUGE],
    ["odds", "--games", HUGE], ["odds", "--deal", "1", "--samples", HUGE], ["odds", "--deal", "1", "--seed", HUGE],
    ["odds", "--workers", HUGE], ["play", "--port", HUGE],
])
def test_huge_numbers_in_arguments_are_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: 25–39-line tracebacks (int() of over 4,300 digits), or one line repeating
    # all 5,000 digits.
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and one_line_error(err)


@pytest.mark.parametrize("args", [
    ["autoplay", "1", "--redeals", "99999999999999999999"],
    ["odds", "--deal", "1", "--redeals", "99999999999999999999"],
    ["autoplay", "1..1001", "--redeals", "99999999999999999999"],
])
def test_redeals_beyond_the_cap_are_usage_errors(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: passed the CLI, then numba's OverflowError ("int too big to convert").
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and one_line_error(err)
    assert "--redeals" in err and "1000" in err


def test_redeals_beyond_the_cap_in_a_real_process() -> None:
    proc = subprocess.run([sys.executable, "-m", "firstlast.cli.main", "odds", "--deal", "1", "--redeals",
                           "99999999999999999999"], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2 and proc.stdout == "" and one_line_error(proc.stderr)


@pytest.mark.parametrize(("redeals", "used", "message"), [
    ("r99999999999999999999", "0", "the odds estimator takes at most"),
    ("ru", "99999999999999999999", "the odds estimator takes at most"),
    ("r" + HUGE, "0", "malformed --position"),
    ("ru", HUGE, "malformed --position"),
])
def test_odds_position_with_huge_redeals(redeals: str, used: str, message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: a notation's 'r99999999999999999999' reached numba (OverflowError traceback).
    fields = str(Position.deal(1)).split(" ")
    fields[5], fields[6] = used, redeals
    code, out, err = run(capsys, "odds", "--samples", "10", "--position", " ".join(fields))
    assert code == 2 and out == "" and one_line_error(err) and message in err


def test_replay_of_a_record_with_huge_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = record_of(1)
    for old, new, line in (('[Deal "1"]', f'[Deal "{HUGE}"]', 4), ('[Redeals "3"]', f'[Redeals "{HUGE}"]', 5),
                           ("\n11. turn", f"\n{HUGE}. turn", 14)):
        record = tmp_path / "game.txt"
        record.write_text(text.replace(old, new, 1), encoding="utf-8")
        code, out, err = run(capsys, "replay", str(record))
        assert code == 1 and out == "" and one_line_error(err) and f"line {line}:" in err


# --------------------------------------------------------------------- --save


@needs_links
def test_save_writes_through_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: the rename replaced the link itself with a regular file; the target kept
    # its old text.
    folder = tmp_path / "real"
    folder.mkdir()
    target = folder / "game.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(Path("real") / "game.txt")  # relative, as users make them
    chain = tmp_path / "chain.txt"
    chain.symlink_to(link)
    for name in (link, chain):
        code, _, err = run(capsys, "autoplay", "3", "--save", str(name))
        assert code == 0 and err == ""
        assert link.is_symlink() and chain.is_symlink() and os.readlink(link) == str(Path("real") / "game.txt")
        assert target.read_text(encoding="utf-8") == record_of(3)
        assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the file keeps its permissions
        assert sorted(p.name for p in folder.iterdir()) == ["game.txt"]  # no temporary file left
        target.write_text("old\n")


@needs_links
def test_save_through_a_dangling_link_creates_its_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "new.txt")
    code, _, _ = run(capsys, "autoplay", "3", "--save", str(link))
    assert code == 0 and link.is_symlink() and (tmp_path / "new.txt").read_text(encoding="utf-8") == record_of(3)


@needs_fifo
def test_save_refuses_what_is_not_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: the rename replaced a FIFO (and, as root, /dev/full) by a regular file.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    for name in (fifo, link):
        code, out, err = run(capsys, "autoplay", "3", "--save", str(name))
        assert code == 1 and out == "" and one_line_error(err)
        assert err == f"firstlast: error: cannot write {name}: not a regular file\n"
        assert stat.S_ISFIFO(fifo.lstat().st_mode) and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "pipe"]


def test_save_into_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "autoplay", "3", "--save", str(tmp_path / "no" / "game.txt"))
    assert code == 1 and out == "" and one_line_error(err) and "no such folder" in err


def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.txt"
    target.write_text("old\n")

    def broken(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(engine_commands.os, "replace", broken)
    code, _, err = run(capsys, "autoplay", "3", "--save", str(target))
    assert code == 1 and err == f"firstlast: error: cannot write {target}: No space left on device\n"
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["game.txt"]


# --------------------------------------------------------------------- replay


@needs_fifo
def test_replay_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    # Regression: `replay FIFO` waited forever for a writer. A real process, so that a
    # regression times out here instead of hanging the test run.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "firstlast.cli.main", "replay", str(fifo)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == f"firstlast: error: {fifo}: not a regular file\n"


def test_replay_refuses_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "replay", str(tmp_path))
    assert code == 2 and out == "" and one_line_error(err) and "directory" in err


def test_replay_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    limit = recordfile.MAX_RECORD_BYTES  # one reader for the CLI and the terminal
    assert limit == 2**20
    text = record_of(3)
    padding = limit - len(text.encode()) - 1
    record = tmp_path / "game.txt"
    record.write_text(text + "#" * padding + "\n", encoding="utf-8")  # exactly at the limit: read
    assert record.stat().st_size == limit
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "Deal 3" in out
    record.write_text(text + "#" * (padding + 1) + "\n", encoding="utf-8")  # one byte over: refused unread
    code, out, err = run(capsys, "replay", str(record))
    assert code == 1 and out == ""
    assert err == f"firstlast: error: {record}: too large for a game record (over 1,048,576 bytes)\n"


def test_replay_accepts_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: the API read such a record, `replay` said "line 2: header after the moves began".
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text(record_of(7), encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes().replace(b"\n", b"\r\n"))
    code, out, err = run(capsys, "replay", str(plain))
    assert code == 0 and err == "" and "WON" in out
    assert run(capsys, "replay", str(marked)) == (0, out, "")


@needs_links
def test_replay_follows_a_link_to_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "game.txt").write_text(record_of(7), encoding="utf-8")
    (tmp_path / "link.txt").symlink_to("game.txt")
    code, out, _ = run(capsys, "replay", str(tmp_path / "link.txt"))
    assert code == 0 and "Deal 7" in out
