"""The terminal's keys from the one table (``play.actions``) and issue 19's terminal
findings, driven through Textual's pilot: Russian-layout letters, the hint, the table
in words, the end panel's own keys, import reasons in Russian, an import kept once and
watchable, a reopened game said as reopened, status lines cut with "…"."""

from __future__ import annotations

import asyncio
import unicodedata
from pathlib import Path

import pytest
from textual import events
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Input
from tui_pilot import run, screen_text

from firstlast.engine import Game
from firstlast.engine.record import record_to_text
from firstlast.play import PlayError, PlayService
from firstlast.play.actions import key_map
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp, GameScreen
from firstlast.tui.dialogs import ConfirmDialog, EndDialog, ImportDialog, UnfinishedDialog, WordsDialog
from firstlast.tui.keys import table_bindings
from firstlast.tui.replay import ReplayScreen
from firstlast.tui.widgets import one_line

SRC = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "tui"


def dialog_text(pilot: Pilot[None]) -> str:
    """What the open dialog's box shows, its lines as the terminal draws them joined by
    spaces: a sentence the box wraps reads whole wherever the wrap falls."""
    box = pilot.app.screen.query_one(".dialog").content_region
    lines = pilot.app.screen._compositor.render_strips()[box.y:box.bottom]
    return " ".join(" ".join(strip.text[box.x:box.right].split()) for strip in lines)


def status(screen: GameScreen) -> str:
    return screen.message


def test_the_bindings_are_the_tables() -> None:
    bound = {b.key for b in Binding.make_bindings(table_bindings())}  # each key as Textual names it
    assert bound == {b.key for b in Binding.make_bindings([Binding(k, "x") for k in key_map("tui") if k != ","])} | {
        "comma"}
    assert {"е", "р", "Д", "question_mark", "h"} <= bound


def test_no_private_textual_api_in_the_terminal() -> None:
    for path in SRC.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "._bindings" not in text and "refresh_bindings" not in text, path.name


