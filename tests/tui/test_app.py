"""The terminal game driven headless through Textual's pilot: real key presses and
clicks, checked against the engine and the store. Every test uses its own database."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playing import step
from reading import read
from textual import events
from textual.color import Color
from textual.filter import NoColor
from textual.pilot import Pilot
from textual.widgets import Input, Switch
from tui_pilot import run, screen_text, wait_for

from firstlast.engine import Card, Game, Move, Position, Variant, play_out
from firstlast.i18n import card_name, chance_text
from firstlast.odds.live import ChanceEstimate, refine_seed
from firstlast.play import MAX_REDEALS, PlayService
from firstlast.play.chance import Pooled, pool, story_key
from firstlast.play.stats import keep_result
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp, GameScreen
from firstlast.tui import app as tui_app
from firstlast.tui import cards as C
from firstlast.tui.autoplay import SPEEDS
from firstlast.tui.chance import describe_answer
from firstlast.tui.dialogs import ConfirmDialog, EndDialog, HelpScreen, StatsScreen, UnfinishedDialog, VariantDialog
from firstlast.tui.replay import ReplayScreen
from firstlast.tui.table import Slot, marks
from firstlast.tui.widgets import compact_variant


class LiveGame:
    """The game on the screen's table as it is now: the play layer answers a new ``Game``
    after each action (it never changes one it has answered), so a test that keeps
    ``screen.session.game`` would keep the game as it was."""

    def __init__(self, screen: GameScreen) -> None:
        self._screen = screen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._screen.session.game, name)

    def __len__(self) -> int:
        return len(self._screen.session.game)


def key_for(move: Move, game: Game | LiveGame) -> str:
    """The key a player presses for ``move`` (the move comes from the engine)."""
    if move.kind == "turn":
        return "t"
    if move.kind == "redeal":
        return "t"  # the stock's key redeals once it is empty, as on the page
    src = move.source or ""
    if src.startswith("R"):
        return src[1]
    if src in ("waste", "W"):
        return "w"
    if src == "F8" and game.position.privileged is not None:
        return "p"
    return "b"  # the active pile's own base (R5)


async def type_ahead(pilot: Pilot[None], keys: list[str], done: Callable[[], bool], timeout: float = 60) -> None:
    """``keys`` typed faster than the terminal draws, then wait for ``done()``: every key
    is in the app's queue (the ``events.Key`` the pilot sends) before the first is done.
    ``pilot.press`` waits for the app to idle, and draws the table, after each key; the
    screen's action queue must do them one at a time, in order, each on the table the
    one before left (issue 25.7: a redraw for the lot, not one per key)."""
    chars = {"plus": "+", "minus": "-", "space": " "}
    for key in keys:
        pilot.app.post_message(events.Key(key, chars.get(key, key)))
    await wait_for(pilot, done, timeout)


def test_whole_game_by_keys_matches_engine(store: GameStore) -> None:
    """Play deal 1285 (a short won game that needs every kind of move: turn, reserve,
    privileged card, base, redeal) by pressing the key for each move of the engine's
    forced line; the app ends where the engine does, shows the won dialog, and the
    store has the finished game."""
    deal = 1285
    expected = Game(deal)
    replay = Game(deal)
    keys = []
    for move in (s.move for s in expected.autoplay()):
        keys.append(key_for(move, replay))
        replay.push(move)
    assert {"t", "p", "b"} <= set(keys) and any(k.isdigit() for k in keys)
    app = FirstLastApp(store, deal=deal, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        # Typed ahead, as a quick player does (not 172 waits and redraws).
        await type_ahead(pilot, keys, lambda: len(game) >= len(expected.moves) or game.position.status != "playing")
        assert game.moves == expected.moves
        assert game.position.status == "won" and game.position.score == 104
        await pilot.pause()
        assert isinstance(pilot.app.screen, EndDialog)
        text = screen_text(pilot)
        assert "came out" in text
        assert f"Deal {deal}" in text and "Score 104 of 104" in text
        stored = read(store).load(screen.session.game_id)
        assert stored.game.moves == expected.moves
        assert stored.finished is not None
        [stats] = PlayService(store).stats(PlayService(store).local_player())
        assert stats.variant == Variant().token and stats.won == 1

    run(app, script)


def test_autoplay_reaches_the_engines_result_and_next_deal(store: GameStore) -> None:
    deal = 10
    outcome = play_out(deal, Variant())
    app = FirstLastApp(store, deal=deal, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await type_ahead(pilot, ["plus"] * 10, lambda: screen.speed == len(SPEEDS) - 1)  # to the fastest speed
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, EndDialog))
        pos = screen.session.game.position
        assert (pos.status == "won", pos.score, pos.passes) == (outcome.won, outcome.score, outcome.passes)
        assert read(store).load(screen.session.game_id).game.position.score == outcome.score
        await pilot.press("right")  # next deal
        await pilot.pause()
        assert screen.session.game.deal == deal + 1
        assert len(screen.session.game) == 0
        assert len(read(store).games(PlayService(store).local_player())) == 2

    run(app, script)


def test_autoplay_pauses(store: GameStore) -> None:
    app = FirstLastApp(store, deal=5, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("a")
        await wait_for(pilot, lambda: len(screen.session.game) >= 2)
        await pilot.press("escape")
        made = len(screen.session.game)
        assert not screen.auto and screen._ticker is None  # the clock is stopped: no tick comes
        await pilot.pause()  # a tick that waited in the queue makes no move
        assert len(screen.session.game) == made
        assert screen.session.game.position.status == "playing"

    run(app, script)


def test_illegal_key_is_refused_with_the_rule(store: GameStore) -> None:
    """Deal 1: P1 needs a Q; R3 is 6♦. Pressing 3 changes nothing and says why (R4);
    turning when a card fits is refused (R9)."""
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        assert game.position.need == 12
        before = game.position
        await pilot.press("3")
        assert game.position is before
        # Said from the refusal's code and parameters, the card as on the table.
        status = str(screen.query_one("#status").render())
        assert "the six of diamonds does not fit pile 1, which needs a queen (R4)" in status, status
        assert "6d" not in status
        await pilot.press("w")  # the waste is not a source in the canonical rules
        assert "(R6" in screen_text(pilot)
        # Turn until a reserve card or the privileged card fits (space, the turn's other
        # key, as many times as a replay of the deal needs: typed ahead), then try to turn
        # again.
        replay = Game(1)
        while replay.position.legal_moves()[0].kind == "turn":
            replay.push(replay.position.legal_moves()[0])
        await type_ahead(pilot, ["space"] * len(replay), lambda: len(game) >= len(replay))
        assert game.moves == replay.moves
        assert game.position.legal_moves()[0].kind == "play"
        n = len(game)
        await pilot.press("t")
        assert len(game) == n
        assert "(R9)" in screen_text(pilot)

    run(app, script)


def test_turn_play_reserve_undo_redo(store: GameStore) -> None:
    app = FirstLastApp(store, deal=8, chance=False)  # a reserve card fits early

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        await pilot.press("t")
        assert len(game) == 1 and game.moves[0].kind == "turn"
        assert len(game.position.stock) == 87
        assert "Stock 87" in screen_text(pilot)
        # Turn until a reserve card fits, then play it by its number.
        while not (game.position.legal_moves()[0].source or "").startswith("R"):
            await pilot.press(key_for(game.position.legal_moves()[0], game))
        move = game.position.legal_moves()[0]
        assert move.source is not None
        card = game.position.card_at(move.source)
        k = game.position.active
        assert k is not None
        await pilot.press(move.source[1])
        assert game.moves[-1] == move
        assert game.position.piles[k][-1] == card
        n = len(game)
        saved = read(store).load(screen.session.game_id)
        assert len(saved.game) == n
        await pilot.press("u")
        await pilot.press("ctrl+z")
        assert len(game) == n - 2
        assert read(store).load(screen.session.game_id).game.redo_moves[:2] == game.redo_moves[:2]
        await pilot.press("r")
        await pilot.press("ctrl+y")
        assert len(game) == n and game.moves[-1] == move
        await pilot.press("ctrl+r")
        assert len(game) == 0 and len(game.redo_moves) == n
        assert len(read(store).load(screen.session.game_id).game) == 0

    run(app, script)


def test_click_stock_and_card(store: GameStore) -> None:
    app = FirstLastApp(store, deal=8, chance=False)  # a reserve card fits early

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        # A click's move is written on a worker thread: wait for it to show.
        await pilot.click("#slot-stock")
        await wait_for(pilot, lambda: len(game) == 1)
        assert game.moves[0].kind == "turn"
        while game.position.legal_moves()[0].kind == "turn":
            n = len(game)
            await pilot.click("#slot-stock")
            await wait_for(pilot, lambda n=n: len(game) == n + 1)  # type: ignore[misc]
        move = game.position.legal_moves()[0]
        n = len(game)
        await pilot.click(f"#slot-{move.source}")
        await wait_for(pilot, lambda: len(game) == n + 1)
        assert game.moves[-1] == move

    run(app, script)


def test_help_screen_languages(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("question_mark")  # ? is the help in both faces (h is the hint)
        assert isinstance(pilot.app.screen, HelpScreen)
        assert "The first becomes the last" in screen_text(pilot)
        await pilot.press("t")  # game keys do nothing under the help screen
        assert len(screen.session.game) == 0
        footer = screen_text(pilot).splitlines()[-1]
        assert re.search(r"\bL Русский / English\b", footer) and not re.search(r"\bl Русский", footer), footer
        await pilot.press("l")  # l is the unfinished games on the table, not the language
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen) and pilot.app.screen.language == "en"
        await pilot.press("L")  # the same key as on the table
        text = screen_text(pilot)
        assert re.search(r"\bL English / Русский\b", text.splitlines()[-1]), text.splitlines()[-1]
        assert "Первая становится последней" in text
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        from firstlast.tui.dialogs import help_text
        assert "Пасьянс раскладывается полной колодой из 52 карт" in help_text("ru")
        # The keys of the help are the one table's, with the Russian layout's letters.
        assert "| h (р) | подсказка |" in help_text("ru") and "| q (й) | выход (в терминале) |" in help_text("ru")
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        assert pilot.app.screen.language == "ru"  # the language chosen is remembered
        await pilot.press("q")
        assert pilot.app.screen is screen

    run(app, script)


def test_new_deal_by_number_and_variant(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("g")
        await pilot.press(*"12x")
        await pilot.press("enter")
        assert "whole number" in screen_text(pilot)
        await pilot.press("backspace", "3", "4", "5", "enter")
        await pilot.pause()
        assert screen.session.game.deal == 12345
        assert "deal 12345" in screen_text(pilot)
        await pilot.press("v")
        await pilot.pause()
        redeals = pilot.app.screen.query_one("#redeals", Input)
        redeals.value = "unlimited"
        await pilot.click("#waste")
        await pilot.click("#ok")
        await pilot.pause()
        assert screen.new_variant == Variant(redeals=None, waste_playable=True)
        await pilot.press("n")
        assert screen.session.game.variant == Variant(redeals=None, waste_playable=True)
        assert "unlimited redeals, waste playable" in screen_text(pilot)
        # The choice is remembered for the next session.
        assert read(store).settings(PlayService(store).local_player())["variant"] == "ruw"

    run(app, script)
    app2 = FirstLastApp(store, deal=7, chance=False)
    assert app2.session.settings().variant == Variant(redeals=None, waste_playable=True)
    assert app2.session.game.variant == Variant(redeals=None, waste_playable=True)


def test_game_is_stored_and_resumes_in_a_new_app(store: GameStore) -> None:
    app = FirstLastApp(store, deal=42, chance=False)
    made: list[Move] = []

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        # The keys for the first legal move 15 times over, typed ahead.
        replay, keys = Game(42), []
        for _ in range(15):
            move = replay.position.legal_moves()[0]
            keys.append(key_for(move, replay))
            replay.push(move)
        await type_ahead(pilot, keys, lambda: len(game) >= 15)
        assert game.moves == replay.moves
        made.extend(game.moves)
        await pilot.press("q")

    run(app, script)
    assert len(made) == 15
    again = FirstLastApp(store, chance=False)  # no deal: resume the latest unfinished game
    assert again.session.game.deal == 42
    assert list(again.session.game.moves) == made

    async def script2(pilot: Pilot[None], screen: GameScreen) -> None:
        assert "deal 42" in screen_text(pilot)
        await pilot.press("s")
        assert len(screen.session.game) == 16

    run(again, script2)
    assert len(read(store).load(again.session.game_id).game) == 16
    resumed = FirstLastApp(store, deal=42, resume=True, chance=False)
    assert resumed.session.game_id == again.session.game_id
    with pytest.raises(LookupError):
        FirstLastApp(store, deal=43, resume=True, chance=False)


def test_change_elsewhere_is_reloaded(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The browser moves the same game on: our next save conflicts, we reload and say so."""
    # The store's watcher would find the change by itself on its next tick (a machine
    # under load can take that long between two keys): here the save must find it.
    monkeypatch.setattr(tui_app, "WATCH_INTERVAL_S", 10**6)
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("t")
        other = read(store).load(screen.session.game_id)
        # Moved on, not to the end: an ended game's end panel would cover the message
        # (under load, or once the table redrew faster, the panel was up before the read).
        for _ in range(10):
            assert other.game.step() is not None
        keep_result(other)  # as the play layer stores a game
        with store.transaction() as tx:
            tx.save(other)
        await pilot.press("t")
        assert "changed elsewhere" in screen_text(pilot)
        assert screen.session.game.moves == other.game.moves
        assert screen.session.stored.version == other.version

    run(app, script)


