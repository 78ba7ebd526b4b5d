"""The command line in the player's language (issue 10): ``--lang``, else
``FIRSTLAST_LANG``, else the locale; English by default. Messages come from the
catalogs; machine output (JSON, tab-separated lines, move notation) does not change."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest

from firstlast.cli.lang import lang_from_env
from firstlast.cli.main import main

RU_ERROR = "firstlast: ошибка: "


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def russian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIRSTLAST_LANG", "ru")


# ------------------------------------------------------------------ choosing the language


@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"),
    ({"FIRSTLAST_LANG": "ru"}, "ru"),
    ({"FIRSTLAST_LANG": "RU "}, "ru"),
    ({"FIRSTLAST_LANG": "en", "LANG": "ru_RU.UTF-8"}, "en"),
    ({"FIRSTLAST_LANG": "fr", "LANG": "ru_RU.UTF-8"}, "ru"),  # not a catalog: the locale decides
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_MESSAGES": "ru_RU", "LANG": "en_GB"}, "ru"),
    ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),  # LC_ALL wins over LANG (POSIX order)
    ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ru"}, "ru"),  # empty ones do not count
])
def test_the_language_comes_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert lang_from_env(env) == lang


def test_english_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "deal", "abc")
    assert code == 2 and err == ("firstlast: error: Invalid value for 'NUMBER': a deal number is a whole number "
                                 "0…18446744073709551615 written in digits 0-9, not 'abc'\n")
    code, out, _ = run(capsys, "deal", "1")
    assert code == 0 and out.startswith("Deal 1\nFirst row  F1–F8: ")


def test_the_locale_picks_russian(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    code, out, _ = run(capsys, "deal", "1")
    assert code == 0 and out.startswith("Раскладка 1\nВерхний ряд F1–F8: ")


def test_lang_option_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FIRSTLAST_LANG", "ru")
    code, out, _ = run(capsys, "--lang", "en", "deal", "1")
    assert code == 0 and out.startswith("Deal 1\n")
    monkeypatch.setenv("FIRSTLAST_LANG", "en")
    code, out, _ = run(capsys, "--lang", "ru", "deal", "1")
    assert code == 0 and out.startswith("Раскладка 1\n")
    # The choice lasts one call only.
    code, out, _ = run(capsys, "deal", "1")
    assert code == 0 and out.startswith("Deal 1\n")


def test_an_unknown_lang_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--lang", "fr", "deal", "1")
    assert code == 2 and out == "" and err.startswith("firstlast: error: ") and err.count("\n") == 1


# ------------------------------------------------------------------ errors in Russian


@pytest.mark.usefixtures("russian")
@pytest.mark.parametrize(("args", "message"), [
    (["deal", "abc"], "недопустимое значение 'NUMBER': номер раскладки — целое число 0…18446744073709551615, "
                      "записанное цифрами 0-9, а не «abc»"),
    (["deal", "18446744073709551616"], "недопустимое значение 'NUMBER': номера раскладок — от 0 до "
                                       "18446744073709551615"),
    (["deal", "-1"], "-1: номер раскладки не бывает отрицательным (0…18446744073709551615)"),
    (["deal"], "не хватает аргумента 'NUMBER'."),
    (["autoplay", "5..3"], "недопустимое значение 'DEAL|A..B': пустой диапазон 5..3: конец должен быть больше "
                           "начала (полуоткрытый [A, B))"),
    (["autoplay", "1", "--jsn"], "нет параметра '--jsn'. Может быть, '--json'?"),
    (["autoplay", "1..3", "--transcript"], "--transcript и --save — для одной раскладки, не для диапазона"),
    (["odds", "--deal", "1", "--position", "x"], "укажите --deal или --position, но не оба"),
])
def test_bad_input_errors_are_russian(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *args)
    assert (code, out, err) == (2, "", RU_ERROR + message + "\n")


@pytest.mark.usefixtures("russian")
def test_a_missing_file_is_said_in_russian(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.txt"
    code, out, err = run(capsys, "replay", str(missing))
    assert (code, out) == (1, "")
    assert err == f"{RU_ERROR}не удаётся прочитать {missing}: нет такого файла или папки\n"


def test_a_missing_file_keeps_the_system_words_in_english(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.txt"
    code, _, err = run(capsys, "replay", str(missing))
    assert code == 1 and err == f"firstlast: error: cannot read {missing}: {os.strerror(2)}\n"


def test_a_folder_given_as_a_record_is_said_in_either_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 2 and err == f"firstlast: error: Invalid value for 'FILE': File '{tmp_path}' is a directory.\n"
    monkeypatch.setenv("FIRSTLAST_LANG", "ru")
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 2 and err == f"{RU_ERROR}недопустимое значение 'FILE': '{tmp_path}' — папка, а не файл.\n"


@pytest.mark.usefixtures("russian")
def test_a_device_given_as_a_record_is_said_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null here")
    code, _, err = run(capsys, "replay", "/dev/null")
    assert code == 1 and err == f"{RU_ERROR}/dev/null: это не обычный файл\n"


def test_plot_without_lab_says_which_install_in_russian(tmp_path: Path) -> None:
    # As tests/cli/test_extras.py: matplotlib made unimportable in a fresh interpreter.
    code = ("import sys\nsys.modules['matplotlib'] = None\n"
            "from firstlast.cli.main import main\nsys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "FIRSTLAST_LANG": "ru"}
    r = subprocess.run([sys.executable, "-c", code, "odds", "--games", "10", "--plot", str(tmp_path / "x.png")],
                       capture_output=True, text=True, timeout=300, env=env)
    assert (r.returncode, r.stdout, r.stderr) == (
        2, "", RU_ERROR + "для графиков нужен пакет lab: pip install 'firstlast[lab]'\n")


def test_odds_write_numbers_as_each_language_does(capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: Russian odds said "1,001 игра", "25.475 %" and "Скорость: 520,103 игр/с";
    Russian groups digits with a no-break space and writes a decimal comma (i18n.number)."""
    nb = "\u00a0"
    code, out, _ = run(capsys, "--lang", "ru", "odds", "--games", "1001", "--seed", "2")
    assert code == 0 and f"(зерно 2): 1{nb}001 игра\n" in out and f"Вышло 255 из 1{nb}001: 25,475 %" in out
    assert re.search(r"Скорость: \d{1,3}(\xa0\d{3})* игр/с \(\d+,\d\d с", out)
    code, out, _ = run(capsys, "odds", "--games", "1001", "--seed", "2")
    assert code == 0 and "(seed 2): 1,001 games\n" in out and "Won 255 of 1,001: 25.475 %" in out
    code, out, _ = run(capsys, "--lang", "ru", "odds", "--deal", "1", "--samples", "1500", "--seed", "4")
    assert f"24,8 % (95 % интервал 22,7–27,0 %, выборок: 1{nb}500)" in out
    code, _, err = run(capsys, "--lang", "ru", "odds", "--games", "1" * 1001)
    assert code == 2 and f"(символов: 1{nb}001)" in err


