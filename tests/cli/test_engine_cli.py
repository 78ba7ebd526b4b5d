"""``firstlast deal``, ``autoplay`` and ``replay`` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firstlast.cli.main import main
from firstlast.engine import Game, Variant, play_out


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_json_layout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "1", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) >= {"first", "reserve", "stock"}
    assert data["first"] == ["Jc", "5d", "As", "Qh", "9h", "Kc", "Jc", "9s"]
    assert data["reserve"] == ["8s", "Kh", "6d", "5h", "7s", "5c", "5s", "4h"]
    assert len(data["stock"]) == 88


def test_deal_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "18446744073709551615")
    assert code == 0 and "First row" in out and "Reserve" in out


def test_autoplay_one_deal_and_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "autoplay", "1")
    assert code == 0 and "lost" in out and "52 of 104" in out and "4 passes" in out
    code, out, _ = run(capsys, "autoplay", "1", "--transcript")
    lines = out.splitlines()
    game = Game(1)
    game.autoplay()
    assert len(lines) == len(game) + 1
    assert lines[0].split()[1] == str(game.moves[0])


def test_autoplay_range_json_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "autoplay", "10..20", "--json", "--redeals", "unlimited", "--waste-playable",
                       "--no-privilege")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["deal"] for r in rows] == list(range(10, 20))
    v = Variant(redeals=None, waste_playable=True, privileged_last=False)
    for r in rows:
        assert set(r) == {"deal", "won", "score", "passes"}
        assert (r["won"], r["score"], r["passes"]) == tuple(play_out(r["deal"], v))
        assert r["won"] is True and r["score"] == 104


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "-1"], ["deal", "x"], ["deal", "²"], ["autoplay", "1..²"], ["deal", "18446744073709551616"],
        ["autoplay", "5..3"],
        ["autoplay", "5..5"], ["autoplay", "a..b"], ["autoplay", "1", "--redeals", "-2"],
        ["autoplay", "1", "--redeals", "lots"], ["autoplay", "1", "--frobnicate"], ["replay", "/no/such/file"],
        ["autoplay", "1..3", "--transcript"], ["nosuchcommand"],
        # Regression: these were read as 5 and 3 redeals (int() takes any script's digits).
        ["autoplay", "1", "--redeals", "５"], ["autoplay", "1", "--redeals", "٣"],
    ],
)
def test_bad_arguments_give_one_line_and_nonzero(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, *args)
    assert code != 0
    assert len(err.strip().splitlines()) == 1 and err.startswith("firstlast: error:")
    assert "Traceback" not in err + out


def test_save_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.txt"
    code, out, _ = run(capsys, "autoplay", "3", "--save", str(record))
    assert code == 0 and record.read_text().startswith('[Format "firstlast-record 1"]')
    code, out2, _ = run(capsys, "replay", str(record))
    assert code == 0 and out2 == out
    record.write_text(record.read_text().replace('[Passes "4"]', '[Passes "2"]'))
    code, _, err = run(capsys, "replay", str(record))
    assert code == 1 and "Passes says '2'" in err and "line 10" in err
    record.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "replay", str(record))
    assert code == 1 and "not a text file" in err


def test_console_script_runs_as_a_real_process() -> None:
    proc = subprocess.run([sys.executable, "-m", "firstlast.cli.main", "autoplay", "0..3", "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 3
    proc = subprocess.run([sys.executable, "-m", "firstlast.cli.main", "deal", "nope"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("path", ["", " ", "folder/"])
def test_empty_or_folder_file_names_are_refused(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: `autoplay 1 --save ''` ended in a ValueError traceback ("PosixPath('.')
    # has an empty name"), and `replay ''` reported the current folder as unreadable.
    for args in (["autoplay", "1", "--save", path], ["replay", path]):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "is not a file name" in err and "Traceback" not in err


def test_replay_stops_reading_an_endless_file(capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: `replay /dev/zero` read until memory ran out; now a device is refused unread.
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    code, _, err = run(capsys, "replay", "/dev/zero")
    assert code == 1
    assert err == "firstlast: error: /dev/zero: not a regular file\n"


def test_replay_reads_a_record_in_the_old_spelling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A V2 record written when a play from the waste was spelled "W" (tests/data/golden)
    # replays to the same game the command writes today, which spells it "waste".
    old = Path(__file__).parent.parent / "data" / "golden" / "record-18446744073709551615-r0wn-old-W.txt"
    code, out_old, _ = run(capsys, "replay", str(old), "--transcript")
    assert code == 0 and "lost — 44 of 104" in out_old
    assert any(line.split()[1:3] == ["waste", "7h"] for line in out_old.splitlines())  # shown as "waste"
    new = tmp_path / "game.txt"
    code, out_new, _ = run(capsys, "autoplay", "18446744073709551615", "--redeals", "0", "--waste-playable",
                           "--no-privilege", "--transcript", "--save", str(new))
    assert code == 0 and out_new == out_old
    assert " waste " in new.read_text().replace("\n", " ") and " W " not in new.read_text().replace("\n", " ")


def test_replay_reads_windows_line_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.txt"
    assert run(capsys, "autoplay", "7", "--save", str(record))[0] == 0
    record.write_bytes(record.read_bytes().replace(b"\n", b"\r\n"))
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "Deal 7" in out and "WON" in out


@pytest.mark.parametrize(("args", "message"), [
    (["deal", "-1"], "firstlast: error: -1: a deal number cannot be negative (0…18446744073709551615)"),
    (["autoplay", "-5..3"], "firstlast: error: -5: a deal number cannot be negative (0…18446744073709551615)"),
    (["replay", "-3"], "firstlast: error: No such option '-3'."),
])
def test_negative_deal_numbers_are_named_as_such(args: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: `deal -1` said only "No such option '-1'."
    code, _, err = run(capsys, *args)
    assert code == 2 and err == message + "\n"


def test_deal_text_names_the_stock_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "1")
    assert code == 0 and "Stock, in the order it is turned:\n  Td 4s 3d" in out


def test_range_output_to_a_closed_pipe_stops_quietly() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "firstlast.cli.main", "autoplay", "0..200000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    assert proc.wait(timeout=120) == 0
    assert proc.stderr.read() == b""


@pytest.mark.parametrize(("args", "lang", "code", "said"), [
    # A whole document cut short: one line, status 1 (a tester: `deal 1 | head -1` exited 1, silently).
    (["deal", "1"], "en", 1, "firstlast: error: cannot write -: Broken pipe\n"),
    (["deal", "1", "--json"], "ru", 1, "firstlast: ошибка: не удаётся записать -: обрыв канала\n"),
    (["autoplay", "7", "--transcript"], "en", 1, "firstlast: error: cannot write -: Broken pipe\n"),
    (["autoplay", "7", "--save", "-"], "ru", 1, "firstlast: ошибка: не удаётся записать -: обрыв канала\n"),
    (["site", "--help"], "en", 1, "firstlast: error: cannot write -: Broken pipe\n"),
    (["autoplay", "0..20", "--json"], "en", 0, ""),  # a stream read in part (not at all, here): done
])
def test_output_cut_short_follows_one_policy(args: list[str], lang: str, code: int, said: str) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # the reader is gone before the first line
    done = subprocess.run([sys.executable, "-m", "firstlast.cli.main", "--lang", lang, *args], stdout=writer,
                          stderr=subprocess.PIPE, timeout=120, check=False)
    os.close(writer)
    assert (done.returncode, done.stderr.decode()) == (code, said)


@pytest.mark.parametrize(("lang", "said"), [("en", "firstlast: aborted"), ("ru", "firstlast: прервано")])
def test_ctrl_c_is_one_line(lang: str, said: str, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    # click turns Ctrl-C (KeyboardInterrupt) in a command into an Abort.
    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("firstlast.cli.engine_commands.Position.deal", interrupted)
    code, out, err = run(capsys, "--lang", lang, "deal", "1")
    assert (code, out, err) == (130, "", f"\n{said}\n")


def test_autoplay_ranges_past_2_63_deals_are_counted_not_len(capsys: pytest.CaptureFixture[str]) -> None:
    """``len(range)`` overflows past 2^63; the last deals up to 2^64 play (issue: a range of
    2^63 deals or more ended in an OverflowError traceback)."""
    from firstlast.cli.engine_commands import _count

    assert _count(range(0, 2**64)) == 2**64 and _count(range(5, 5)) == 0
    assert main(["autoplay", f"{2**64 - 3}..{2**64}", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["deal"] for line in lines] == [2**64 - 3, 2**64 - 2, 2**64 - 1]


@pytest.mark.parametrize("target", ["/dev/stdout", "-"])
def test_save_to_standard_output_through_a_pipe_prints_the_record(target: str) -> None:
    """(issue: ``--save /dev/stdout`` onto a pipe said "No such file or directory".)"""
    done = subprocess.run([sys.executable, "-m", "firstlast.cli.main", "autoplay", "7", "--save", target],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert '[Format "firstlast-record 1"]' in done.stdout and done.stderr == ""
