"""``firstlast tui`` options, checked without starting the terminal UI."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from reading import read

from firstlast.cli import tui_commands
from firstlast.cli.main import main
from firstlast.engine import Variant
from firstlast.play import PlayService
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[FirstLastApp]:
    apps: list[FirstLastApp] = []
    monkeypatch.setattr(FirstLastApp, "run", lambda self, *a, **k: apps.append(self))
    monkeypatch.setattr(tui_commands, "has_terminal", lambda: True)  # pytest's stdin is no terminal
    return apps


def test_deal_and_variant_flags(tmp_path: Path, started: list[FirstLastApp]) -> None:
    db = tmp_path / "g.sqlite3"
    assert main(["tui", "77", "--redeals", "unlimited", "--waste-playable", "--db", str(db), "--no-chance"]) == 0
    [app] = started
    assert app.session.game.deal == 77
    assert app.session.game.variant == Variant(redeals=None, waste_playable=True)
    assert app.chance is False
    assert read(GameStore(db)).games(PlayService(GameStore(db)).local_player())[0].deal == "77"


def test_no_deal_resumes_else_random(tmp_path: Path, started: list[FirstLastApp]) -> None:
    db = str(tmp_path / "g.sqlite3")
    assert main(["tui", "--db", db]) == 0
    first = started[-1].session
    assert first.game.variant == Variant()
    assert main(["tui", "--db", db]) == 0
    assert started[-1].session.game_id == first.game_id
    assert main(["tui", "--resume", "--db", db]) == 0
    assert started[-1].session.game_id == first.game_id


def test_errors_are_one_line(tmp_path: Path, started: list[FirstLastApp], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tui", "--resume", "--db", str(tmp_path / "empty.sqlite3")]) == 1
    assert capsys.readouterr().err.strip() == "firstlast: error: no unfinished game to resume"
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("not a database")
    assert main(["tui", "--db", str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("firstlast: error:") and "not a usable firstlast database" in err and "\n" not in err
    assert main(["tui", "12x", "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert not started


def test_no_terminal_is_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: with standard input not a terminal (a script, cron, `< /dev/null`) the
    # app started and waited for keys forever.
    runs: list[FirstLastApp] = []
    monkeypatch.setattr(FirstLastApp, "run", lambda self, *a, **k: runs.append(self))
    db = tmp_path / "g.sqlite3"
    with open(os.devnull) as devnull:
        monkeypatch.setattr(sys, "stdin", devnull)
        assert main(["tui", "5", "--db", str(db)]) == 1
    sys_err = capsys.readouterr().err
    assert sys_err == "firstlast: error: the terminal game needs a terminal: standard input is not one\n"
    assert not runs and not db.exists()


@pytest.mark.parametrize("db", ["", "  ", "some/folder/"])
def test_db_must_name_a_file(db: str, started: list[FirstLastApp], capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: --db '' opened the current folder ('.') and reported it as a broken database.
    assert main(["tui", "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.startswith("firstlast: error: Invalid value for '--db':") and "is not a file name" in err
    assert err.count("\n") == 1 and not started


def test_the_language_asked_for_opens_the_terminal(tmp_path: Path, started: list[FirstLastApp],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: ``FIRSTLAST_LANG=ru firstlast tui`` and ``firstlast --lang ru tui`` opened in
    English on a fresh database, and ``firstlast tui --lang ru`` was an error. Asked for by
    name, the language wins for this start (unsaved); else the saved setting; else the locale."""
    for var in ("FIRSTLAST_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    db = str(tmp_path / "g.sqlite3")
    assert main(["tui", "--db", db, "--no-chance"]) == 0
    assert started[-1].lang == "en"
    assert main(["--lang", "ru", "tui", "--db", db, "--no-chance"]) == 0
    assert started[-1].lang == "ru"
    assert main(["tui", "--lang", "ru", "--db", db, "--no-chance"]) == 0
    assert started[-1].lang == "ru"
    monkeypatch.setenv("FIRSTLAST_LANG", "ru")
    assert main(["tui", "--db", db, "--no-chance"]) == 0
    assert started[-1].lang == "ru"
    assert main(["tui", "--lang", "en", "--db", db, "--no-chance"]) == 0  # --lang wins over the variable
    assert started[-1].lang == "en"
    monkeypatch.delenv("FIRSTLAST_LANG")
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")  # the locale, on a database with no language saved
    assert main(["tui", "--db", db, "--no-chance"]) == 0
    assert started[-1].lang == "ru"
    play = PlayService(GameStore(tmp_path / "g.sqlite3"))
    assert play.settings(play.local_player()).lang is None  # nothing asked for was saved
    play.update_settings(play.local_player(), {"lang": "en"})
    assert main(["tui", "--db", db, "--no-chance"]) == 0  # the saved choice wins over the locale
    assert started[-1].lang == "en"