@pytest.mark.usefixtures("russian")
def test_plot_hint_in_process_in_russian(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert run(capsys, "odds", "--games", "10", "--plot", "x.png") == (
        2, "", RU_ERROR + "для графиков нужен пакет lab: pip install 'firstlast[lab]'\n")


# ------------------------------------------------------------------ refusals from their codes


def _record_with(tmp_path: Path, move: str) -> Path:
    path = tmp_path / "game.txt"
    path.write_text('[Format "firstlast-record 1"]\n[Deal "3"]\n[Redeals "3"]\n[WastePlayable "no"]\n'
                    f'[PrivilegedLast "yes"]\n\n1. {move}\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(("move", "english", "russian_reason"), [
    ("waste", "the waste's top card is not a source in these rules (R6; variant V2 allows it)",
     "верхняя карта сборной кучки в этих правилах в игру не идёт (R6; вариант V2 это разрешает)"),
    ("X9", "not a move: “X9” (expected turn, redeal, R1–R8, F1–F8 or waste)",
     "это не ход: «X9» (ходы: turn, redeal, R1–R8, F1–F8 или waste)"),
    # Regression: a word longer than "redeal" was refused apart, in English only.
    ("redeals", "not a move: “redeals” (expected turn, redeal, R1–R8, F1–F8 or waste)",
     "это не ход: «redeals» (ходы: turn, redeal, R1–R8, F1–F8 или waste)"),
])
def test_a_refused_move_in_a_record_is_said_from_its_code(move: str, english: str, russian_reason: str,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    # refusal_text / invalid_text from the engine error's code, in both languages.
    path = _record_with(tmp_path, move)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1 and err == f"firstlast: error: {path}: line 7: move 1 '{move}': {english}\n"
    monkeypatch.setenv("FIRSTLAST_LANG", "ru")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1 and err == f"{RU_ERROR}{path}: строка 7: ход 1 '{move}': {russian_reason}\n"


# ------------------------------------------------------------------ results, help, machine output


@pytest.mark.usefixtures("russian")
def test_result_line_and_help_are_russian(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "autoplay", "3")
    assert code == 0 and out.startswith("Раскладка 3 (3 перекладки") and "не вышел — в кучках 78 из 104" in out
    code, out, _ = run(capsys, "deal", "--help")
    assert code == 0 and "Показать раскладку № NUMBER" in out and "Напечатать один объект JSON" in out
    assert "Показать эту справку и выйти." in out
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "«Первые и последние»" in out and "Язык сообщений и справки" in out


def test_help_follows_lang_given_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--lang", "ru", "odds", "--help")
    assert code == 0 and "Игр на вариант." in out and "(SEED ≤ 4294967295)" in out
    code, out, _ = run(capsys, "odds", "--help")
    assert code == 0 and "Games per variant." in out and "Игр" not in out


def test_play_and_tui_help_are_russian(capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: both were plain click commands, so their help stayed English.
    code, out, _ = run(capsys, "--lang", "ru", "play", "--help")
    out = " ".join(out.split())  # help is wrapped to the terminal's width
    assert code == 0 and "Играть в браузере" in out and "Порт; 0 — выбрать свободный." in out
    assert "Открыть страницу на этой раскладке (0 … 18446744073709551615)." in out
    assert "С --deal: правила" in out and "Показать эту справку и выйти." in out
    assert "Port to listen" not in out and "Open the page" not in out and "With --deal" not in out
    code, out, _ = run(capsys, "--lang", "ru", "tui", "--help")
    out = " ".join(out.split())
    assert code == 0 and "Играть в «Первые и последние» в терминале." in out
    assert "Продолжить последнюю неоконченную игру" in out and "Не показывать шанс" in out
    assert "Play First and Last" not in out and "Game database" not in out
    code, out, _ = run(capsys, "--lang", "ru", "--help")
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ") and line.split()}
    assert code == 0 and "Играть в браузере" in lines["play"] and "Играть в «Первые" in lines["tui"]
    code, out, _ = run(capsys, "play", "--help")
    out = " ".join(out.split())
    assert code == 0 and "Open the page on this deal (0 … 18446744073709551615)." in out and "Играть" not in out


@pytest.mark.usefixtures("russian")
def test_play_messages_are_russian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    from firstlast.web import server

    code, _, err = run(capsys, "play", "--no-browser", "--host", " ")
    assert code == 2 and err == RU_ERROR + "--host требует адрес, например 127.0.0.1\n"
    code, _, err = run(capsys, "play", "--no-browser", "--variant", "r0w")
    assert code == 2 and err.startswith(RU_ERROR + "--variant требует --deal")

    def fake_serve(store: object, *, echo: Callable[[str], None], say: Callable[..., str], **_kw: object) -> None:
        # The server says its lines by catalog key (``say``), in the CLI's language.
        for key, params in (("cli.play.served", {"url": "http://127.0.0.1:5/?player=x"}),
                            ("cli.play.exposed", {"host": "0.0.0.0"}), ("cli.play.no_browser", {}),
                            ("cli.play.stop_hint", {}), ("cli.play.stopped", {})):
            echo(say(key, **params))

    monkeypatch.setattr(server, "serve", fake_serve)
    code, out, _ = run(capsys, "play", "--no-browser", "--db", str(tmp_path / "g.sqlite3"))
    assert code == 0 and out.splitlines() == [
        "«Первые и последние» доступны по адресу http://127.0.0.1:5/?player=x — ваши игры, общие с игрой в терминале",
        "Внимание: адрес 0.0.0.0 доступен с других компьютеров.",
        "Браузер открыть не удалось: откройте в нём адрес выше.",
        "Ctrl-C — остановить.", "Остановлено."]

    def cannot_listen(store: object, **_kw: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(server, "serve", cannot_listen)
    code, _, err = run(capsys, "play", "--no-browser", "--port", "80", "--db", str(tmp_path / "g.sqlite3"))
    assert code == 1 and err.startswith(RU_ERROR + "не удаётся слушать 127.0.0.1:80: ")
    assert "Permission denied" not in err


@pytest.mark.usefixtures("russian")
def test_tui_without_a_terminal_says_so_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tui")  # pytest's standard input is not a terminal
    assert code == 1 and err == RU_ERROR + "игре в терминале нужен терминал, а стандартный ввод — не терминал\n"


@pytest.mark.parametrize(("args", "ru", "en"), [
    (["odds", "--games", "0"], "'--games': 0 не входит в диапазон от 1 до 4294967296.",
     "'--games': 0 is not in the range 1<=x<=4294967296."),
    (["odds", "--workers", "0"], "'--workers': 0 — слишком мало: нужно не меньше 1.",
     "'--workers': 0 is not in the range x>=1."),
    (["odds", "--samples", "10000001"], "'--samples': 10000001 не входит в диапазон от 1 до 10000000.",
     "'--samples': 10000001 is not in the range 1<=x<=10000000."),
])
def test_range_errors_are_in_the_chosen_language(args: list[str], ru: str, en: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: click's "… is not in the range 1<=x<=4294967296." stayed English.
    code, _, err = run(capsys, "--lang", "ru", *args)
    assert code == 2 and err == RU_ERROR + "недопустимое значение " + ru + "\n"
    code, _, err = run(capsys, *args)
    assert code == 2 and err == "firstlast: error: Invalid value for " + en + "\n"


def test_every_kind_of_bound_is_translated() -> None:
    from firstlast.cli.lang import set_lang
    from firstlast.cli.options import WholeNumber

    set_lang("ru")
    try:
        with pytest.raises(click.BadParameter) as e:
            WholeNumber(0, 1).convert("2", None, None)
        assert e.value.message == "2 не входит в диапазон от 0 до 1."
        with pytest.raises(click.BadParameter) as e:
            WholeNumber(max=5).convert("6", None, None)
        assert e.value.message == "6 — слишком много: нужно не больше 5."
        with pytest.raises(click.BadParameter) as e:
            WholeNumber(min=1).convert("0", None, None)
        assert e.value.message == "0 — слишком мало: нужно не меньше 1."
        assert WholeNumber(0, 5, clamp=True).convert("9", None, None) == 5
    finally:
        set_lang(None)


@pytest.mark.parametrize("args", [
    ["autoplay", "0..5", "--json"], ["deal", "7", "--json"], ["odds", "--deal", "1", "--samples", "50", "--json"],
])
def test_machine_output_is_the_same_in_every_language(args: list[str], monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, english, _ = run(capsys, *args)
    monkeypatch.setenv("FIRSTLAST_LANG", "ru")
    code_ru, russian_out, _ = run(capsys, *args)
    assert code == code_ru == 0 and english == russian_out and english.startswith("{")


def test_tab_separated_lines_stay_english_summary_is_russian(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FIRSTLAST_LANG", "ru")
    code, out, _ = run(capsys, "autoplay", "0..3")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert all(line.split("\t")[1] in ("won", "lost") for line in lines[:3])
    assert lines[3].startswith("вышло ") and "из 3" in lines[3]


def test_clicks_own_words_follow_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    """(issue: Usage, Options and No such command stayed English under --lang ru.)"""
    assert main(["--lang", "ru", "nosuch"]) == 2
    assert "Нет такой команды 'nosuch'." in capsys.readouterr().err
    assert main(["--lang", "ru", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Использование: firstlast") and "Параметры:" in out and "Команды:" in out
    assert main(["--lang", "en", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: firstlast") and "Options:" in out and "Commands:" in out
