"""``firstlast odds`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import naive
import pytest

from firstlast.cli import odds_commands
from firstlast.cli.main import main
from firstlast.engine import Game, Position, Variant, play_out
from firstlast.odds.live import chance_to_come_out


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["odds", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_run_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--games", "3000", "--redeals", "1", "--waste-playable", "--json")
    assert code == 0
    data = json.loads(out)
    v = Variant(1, True)
    # The naive reference (tests/naive.py, proven equal to the engine) plays the 3000
    # deals in a second; the engine itself checks a sample.
    wins = sum(naive.play_out(d, v)[0] for d in range(3000))
    assert all(naive.play_out(d, v) == tuple(play_out(d, v)) for d in range(0, 3000, 150))
    assert (data["games"], data["wins"], data["variant"], data["first_deal"]) == (3000, wins, "r1w", 0)
    assert data["ci_low"] <= data["win_rate"] == wins / 3000 <= data["ci_high"]
    assert sum(data["passes_all"].values()) == 3000


def test_text_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--games", "5000", "--no-privilege", "--seed", "2")
    assert code == 0
    assert "no privileged card" in out and "95 % Wilson CI" in out and "games/s" in out
    assert "Passes used" in out and "Score" in out and f"{2 * 2**32:,}" in out


def test_all_variants_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--all", "--games", "2000", "--json")
    assert code == 0
    data = json.loads(out)
    tokens = [v["variant"] for v in data["variants"]]
    assert len(tokens) == len(set(tokens)) == 20
    assert {"r0", "r1", "r3", "ru", "r3w", "r3n", "ruwn"} <= set(tokens)
    for v in data["variants"]:
        assert {"games", "wins", "win_rate", "ci_low", "ci_high"} <= set(v)
        if v["redeals"] is None:
            assert v["wins"] == 2000


def test_all_variants_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--all", "--games", "1000")
    assert code == 0
    assert out.count("\n") >= 22 and "unlimited" in out and "100.0000 %" in out
    assert "follow from the unlimited runs" in out and "4,000 games played" in out


def test_all_from_unlimited_runs_equals_every_variant_played(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    # `--all` plays the four unlimited variants and derives the 16 finite rows;
    # `--all --direct` plays all 20: the same JSON, counts and scores included.
    code, out, _ = run(capsys, "--all", "--games", "20000", "--seed", "3", "--json", "--plot",
                       str(tmp_path / "t.png"))
    assert code == 0
    derived = json.loads(out)
    code, out, _ = run(capsys, "--all", "--direct", "--games", "20000", "--seed", "3", "--json")
    assert code == 0
    direct = json.loads(out)
    assert (derived["method"], direct["method"]) == ("unlimited", "direct")
    assert (derived["games_played"], direct["games_played"]) == (4 * 20000, 20 * 20000)
    assert derived["variants"] == direct["variants"]
    assert (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter((0.0, 2.0))  # the run takes 2 s
    monkeypatch.setattr(odds_commands, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    target = tmp_path / "odds.png"
    code, out, err = run(capsys, "--games", "2000", "--plot", str(target))
    assert code == 0 and "Plot written" in err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Regression: the speed counted the 2,000 games shown, not the 10,000 played for the plot
    # (r3 and the four unlimited curves) in the same 2 s.
    assert "Speed: 5,000 games/s (2.00 s, " in out


def test_deal_chance(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--deal", "1", "--samples", "2000", "--json")
    assert code == 0
    data = json.loads(out)
    est = chance_to_come_out(Position.deal(1), 2000, 0)
    assert (data["probability"], data["low"], data["high"], data["samples"]) == (
        est.probability, est.low, est.high, 2000)
    assert data["outcome"] == {"won": False, "score": 52, "passes": 4}
    code, out, _ = run(capsys, "--deal", "1", "--samples", "2000")
    assert code == 0 and "chance of coming out" in out and "lost" in out


def test_position_chance(capsys: pytest.CaptureFixture[str]) -> None:
    g = Game(6)
    for _ in range(40):
        g.step()
    code, out, _ = run(capsys, "--position", str(g.position), "--samples", "1000", "--seed", "4", "--json")
    assert code == 0
    assert json.loads(out)["probability"] == chance_to_come_out(g.position, 1000, 4).probability


@pytest.mark.parametrize("args,message", [
    (["--games", "0"], "--games"),
    (["--games", "-5"], "--games"),
    (["--games", "lots"], "--games"),
    (["--position", "Jc5d nonsense"], "malformed --position"),
    (["--position", str(Position.deal(1)).replace("Jc", "Qc", 1)], "malformed --position"),
    (["--deal", "1", "--position", str(Position.deal(1))], "not both"),
    (["--position", str(Position.deal(1)), "--waste-playable"], "leave out --redeals"),
    (["--deal", "-1"], "deal number"),
    (["--deal", "1", "--all"], "--all"),
    (["--samples", "0", "--deal", "3"], "--samples"),
    (["--seed", str(2**32), "--games", "10"], "--seed"),
    (["--workers", "0", "--games", "10"], "--workers"),
    (["--workers", "1", "--scheduler", "tcp://127.0.0.1:9", "--games", "10"], "--workers"),
    (["--redeals", "-2"], "redeals"),
    (["--plot", "/nonexistent-dir/x.png", "--games", "10"], "no such folder"),
    (["--direct", "--games", "10"], "--direct goes with --all"),
])
def test_bad_inputs_exit_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, *args)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and err.startswith("firstlast: error:") and message in err


def test_unreachable_scheduler_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--games", "10", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "cannot reach the Dask scheduler" in err


def test_scheduler_run_equals_local_run(capsys: pytest.CaptureFixture[str]) -> None:
    from distributed import LocalCluster

    code, out, _ = run(capsys, "--games", "20000", "--seed", "9", "--redeals", "2", "--json")
    assert code == 0
    local = json.loads(out)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        code, out, _ = run(capsys, "--games", "20000", "--seed", "9", "--redeals", "2", "--json",
                           "--scheduler", cluster.scheduler_address)
        assert code == 0
        remote = json.loads(out)
        code, out, _ = run(capsys, "--all", "--games", "5000", "--seed", "9", "--json", "--scheduler",
                           cluster.scheduler_address)
        assert code == 0
        remote_all = json.loads(out)
    for key in ("games", "wins", "win_rate", "ci_low", "ci_high", "passes_all", "scores", "first_deal"):
        assert remote[key] == local[key]
    code, out, _ = run(capsys, "--all", "--games", "5000", "--seed", "9", "--json")
    assert code == 0 and json.loads(out)["variants"] == remote_all["variants"]


def test_table_shows_a_dash_when_nothing_was_won(capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: the "mean passes (won)" column printed "nan" for variants with no win.
    code, out, _ = run(capsys, "--all", "--games", "30")
    assert code == 0 and "nan" not in out
    zero = [line for line in out.splitlines() if line.split()[:3] == ["0", "no", "yes"]]
    assert len(zero) == 1 and zero[0].split()[3] == "0" and zero[0].endswith("—")


@pytest.mark.parametrize("args,message", [
    # Regression: int() read these as 5 and 1.
    (["--games", "５"], "is not a whole number (digits 0-9)"),
    (["--workers", "١", "--games", "10"], "is not a whole number (digits 0-9)"),
    # Regression: '' wrote a hidden ".png" in the current folder and said "Plot written to .".
    (["--plot", "", "--games", "10"], "is not a file name"),
    # Regression: an unknown format was found only after the whole run.
    (["--plot", "odds.xyz", "--games", "10"], "cannot write .xyz figures"),
    # Regression: '' quietly ran locally.
    (["--scheduler", "", "--games", "10"], "--scheduler needs an address"),
    (["--scheduler", "", "--deal", "3"], "--scheduler needs an address"),
])
def test_more_bad_inputs_exit_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch, args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("firstlast: error:") and message in err
    assert list(tmp_path.iterdir()) == []


def test_a_server_that_is_not_dask_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: a server answering garbage made distributed allocate exabytes
    # (numpy MemoryError traceback) or fail with an unrelated ValueError.
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def answer_garbage() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"\xff" * 64)

    threading.Thread(target=answer_garbage, daemon=True).start()
    try:
        code, out, err = run(capsys, "--games", "10", "--scheduler", f"tcp://127.0.0.1:{port}")
    finally:
        listener.close()
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "cannot reach the Dask scheduler" in err


def test_canonical_flags_do_not_lose_silently_to_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: `--redeals 3` equals the default, so it was quietly ignored on a position
    # whose notation says unlimited redeals.
    notation = str(Position.deal(0, Variant(None)))
    code, out, err = run(capsys, "--position", notation, "--redeals", "3", "--samples", "100")
    assert code == 2 and out == "" and "notation says its variant (ru)" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "--position", notation, "--redeals", "unlimited", "--samples", "100")
    assert code == 0 and "unlimited redeals" in out


def test_one_game_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--games", "1")
    assert code == 0 and "(seed 0): 1 game\n" in out


def test_plot_formats_that_cannot_be_made_fail_before_the_run(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Regression: .pgf without TeX ended in a matplotlib RuntimeError traceback, after the run.
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    code, out, err = run(capsys, "--games", "10", "--plot", str(tmp_path / "odds.pgf"))
    assert code == 2 and out == "" and "(TeX), not found here" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_progress_moves_more_than_once_in_a_default_run(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Regression: with 2^20-deal chunks the default million-game run advanced the
    # progress bar once, from 0 straight to done.
    from firstlast.odds import runner

    chunks: list[int] = []
    real_run = runner.run

    def spy(variants: list[Variant], games: int, *args: object, chunk: int = runner.CHUNK,
            **kw: object) -> list[object]:
        chunks.append(chunk)
        return real_run(variants, 1000, chunk=chunk)  # the output is not under test here

    monkeypatch.setattr(runner, "run", spy)
    code, _, _ = run(capsys, "--json")
    assert code == 0 and chunks and all(1_000_000 // c >= 10 for c in chunks)