def test_russian_layout_letters_play_and_h_hints(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("е", "е")  # t on the Russian layout: turn
        assert len(screen.session.game) == 2
        await pilot.press("г")  # u: undo
        assert len(screen.session.game) == 1
        await pilot.press("h")
        assert status(screen) == "Hint: turn the stock (nothing fits: pile 1, 0 of 13, needs a queen)"
        await pilot.press("Д")  # L: Russian
        await pilot.pause()
        await pilot.press("р")  # h: the hint, in Russian
        assert status(screen).startswith("Подсказка: откройте карту из колоды")
        assert len(screen.session.game) == 1  # a hint moves nothing

    run(app, script)


def test_the_table_in_words_and_a_piles_review(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        # Thirty steps typed ahead (a redraw for the lot, not one per key as
        # ``pilot.press`` waits for): done in order, one move each.
        for _ in range(30):
            pilot.app.post_message(events.Key("s", "s"))
        while len(screen.session.game) < 30:
            await pilot.pause()
        assert len(screen.session.game) == 30
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(pilot.app.screen, WordsDialog)
        text = screen_text(pilot)
        assert "Building pile 1, 2 of 13, needs an ace." in text
        assert "Step" not in text.splitlines()[-1]  # the dialog's own keys, not the table's
        await pilot.press("1")
        await pilot.pause()
        assert "pile 1, 2 of 13, bottom to top: queen of clubs; king of hearts." in screen_text(pilot)
        await pilot.press("w")
        await pilot.pause()
        assert "waste: 27 cards, top down: ten of hearts" in screen_text(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert status(screen).startswith("waste: 27 cards, top down")
        await pilot.press("x", "1")  # x asks which pile
        await pilot.pause()
        assert "pile 1, 2 of 13" in screen_text(pilot)
        await pilot.press("escape")

    run(app, script)


def test_the_end_panel_shows_its_own_keys(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await screen.action_act("step", 100_000)
        await pilot.pause()
        assert isinstance(pilot.app.screen, EndDialog)
        last = screen_text(pilot).splitlines()[-1]
        assert "Next deal" in last and "Quit" in last, last
        for table_key in ("Step", "Auto", "Turn", "Hint"):
            assert table_key not in last, last

    run(app, script)


def test_import_reasons_in_russian_kept_once_and_watchable(store: GameStore, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The paths are typed key by key, each key a redraw: typed relative to the folder the
    # program runs in (as a player may), a few keys each instead of the whole tmp path's.
    monkeypatch.chdir(tmp_path)
    game = Game(7)
    game.autoplay()
    record = tmp_path / "game.txt"
    record.write_text(record_to_text(game, date="2026-01-01"), encoding="utf-8")
    binary = tmp_path / "game.bin"
    binary.write_bytes(b"\xff\xfe\x00bad")
    notes = tmp_path / "notes.txt"  # a text file, but no record: the play layer refuses it
    notes.write_text("not a game\n", encoding="utf-8")
    with pytest.raises(PlayError) as refused:
        PlayService(GameStore(tmp_path / "elsewhere.sqlite3")).import_record(None, "not a game\n")
    play = PlayService(store)
    player = play.local_player()
    play.update_settings(player, {"lang": "ru"})
    app = FirstLastApp(store, deal=1, chance=False)

    async def import_(pilot: Pilot[None], path: Path) -> str:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ImportDialog)
        # Typed ahead (a player's paste, or quick fingers): every key in the app's queue
        # before the field has the first, then Enter once the field holds the whole path
        # (``pilot.press`` would wait for idle and redraw after each key; issue 25.7).
        name = str(path.relative_to(tmp_path))
        for ch in name:
            key = ch if ch.isalnum() else unicodedata.name(ch).lower().replace(" ", "_").replace("-", "_")
            pilot.app.post_message(events.Key(key, ch))
        field = pilot.app.screen.query_one(Input)
        async with asyncio.timeout(60):
            while field.value != name:
                await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        return dialog_text(pilot) if isinstance(pilot.app.screen, ImportDialog) else screen_text(pilot)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        text = await import_(pilot, tmp_path / "missing.txt")
        assert "нет такого файла" in text and "No such file" not in text, text
        await pilot.press("escape")
        text = await import_(pilot, binary)
        assert "не текстовый файл (не UTF-8)" in text and "not a text file" not in text, text
        await pilot.press("escape")
        # Refused inside the write's worker: said on the status line, the game goes on
        # (it used to come out of the worker as WorkerFailed, past the refusal's handler).
        await import_(pilot, notes)
        assert screen.error and status(screen) == refused.value.text("ru")
        await import_(pilot, record)
        assert "загружена раскладка 7" in status(screen)
        await import_(pilot, record)
        assert "уже была загружена" in status(screen)
        imported = [g for g in play.games(player) if g.origin == "imported"]
        assert len(imported) == 1  # kept once
        await pilot.press("l")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, UnfinishedDialog) and [g.id for g in dialog.imported] == [imported[0].id]
        assert "раскладка 7" in screen_text(pilot)
        await pilot.press("enter")
        await pilot.pause()
        replay = pilot.app.screen
        assert isinstance(replay, ReplayScreen) and replay.at == 0 and "ход 0 из" in screen_text(pilot)
        await pilot.press("right", "right")
        await pilot.pause()
        assert replay.at == 2 and "ход 2 из" in screen_text(pilot)
        await pilot.press("end")
        await pilot.pause()
        assert replay.at == len(game)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.session.game.deal == 1  # the table is as it was

    run(app, script)


def test_a_reopened_game_is_said_as_reopened(store: GameStore) -> None:
    app = FirstLastApp(store, deal=3, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("s", "s")
        await pilot.press("g", "4", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.game.deal == 3
        assert status(screen).startswith("reopened deal 3"), status(screen)
        assert "new game" not in status(screen)

    run(app, script)


def test_a_long_status_line_is_cut_with_an_ellipsis() -> None:
    assert one_line("short", 10) == "short"
    cut = one_line("a sentence much longer than the line it must fit", 20)
    assert cut.endswith("…") and len(cut) <= 20


def test_every_screen_answers_on_the_russian_layout_from_the_one_table() -> None:
    """Every Latin letter a terminal screen binds also works on the Russian layout, the
    twin taken from ``play.actions.russian_twin`` (no screen types Cyrillic by hand)."""
    import inspect

    from textual.binding import Binding
    from textual.screen import Screen

    from firstlast.play.actions import russian_twin
    from firstlast.tui import dialogs, replay

    screens = [c for m in (dialogs, replay) for _, c in inspect.getmembers(m, inspect.isclass)
               if issubclass(c, Screen) and c.__module__ == m.__name__ and "BINDINGS" in c.__dict__]
    assert len(screens) >= 6, screens
    for screen in screens:
        for b in screen.BINDINGS:
            assert isinstance(b, Binding)
            keys = b.key.split(",")
            for key in keys:
                twin = russian_twin(key)
                assert twin is None or twin in keys, (screen.__name__, b.key)
    for path in (SRC / "dialogs.py", SRC / "replay.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "binding(" in line:
                assert not any("а" <= ch.lower() <= "я" for ch in line), f"{path.name}: {line.strip()}"
