"""The default install has no numpy, matplotlib or dask, but has the fast forced line
(built at first use, else wasmtime): what needs the lab extra says in one line which
``pip install`` to run (exit 2, no traceback), and the rest works, odds runs included.
Where no fast line runs at all (no compiler, no wasmtime), runs say what to install and
everything else falls back to the engine.

Each case runs the CLI in a fresh interpreter with the extras' modules made unimportable
(``sys.modules[name] = None``), as in an install without the extras;
``FIRSTLAST_FASTLINE=none`` plays a machine with no fast line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firstlast.cli.main import main
from firstlast.engine import Position, play_out
from firstlast.odds.live import chance_to_come_out

NUMPY = ("numpy", "numba", "llvmlite")
LAB = ("matplotlib", "dask", "distributed")
SCIPY = ("scipy",)

LAB_PLOT = "firstlast: error: plots need the lab extra: pip install 'firstlast[lab]'"
LAB_DASK = "firstlast: error: --scheduler needs the lab extra (dask): pip install 'firstlast[lab]'"
NO_FAST_RUN = ("firstlast: error: odds runs need the fast forced line, and there is none here: install a C "
               "compiler (cc) or pip install wasmtime")
DEFAULT = NUMPY + LAB + SCIPY


def cli(blocked: tuple[str, ...], *args: str, fast: bool = True) -> subprocess.CompletedProcess[str]:
    code = (f"import sys\nfor m in {blocked!r}: sys.modules[m] = None\n"
            "from firstlast.cli.main import main\nsys.exit(main(sys.argv[1:]))\n")
    env = {k: v for k, v in os.environ.items() if k != "FIRSTLAST_FASTLINE"}
    if not fast:
        env["FIRSTLAST_FASTLINE"] = "none"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize("blocked", [LAB, DEFAULT], ids=["no-lab", "default-install"])
def test_plot_without_lab_says_which_install(tmp_path: Path, blocked: tuple[str, ...]) -> None:
    r = cli(blocked, "odds", "--games", "10", "--plot", str(tmp_path / "x.png"))
    assert (r.returncode, r.stdout, r.stderr) == (2, "", LAB_PLOT + "\n")


@pytest.mark.parametrize("blocked", [LAB, DEFAULT], ids=["no-lab", "default-install"])
def test_scheduler_without_lab_says_which_install(blocked: tuple[str, ...]) -> None:
    r = cli(blocked, "odds", "--games", "10", "--scheduler", "tcp://127.0.0.1:1")
    assert (r.returncode, r.stdout, r.stderr) == (2, "", LAB_DASK + "\n")


def test_runs_work_on_the_default_install() -> None:
    r = cli(DEFAULT, "odds", "--games", "3000", "--seed", "2", "--json")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    got = json.loads(r.stdout)
    assert got["games"] == 3000 and got["variant"] == "r3"
    r = cli(DEFAULT, "odds", "--games", "200", "--all")
    assert r.returncode == 0 and r.stderr == "" and "unlimited" in r.stdout


@pytest.mark.parametrize("args", [(), ("--games", "10"), ("--all", "--json")])
def test_runs_without_a_fast_line_say_what_to_install(args: tuple[str, ...]) -> None:
    r = cli(DEFAULT, "odds", *args, fast=False)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", NO_FAST_RUN + "\n")


def test_in_process_hint(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The same through the in-process entry point the other CLI tests use.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["odds", "--games", "10", "--plot", "x.png"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", LAB_PLOT + "\n")


def test_chance_of_a_deal_works_without_a_fast_line() -> None:
    # The engine samples instead; the same samples as the kernel, so the same answer.
    r = cli(DEFAULT, "odds", "--deal", "1", "--samples", "150", "--seed", "4", "--json", fast=False)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("\n") == 1 and "pip install wasmtime" in r.stderr
    got = json.loads(r.stdout)
    want = chance_to_come_out(Position.deal(1), 150, 4)
    assert (got["probability"], got["low"], got["high"], got["samples"]) == (
        want.probability, want.low, want.high, 150)


@pytest.mark.parametrize("fast", [True, False], ids=["default-install", "no-fast-line"])
def test_play_commands_work_without_any_extra(fast: bool) -> None:
    r = cli(DEFAULT, "--help", fast=fast)
    assert r.returncode == 0 and "autoplay" in r.stdout
    r = cli(DEFAULT, "autoplay", "1", fast=fast)
    assert r.returncode == 0 and r.stderr == "" and "Deal 1" in r.stdout
    # A long range: the fast line, or the engine (same results) with a one-line note.
    r = cli(DEFAULT, "autoplay", "0..1000", "--json", fast=fast)
    assert r.returncode == 0, r.stderr
    if fast:
        assert r.stderr == ""
    else:
        assert r.stderr.count("\n") == 1 and "pip install wasmtime" in r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 1000
    for d in (0, 1, 499, 999):
        o = play_out(d, Position.deal(0).variant)
        assert (lines[d]["deal"], lines[d]["won"], lines[d]["score"], lines[d]["passes"]) == (
            d, o.won, o.score, o.passes)