def test_statistics_screen(store: GameStore) -> None:
    play = PlayService(store)
    player = play.local_player()
    for deal in (1, 2, 3):
        s = play.start(player, "number", deal, Variant())
        step(play, player, s.id, 100_000)  # to the end
    won = sum(play_out(d, Variant()).won for d in (1, 2, 3))
    app = FirstLastApp(store, deal=4, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("i")
        assert isinstance(pilot.app.screen, StatsScreen)
        text = screen_text(pilot)
        assert "3 redeals, privileged last card" in text
        assert f"played 3 · won {won} · lost {3 - won} · abandoned 0 · win {100 * won / 3:.1f} %" in text
        assert any(ch in text for ch in "▁▂▃▄▅▆▇█")
        await pilot.press("escape")
        assert pilot.app.screen is screen

    run(app, script)


NB = "\u00a0"


def test_chance_figure_from_worker_refines_while_idle(store: GameStore) -> None:
    """The first figure of few samples is an interval alone (``i18n.chance_text``, the
    page's rule); left alone, the same position plays refinement rounds (seeds
    ``refine_seed(position, r)``, r = 0, 1, 2 …), merged, until the interval allows a
    whole percent. A new position starts again from round 0."""
    seen: list[tuple[str, int]] = []

    def estimator(position: Position, samples: int, seed: int) -> ChanceEstimate:
        seen.append((str(position), seed))
        return ChanceEstimate.of(740, 2000)  # 37 %, ±2.1 points: too wide for a figure

    app = FirstLastApp(store, deal=1, estimator=estimator)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        start = screen.session.game.position
        first = ChanceEstimate.of(740, 2000)  # round 0 alone: the interval, no figure
        assert chance_text(first, "en") == f"34–40{NB}%"
        await wait_for(pilot, lambda: f"Chance 37{NB}% (" in screen_text(pilot), timeout=20)
        refined = screen.chance_answer
        assert isinstance(refined, Pooled) and refined.rounds >= 2 and refined.estimate.samples >= 4000
        assert refined.estimate == ChanceEstimate.of(740 * refined.rounds, 2000 * refined.rounds)
        assert refined.estimate.high - refined.estimate.low < first.high - first.low
        assert describe_answer(screen.chance_answer) == "Chance " + chance_text(refined.estimate, "en")
        rounds = [seed for pos, seed in seen if pos == str(start)]
        assert rounds[:3] == [refine_seed(start, r) for r in range(len(rounds[:3]))]
        await pilot.press("t")
        now = screen.session.game.position
        await wait_for(pilot, lambda: (str(now), refine_seed(now, 0)) in seen, timeout=5)

    run(app, script)


def test_a_key_that_stops_autoplay_brings_the_figure_up_to_date(store: GameStore,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Autoplay asks for few figures (``AUTO_CHANCE_INTERVAL_S``); once any key stops
    it, the figure shown is the position's own, not that of a few moves before."""
    monkeypatch.setattr("firstlast.tui.chance.AUTO_CHANCE_INTERVAL_S", 10.0**12)  # autoplay asks for none
    numbered: dict[str, int] = {}

    def estimator(position: Position, samples: int, seed: int) -> ChanceEstimate:
        return ChanceEstimate.of(numbered.setdefault(str(position), len(numbered) + 1), 1000, certain=True)

    def shown_is_the_positions() -> bool:
        answer = screen.chance_answer
        return isinstance(answer, Pooled) and answer.estimate.wins == numbered.get(str(screen.pos))

    app = FirstLastApp(store, deal=5, estimator=estimator)
    screen = app.game_screen

    async def script(pilot: Pilot[None], _: GameScreen) -> None:
        await wait_for(pilot, shown_is_the_positions)
        await pilot.press("a")
        await wait_for(pilot, lambda: len(screen.session.game) >= 3)
        await pilot.press("e")  # the table in words: no move, and autoplay stops
        assert not screen.auto
        await wait_for(pilot, shown_is_the_positions, timeout=5)

    run(app, script)


def test_chance_recovers_after_a_failing_position(store: GameStore) -> None:
    """An estimator failing on one game (10^20 redeals overflow the kernel) says so for
    that position only: the next game has its figure again."""

    def estimator(position: Position, samples: int, seed: int) -> ChanceEstimate:
        redeals = position.variant.redeals
        if redeals is not None and redeals > 2**63:
            raise OverflowError("int too big to convert")
        return ChanceEstimate.of(samples // 4, samples)

    player = PlayService(store).local_player()
    huge = PlayService(store).start(player, "number", 3, Variant(redeals=10**20))
    assert huge.game.variant.redeals == 10**20
    app = FirstLastApp(store, estimator=estimator)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert screen.session.game_id == huge.id
        await wait_for(pilot, lambda: "cannot estimate" in screen_text(pilot), timeout=5)
        assert isinstance(screen.chance_answer, OverflowError)
        await pilot.press("g", "5", "enter")  # no moves yet: nothing to abandon, no question
        await pilot.pause()
        assert screen.session.game.deal == 5
        await wait_for(pilot, lambda: f"Chance 25{NB}% (24–26{NB}%)" in screen_text(pilot), timeout=5)

    run(app, script)


def test_variant_dialog_refuses_redeals_out_of_bounds(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        before = screen.new_variant
        await pilot.press("v")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, VariantDialog)
        dialog.query_one("#redeals", Input).value = str(10**20)
        await pilot.click("#ok")
        await pilot.pause()
        assert pilot.app.screen is dialog  # refused: the dialog stays, with the reason
        text = screen_text(pilot)
        assert f"redeals must be unlimited or a whole number 0…{MAX_REDEALS}" in text
        redeals = dialog.query_one("#redeals", Input)
        redeals.value = "1000"
        redeals.focus()  # Enter in the field is OK too (a button ignores a second press while it shows the first)
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.new_variant == Variant(redeals=1000) != before

    run(app, script)


def test_chance_hidden_without_odds_module(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firstlast.tui.chance.estimator_available", lambda: False)
    app = FirstLastApp(store, deal=1)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        clock = screen.chance
        await wait_for(pilot, lambda: clock.available is False, timeout=5)
        await pilot.press("t")
        assert "Chance" not in screen_text(pilot)

    run(app, script)


@pytest.mark.parametrize(("size", "card_width"), [((80, 24), 5), ((160, 50), 13), ((200, 30), 11)])
def test_layout_fits_and_scales(store: GameStore, size: tuple[int, int], card_width: int) -> None:
    """Cards grow with the terminal (wider too when it is wide but not tall), and the
    table is centred in the room the side bar leaves."""
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert screen.size_now.width == card_width
        table = screen.query_one("#table").region
        area = screen.query_one("#table-area").region
        side = screen.query_one("#side").region
        assert table.right <= side.x and area.right == side.x
        assert abs((table.x - area.x) - (area.right - table.right)) <= 1  # centred
        if size == (200, 30):  # wide, not tall: room to spare on both sides of the table
            assert table.x - area.x > 20
        text = screen_text(pilot)
        for label in ("F1", "F8★", "P1", "R8", "Stock 88", "Needs", "Pass", "1 of 4"):
            assert label in text, label
        assert "J♣" in text and "9♠" in text  # F1 and the privileged F8 of deal 1

    run(app, script, size=size)


def test_speed_keys(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        start = screen.speed
        await pilot.press("plus")
        assert screen.speed == start + 1
        await pilot.press("minus", "minus")
        assert screen.speed == start - 1
        assert f"{SPEEDS[start - 1]}/s" in screen_text(pilot)

    run(app, script)


def test_moves_made_elsewhere_show_up_while_idle(store: GameStore) -> None:
    app = FirstLastApp(store, deal=2, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        other = read(store).load(screen.session.game_id)
        for _ in range(5):
            other.game.step()
        with store.transaction() as tx:  # another process, writing the store directly
            tx.save(other)
        await wait_for(pilot, lambda: len(screen.session.game) == 5, timeout=6)
        assert screen.session.game.moves == other.game.moves
        assert "changed elsewhere" in screen_text(pilot)
        await pilot.press("s")  # and our next move saves on top of it, without a conflict
        assert len(read(store).load(screen.session.game_id).game) == 6

    run(app, script)


def test_game_deleted_elsewhere_is_refused_and_a_new_one_can_start(store: GameStore) -> None:
    app = FirstLastApp(store, deal=2, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("s")
        old = screen.session.game_id
        with store.transaction() as tx:
            tx.delete(old)
        await pilot.press("s")
        assert "no such game" in screen_text(pilot)
        await pilot.press("n")
        if isinstance(pilot.app.screen, ConfirmDialog):
            await pilot.press("y")
        assert screen.session.game_id != old
        await pilot.press("s")
        assert len(read(store).load(screen.session.game_id).game) == 1

    run(app, script)


def test_variant_flags_pick_which_unfinished_game_resumes(store: GameStore) -> None:
    five = FirstLastApp(store, deal=5, chance=False).session
    five.act("step")  # played: left for another game, it is kept (abandoned), not deleted
    ru = Variant(redeals=None)
    app = FirstLastApp(store, variant=ru, chance=False)  # no ru game yet: a new random one
    assert app.session.game.variant == ru and app.session.game.deal != 5
    assert FirstLastApp(store, chance=False).session.game_id == app.session.game_id  # the latest
    assert FirstLastApp(store, variant=Variant(), chance=False).session.game.deal == 5


def test_chance_figure_with_the_real_odds_module(store: GameStore) -> None:
    pytest.importorskip("firstlast.odds.live", reason="the odds module is not installed")
    app = FirstLastApp(store, deal=1)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        # Import and first numba compilation happen on the worker thread.
        await wait_for(pilot, lambda: "Chance " in screen_text(pilot), timeout=60)
        answer = screen.chance_answer
        assert isinstance(answer, Pooled)
        # The real rounds: the estimator's answer shown by the shared rule.
        assert describe_answer(screen.chance_answer) == "Chance " + chance_text(answer.estimate, "en")

    run(app, script)


def test_waste_key_in_variant_v2(store: GameStore) -> None:
    """Deal 6 with V2: after 8 forced moves the waste's top card fits; w plays it."""
    v2 = Variant(waste_playable=True)
    app = FirstLastApp(store, deal=6, variant=v2, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        assert game.variant == v2
        await type_ahead(pilot, ["s"] * 8, lambda: len(game) >= 8)
        assert len(game) == 8
        waste = Move.parse("waste")
        assert waste in game.position.legal_moves()
        top = game.position.waste[-1]
        assert "Waste" in screen_text(pilot)
        assert "Next    waste" in screen_text(pilot)  # the move by the engine's name
        await pilot.press("w")
        assert game.moves[-1] == waste and str(game.moves[-1]) == "waste"
        k = game.position.active
        assert k is not None and top in game.position.piles[k]

    run(app, script)


def test_end_dialog_keys_mean_what_they_mean_on_the_table(store: GameStore) -> None:
    """r (redo on the table) does nothing in the end panel; u undoes the last move and
    closes it; q quits; n deals a new game."""
    app = FirstLastApp(store, deal=1, variant=Variant(redeals=0), chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("s")
        screen.session.act("step", 100_000)  # to the end, as if by autoplay
        screen._shown()
        await pilot.pause()
        assert isinstance(pilot.app.screen, EndDialog)
        gid, moves = screen.session.game_id, len(screen.session.game)
        await pilot.press("r")
        assert isinstance(pilot.app.screen, EndDialog) and screen.session.game_id == gid
        await pilot.press("u")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.session.game_id == gid and len(screen.session.game) == moves - 1
        assert screen.session.stored.result == "lost"  # the result stays (docs/play.md)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(pilot.app.screen, EndDialog)
        await pilot.press("n")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.session.game_id != gid
        await pilot.press("q")
        await pilot.pause()

    run(app, script)


def test_unfinished_games_can_be_reopened_from_a_list(store: GameStore) -> None:
    app = FirstLastApp(store, deal=3, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("s", "s")
        first = screen.session.game_id
        await pilot.press("g", "4", "enter")  # another deal: deal 3 would be abandoned
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        await pilot.press("y")  # ... and the player says so: it is left, abandoned
        await pilot.pause()
        assert screen.session.game.deal == 4
        await pilot.press("s")
        await pilot.press("l")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, UnfinishedDialog)
        assert [g.id for g in dialog.games] == [first]
        assert "deal 3" in screen_text(pilot) and "abandoned" in screen_text(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)  # deal 4 is under way too
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.session.game_id == first
        assert len(screen.session.game) == 2
        [stats] = PlayService(store).stats(PlayService(store).local_player())
        assert stats.abandoned == 1  # deal 4, left in its turn; deal 3 is back on the table

    run(app, script)


def test_a_too_small_terminal_says_so(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert "too small" in screen_text(pilot) and "60×20" in screen_text(pilot)
        assert "Stock" not in screen_text(pilot)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert "too small" not in screen_text(pilot) and "Stock 88" in screen_text(pilot)

    run(app, script, size=(60, 20))


def test_no_stale_chance_beside_the_end(store: GameStore) -> None:
    """Undo the losing move, let the figure come, redo it: the figure goes with the game."""

    def estimator(position: object, samples: int, seed: int) -> ChanceEstimate:
        return ChanceEstimate.of(0, samples)

    app = FirstLastApp(store, deal=1, variant=Variant(redeals=0), estimator=estimator)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        screen.session.act("step", 100_000)
        screen._shown()
        await pilot.pause()
        await pilot.press("u")  # from the end panel: undo the last move
        await wait_for(pilot, lambda: screen.chance_answer is not None, timeout=5)
        await pilot.press("r")
        await pilot.pause()
        assert screen.session.game.position.status == "lost"
        assert screen.chance_answer is None
        assert "Chance" not in str(screen.query_one("#side").render())

    run(app, script)


def test_leaving_a_game_under_way_asks_first(store: GameStore) -> None:
    """n and g ask before abandoning a game with moves (Escape/n keeps it, Enter/y
    leaves it); a game without moves, or one that has ended, is left without a word."""
    app = FirstLastApp(store, deal=3, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        fresh = screen.session.game_id
        await pilot.press("g", "4", "enter")  # no move made: nothing to abandon, no question
        await pilot.pause()
        assert pilot.app.screen is screen and screen.session.game.deal == 4
        assert fresh not in {g.id for g in read(store).games(PlayService(store).local_player())}  # dealt, never played
        await pilot.press("s", "s")
        under_way = screen.session.game_id
        for cancel in ("escape", "n"):
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(pilot.app.screen, ConfirmDialog)
            assert "Leave deal 4" in screen_text(pilot) and "2 moves" in screen_text(pilot)
            await pilot.press(cancel)
            await pilot.pause()
            assert pilot.app.screen is screen and screen.session.game_id == under_way
            assert read(store).load(under_way).abandoned is None
        assert "kept deal 4" in screen_text(pilot)
        await pilot.press("g", "9", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog) and "for deal 9" in screen_text(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.game.deal == 9
        assert read(store).load(under_way).abandoned is not None
        # A game that has ended is left without a question.
        screen.session.act("step", 100_000)
        assert screen.session.game.position.status != "playing"
        ended = screen.session.game_id
        screen._ended_shown = (ended, len(screen.session.game))  # no end panel in the way
        await pilot.press("n")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.session.game_id != ended

    run(app, script)


@pytest.mark.parametrize("answer", ["y", "escape"])
def test_tui_with_a_deal_asks_before_abandoning(store: GameStore, answer: str) -> None:
    """``firstlast tui 7`` with deal 2 under way on the table: deal 2 is shown and the
    question asked; yes starts deal 7, no keeps deal 2 (nothing is abandoned unasked)."""
    first = FirstLastApp(store, deal=2, chance=False).session
    first.act("step")
    app = FirstLastApp(store, deal=7, chance=False)
    assert app.session.game_id == first.game_id  # nothing started yet
    assert read(store).load(first.game_id).abandoned is None

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        assert "Leave deal 2 for deal 7?" in screen_text(pilot)
        await pilot.press(answer)
        await pilot.pause()
        assert pilot.app.screen is screen
        if answer == "y":
            assert screen.session.game.deal == 7
            assert read(store).load(first.game_id).abandoned is not None
        else:
            assert screen.session.game_id == first.game_id
            assert read(store).load(first.game_id).abandoned is None
            assert "deal 7 was not started" in screen_text(pilot)

    run(app, script)


def test_variant_switches_say_on_and_off(store: GameStore) -> None:
    """Each rule is a switch with its state in words; V3 is the privileged card off."""
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("v")
        await pilot.pause()
        text = screen_text(pilot)
        assert "Privileged last card (R8; off is V3): on" in text
        assert "Waste's top card playable (V2): off" in text
        assert "▐X▌" not in text
        await pilot.click("#privileged")
        await pilot.pause()
        assert pilot.app.screen.query_one("#privileged", Switch).value is False
        assert "Privileged last card (R8; off is V3): off" in screen_text(pilot)
        await pilot.click("#ok")
        await pilot.pause()
        assert screen.new_variant == Variant(privileged_last=False)

    run(app, script)


@pytest.mark.parametrize(("deal", "variant"), [(1, Variant()),
                                               (2**64 - 1, Variant(redeals=None, waste_playable=True,
                                                                   privileged_last=False)),
                                               (2**64 - 1, Variant(redeals=1000, waste_playable=True))])
def test_title_fits_80_columns(store: GameStore, deal: int, variant: Variant) -> None:
    app = FirstLastApp(store, deal=deal, variant=variant, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        title = screen_text(pilot).splitlines()[0].rstrip()
        assert len(title) <= 79, title
        assert f"deal {deal}" in title
        assert title.endswith(compact_variant(variant)) or title.endswith(variant.describe())
        if deal == 1:
            assert "First and Last" in title and variant.describe() in title

    run(app, script, size=(80, 24))


def test_last_moved_cards_and_pile_depth(store: GameStore) -> None:
    """The cards the last action moved are marked (tinted face, • beside the label), the
    mark moves with the next action; piles show their depth in the card's edge."""
    app = FirstLastApp(store, deal=8, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        await pilot.press("t")
        turned = game.position.waste[-1]
        assert screen.moved == {turned}
        assert screen.query_one("#slot-waste", Slot).shown[0].plain.endswith("•")
        while not (game.position.legal_moves()[0].source or "").startswith("R"):
            await pilot.press(key_for(game.position.legal_moves()[0], game))
        move = game.position.legal_moves()[0]
        k = game.position.active
        assert move.source is not None and k is not None
        card = game.position.card_at(move.source)
        await pilot.press(move.source[1])
        # The card went onto the pile, the refill into the reserve: both are marked.
        step = game.steps[-1]
        assert screen.moved == {m.card for m in step.movements} and card in screen.moved
        pile = screen.query_one(f"#slot-P{k + 1}", Slot)
        assert "•" in pile.shown[0].plain
        assert any(C.FACE_MOVED in str(span.style) for line in pile.shown[1] for span in line.spans)
        depth = len(game.position.piles[k])
        assert f"{depth}/13" in pile.shown[1][-1].plain or f"─{depth}" in pile.shown[1][-1].plain
        await pilot.press("u")  # the undo's movements are the ones marked now
        assert card in screen.moved and "•" not in screen.query_one(f"#slot-P{k + 1}", Slot).shown[0].plain

    run(app, script)


def test_the_stock_is_marked_playable_exactly_when_it_can_be_turned(store: GameStore) -> None:
    """The stock's label is green when its move is legal and plain when not, even where
    its count stays the same: the label's colour was its base style, which rich's Text
    equality leaves out, so the place kept the style it had (a card played makes a turn
    legal again, and the stock stayed plain)."""
    app = FirstLastApp(store, deal=0, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = LiveGame(screen)
        stock = screen.query_one("#slot-stock", Slot)
        seen = set()
        for _ in range(12):
            await pilot.press(key_for(game.position.legal_moves()[0], game))
            label = stock.render().split("\n")[0]
            styles = str(label.style) + " ".join(str(span.style) for span in label.spans)
            live = screen.view.stock_live
            assert (C.LOOK.colours.playable in styles) == live, (len(game), styles)
            seen.add(live)
        assert seen == {True, False}

    run(app, script)


def test_active_pile_shows_without_colour(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """With NO_COLOR the active pile is still told apart: its label is in reverse video
    (and bold), which the no-colour filter keeps."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert pilot.app.no_color
        for size in ((80, 24), (120, 40)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            region = screen.query_one("#slot-P1").region
            strips = NoColor().apply(list(pilot.app.screen._compositor.render_strips()[region.y]), Color(0, 0, 0))
            label = [seg for seg in strips if seg.text.strip() and "P1" in seg.text]
            assert label and all(seg.style is not None and seg.style.reverse for seg in label), label
            other = screen.query_one("#slot-P2", Slot).shown[0]
            assert not any(span.style and "reverse" in str(span.style) for span in other.spans)

    run(app, script)


def test_the_terminal_speaks_russian(store: GameStore) -> None:
    """With the shared language setting Russian, the title, the side bar, the footer,
    refusals (from their codes: ``i18n.refusal_text``) and the move just made
    (``i18n.announce``) are Russian; L switches everything to English and back, and the
    choice is saved for the browser too."""
    play = PlayService(store)
    player = PlayService(store).local_player()
    play.update_settings(player, {"lang": "ru"})
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        text = screen_text(pilot)
        title = text.splitlines()[0]
        assert "Первые и последние" in title and "раскладка 1" in title, title
        assert "3 перекладки, последняя карта идёт на любую кучку" in title, title
        for word in ("Открыть", "Шаг", "Авто", "Отменить", "Справка", "Выход"):  # the footer
            assert word in text, word
        for word in ("Проход", "Колода 88", "Нужна"):  # the side bar and the table
            assert word in text, word
        assert "Turn" not in text and "Stock" not in text and "Help" not in text
        game = LiveGame(screen)
        await pilot.press("3")  # R3 is 6♦; P1 needs a queen
        status = str(screen.query_one("#status").render())
        assert "шестёрка бубен не подходит: на кучку P1 идёт только дама (R4)" in status, status
        await pilot.press("w")  # the waste is no source in the canonical rules
        status = str(screen.query_one("#status").render())
        assert "верхняя карта сборной кучки в этих правилах в игру не идёт (R6" in status, status
        assert len(game) == 0
        await pilot.press("t")
        turned = game.position.waste[-1]
        status = str(screen.query_one("#status").render())
        assert status == f"{card_name(turned, 'ru')} из колоды на сборную кучку", status
        # L: the whole terminal in English, saved; L again: Russian.
        await pilot.press("L")
        await pilot.pause()
        text = screen_text(pilot)
        assert "First and Last" in text.splitlines()[0] and "Turn" in text and "Stock 87" in text
        assert play.settings(player).lang == "en"
        await pilot.press("L")
        await pilot.pause()
        assert "Открыть" in screen_text(pilot) and play.settings(player).lang == "ru"
        # The dialogs speak the same language.
        await pilot.press("g")
        await pilot.pause()
        assert "Номер раскладки" in screen_text(pilot)
        await pilot.press(*"12x", "enter")
        assert "номер раскладки — целое число" in screen_text(pilot)
        await pilot.press("escape")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        assert "Оставить раскладку 1 ради новой раскладки?" in screen_text(pilot)
        assert "Да (Enter, y)" in screen_text(pilot)
        await pilot.press("escape")

    run(app, script)


LATIN_FACES = re.compile(r"(?<![A-Za-z])[AJQK][♣♦♥♠]")
CYRILLIC_FACES = re.compile(r"[ТВДК][♣♦♥♠]")


def test_russian_cards_have_russian_rank_letters(store: GameStore) -> None:
    """In Russian the table, the side bar, the move log and the status line write the
    ranks with the catalog's letters (Т, В, Д, К: ``rank.<n>.short``), not A, J, Q, K;
    the chance line is capitalised like the side bar's other labels."""
    assert C.pretty(Card.from_token("Qd"), "ru") == "Д♦" and C.pretty(Card.from_token("Qd")) == "Q♦"
    assert [C.rank_text(r, "ru") for r in (1, 11, 12, 13)] == ["Т", "В", "Д", "К"]
    assert [C.rank_text(r) for r in (1, 11, 12, 13)] == ["A", "J", "Q", "K"]
    PlayService(store).update_settings(PlayService(store).local_player(), {"lang": "ru"})
    # Deal 1: F1 J♣, F3 A♠, F4 Q♥, F6 K♣, R2 K♥; P1 needs a queen.
    probe = Game(1)
    n = 0
    while True:  # enough steps that the last one moves a court card or an ace
        step = probe.step()
        assert step is not None
        n += 1
        if n > 1 and any(m.card.rank in (1, 11, 12, 13) for m in step.movements):
            break
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        text = screen_text(pilot)
        for card in ("В♣", "Т♠", "Д♥", "К♣", "К♥"):  # the table's cards
            assert card in text, card
        assert not LATIN_FACES.search(text), LATIN_FACES.findall(text)
        side = str(screen.query_one("#side").render())
        assert "P1 под В♣" in side and "Д" in side.split("Нужна")[1].splitlines()[0], side
        assert not LATIN_FACES.search(side), side
        await screen.action_act("step", n)
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert CYRILLIC_FACES.search(status) and not LATIN_FACES.search(status), status
        side = str(screen.query_one("#side").render())
        log = side.split("Последние ходы")[-1] if "Последние ходы" in side else side
        assert CYRILLIC_FACES.search(log) and not LATIN_FACES.search(side), side
        assert not LATIN_FACES.search(screen_text(pilot))
        # The chance line, capitalised as the labels beside it.
        screen.chance_answer = pool([ChanceEstimate.of(2500, 10_000), ChanceEstimate.of(2500, 10_000)])
        await pilot.pause()
        assert "Шанс 25" in str(screen.query_one("#side").render())
        await pilot.press("L")  # English: the letters are A, J, Q, K again
        await pilot.pause()
        text = screen_text(pilot)
        assert LATIN_FACES.search(text) and not CYRILLIC_FACES.search(text), text
        assert "Chance 25" in str(screen.query_one("#side").render())

    run(app, script, size=(160, 60))


def test_the_end_panel_tells_the_story(store: GameStore) -> None:
    """Deal 1 played out (lost): the end panel shows the story of the game, told on a
    worker (``play.story``): the chance curve and the pile that waited with its rank.
    y reopens it; in Russian it is told in Russian."""
    pytest.importorskip("firstlast.odds.live", reason="the odds module is not installed")
    app = FirstLastApp(store, deal=1, chance=False)

    def story_text(pilot: Pilot[None]) -> str:
        dialog = pilot.app.screen
        if not isinstance(dialog, EndDialog):
            return ""
        return str(dialog.query_one("#end-story").render())

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("s")
        screen.session.act("step", 100_000)  # to the end, as if by autoplay
        screen._shown()
        await pilot.pause()
        assert isinstance(pilot.app.screen, EndDialog)
        assert screen.session.game.position.status == "lost"
        await wait_for(pilot, lambda: "Pile 5 was waiting for a ten" in story_text(pilot), timeout=60)
        text = story_text(pilot)
        assert f"0{NB}%" in text and "│" in text  # the curve, from the deal to 0 %
        # The first view is plain (issue 26): what would have brought it out, where the tens
        # lay, counted; no rule number, variant token or interval.
        assert "With 7 redeals instead of 3, it would have come out on pass 8." in text
        assert "Where the tens lay: 4 in the waste, 4 on the piles." in text
        assert not re.search(r"\bR\d|\bV\d|\(ru|\d–\d+\s?%", text), text
        story = screen.stories.get(story_key(screen.session.game))
        assert story is not None
        lines = text.splitlines()
        # How it ended is the panel's result and score, above: not said again.
        assert [ln.removeprefix("• ") for ln in lines[1:]] == [*story.plain("en")[1:], story.where("en")]
        # d: the details for the curious, in the rules' terms, under the plain words.
        await pilot.press("d")
        await pilot.pause()
        text = story_text(pilot)
        assert "What would have brought it out: 7 redeals instead of 3 (V1)" in text
        assert "only those with unlimited redeals bring this deal out (ru, ruw, run, ruwn)" in text
        assert re.search(r"Moves? \d+(–\d+)? \(pass \d\): ", text) and "noise" not in text
        assert "Where the tens lay: ten of hearts buried in the waste, 12th from the top of 40" in text
        assert text.index(story.plain("en")[1]) < text.index(story.conclusion("en")[0])
        await pilot.press("c")
        await pilot.pause()
        assert pilot.app.screen is screen
        await pilot.press("y")  # reopened: the story is kept, no second wait
        await pilot.pause()
        assert "Pile 5 was waiting for a ten" in story_text(pilot)
        await pilot.press("c")
        await pilot.press("L")
        await pilot.press("y")
        await pilot.pause()
        assert "Раскладка 1" in screen_text(pilot)
        await wait_for(pilot, lambda: "Кучка 5 ждала десятку" in story_text(pilot), timeout=60)
        text = story_text(pilot)
        assert "Будь 7 перекладок вместо 3, пасьянс вышел бы на проходе 8." in text
        assert "Где лежали десятки: в сборной кучке — 4, на кучках — 4." in text

    run(app, script)


def test_a_story_that_cannot_be_told_says_why_and_the_game_goes_on(store: GameStore,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The story is a bonus: told on the end panel's worker, its failure is said there,
    and the panel's keys still work."""
    def fail(game: Game) -> None:
        raise RuntimeError("no odds here")

    monkeypatch.setattr("firstlast.play.chance.tell_story", fail)
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        screen.session.act("step", 100_000)
        screen._shown()
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, EndDialog)
        await wait_for(pilot, lambda: "RuntimeError: no odds here" in str(dialog.query_one("#end-story").render()))
        await pilot.press("enter")  # play again
        await wait_for(pilot, lambda: pilot.app.screen is screen and len(screen.session.game) == 0)

    run(app, script)


# ---------------------------------------------------------------- no English left behind
TUI_SOURCES = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "tui"
#: Calls whose string arguments a player reads.
SHOWN_BY = {"Label", "Static", "Button", "Text", "Option", "Binding", "notify", "say", "update", "append",
            "ConfirmDialog", "Input"}
#: Words of a sentence: two words of letters in a row, or one capitalised word.
WORDS = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}|^[A-Z][a-z]{2,}")


def english_literals(source: str) -> list[str]:
    """String literals passed to a call that shows them (``SHOWN_BY``, also inside an
    f-string) that read as English words rather than notation (P1, R3, 10♥)."""
    import ast

    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in SHOWN_BY:
            continue
        for arg in [*node.args, *(k.value for k in node.keywords if k.arg in ("placeholder", "description"))]:
            for sub in ast.walk(arg):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and WORDS.search(sub.value):
                    found.append(sub.value)
    return found


def test_no_english_sentence_outside_the_catalogs() -> None:
    """Every string the terminal shows comes from the catalogs (``t(lang, "tui.…")``):
    no widget, message or binding is given English words in the module sources."""
    # The scan sees what it looks for …
    assert english_literals('Label("Deal number")\nself.say(f"kept deal {n}")\nBinding("t", "turn", "Turn")') \
        == ["Deal number", "kept deal ", "Turn"]
    assert english_literals('Label(t(lang, "tui.deal.prompt"))\nText(f"{pos.score}/104")') == []
    # … and finds none of it in the terminal's modules.
    sources = sorted(TUI_SOURCES.glob("*.py"))
    assert {p.name for p in sources} >= {"app.py", "dialogs.py", "table.py", "chance.py"}
    for path in sources:
        assert english_literals(path.read_text(encoding="utf-8")) == [], path.name
    assert not (TUI_SOURCES / "data").exists()  # the help's old copies are gone


def test_the_terminal_honours_the_felt_and_the_four_colour_deck(store: GameStore) -> None:
    """Issue 28: the shared settings' felt (paper: a light theme) and four-colour deck."""
    play = PlayService(store)
    play.update_settings(play.local_player(), {"felt": "paper", "four_colour": True})
    app = FirstLastApp(store, deal=1, chance=False)
    diamond, club = Card.from_token("7d"), Card.from_token("7c")

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        # The theme in force, not only the attribute (App.theme is Textual's from 0.86 on).
        assert screen.has_class("felt-paper") and not app.current_theme.dark
        assert C.LOOK.light and C.LOOK.four_colour
        assert any(C.INK4[1] in str(span.style) for span in C.card_lines(diamond, C.SMALL)[1].spans)
        assert any(C.INK4[0] in str(span.style) for span in C.card_lines(club, C.SMALL)[1].spans)
        assert any("#efe6cf" in str(span.style) for span in C.empty_lines(C.SMALL, "x")[1].spans)
        assert C.tone("gold") == C.TONES["gold"][1]  # the side bar's and title's darker tones

    try:
        run(app, script)
        # The default: dark, two colours.
        play.update_settings(play.local_player(), {"felt": None, "four_colour": None})
        app = FirstLastApp(store, deal=1, chance=False)

        async def dark(pilot: Pilot[None], screen: GameScreen) -> None:
            assert screen.has_class("felt-green") and app.current_theme.dark
            assert not any(C.INK4[1] in str(span.style) for span in C.card_lines(diamond, C.SMALL)[1].spans)

        run(app, dark)
    finally:
        C.set_look("green", False)


def test_a_replay_is_drawn_on_the_players_felt(store: GameStore) -> None:
    """Watching a game, the table lies on the player's felt as on the game screen (it
    was green under every felt, with the places' labels on the felt chosen)."""
    play = PlayService(store)
    play.update_settings(play.local_player(), {"felt": "blue"})
    app = FirstLastApp(store, deal=1, chance=False)

    def cloths() -> set[str]:
        return {seg.style.bgcolor.name for strip in app.screen._compositor.render_strips() for seg in strip
                if seg.style is not None and seg.style.bgcolor is not None}

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        blue, green = C.FELTS["blue"].cloth, C.FELTS["green"].cloth
        assert blue in cloths() and green not in cloths()
        app.push_screen(ReplayScreen(Game(1, moves=["t", "t"]), "en"))
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert blue in cloths() and green not in cloths()

    try:
        run(app, script)
    finally:
        C.set_look("green", False)


def test_a_replay_on_paper_has_the_paper_bars(store: GameStore) -> None:
    """On the paper felt the replay's title and status bars are light with dark ink, as the
    game screen's are (they stayed the dark felts' green)."""
    play = PlayService(store)
    play.update_settings(play.local_player(), {"felt": "paper"})
    app = FirstLastApp(store, deal=1, chance=False)

    def bars() -> set[str]:
        return {seg.style.bgcolor.name for y in (0, app.screen.size.height - 2)
                for seg in app.screen._compositor.render_strips()[y]
                if seg.style is not None and seg.style.bgcolor is not None}

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert bars() == {"#d9ccab"}  # the game screen's title and status
        app.push_screen(ReplayScreen(Game(1, moves=["t", "t"]), "en"))
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and bars() == {"#d9ccab"}

    try:
        run(app, script)
    finally:
        C.set_look("green", False)


def test_a_replay_marks_the_playable_cards_as_the_setting_says(store: GameStore) -> None:
    """The marks on the cards that can be played (the setting ``show_playable``) are
    left off in a replay too, as on the table and on the page."""
    play = PlayService(store)
    play.update_settings(play.local_player(), {"show_playable": False})
    app = FirstLastApp(store, deal=6, chance=False)  # a card can be played at once
    playable = marks()["playable"][2]

    def framed() -> set[str]:
        return {slot.place for slot in app.screen.query(Slot) if slot.shown[0].spans[0].style == playable}

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert screen.view.playable and framed() == set()
        app.push_screen(ReplayScreen(screen.session.game, "en"))
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and framed() == set()
        app.pop_screen()
        C.set_look("green", False, marks=True)  # the marks on: the replay frames what can be played
        app.push_screen(ReplayScreen(screen.session.game, "en"))
        await pilot.pause()
        assert framed() == set(screen.view.playable)

    try:
        run(app, script)
    finally:
        C.set_look("green", False)


def test_a_replay_follows_the_terminals_size(store: GameStore) -> None:
    """A replay lays its table out again when the terminal changes size (it kept the
    size it opened with: a smaller terminal cut the table), on the whole width: no side bar."""
    app = FirstLastApp(store, deal=1, chance=False)

    def cut(width: int, height: int) -> list[str]:
        return [s.place for s in app.screen.query(Slot) if s.region.right > width or s.region.bottom > height]

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        app.push_screen(ReplayScreen(Game(1, moves=["t", "t"]), "en"))
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.card_size == C.choose_size(160, 60, 0)
        assert cut(160, 60) == []
        await pilot.resize_terminal(80, 30)
        await pilot.pause()
        assert replay.card_size == C.choose_size(80, 30, 0) and replay.card_size.width < C.choose_size(160, 60, 0).width
        assert cut(80, 30) == []
        await pilot.press("right")  # the next move is drawn at the new size too
        await pilot.pause()
        assert replay.at == 1 and cut(80, 30) == []

    run(app, script, size=(160, 60))
