"""The terminal game driven headless through Textual's pilot: real key presses and
clicks, checked against the engine and the store. Every test uses its own database."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.pilot import Pilot

from firstlast.engine import Game, Move, Variant, play_out
from firstlast.play import PlayService
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp, GameScreen
from firstlast.tui import app as app_module
from firstlast.tui.dialogs import EndDialog, HelpScreen, StatsScreen, UnfinishedDialog

SIZE = (100, 30)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.sqlite3")


def run(app: FirstLastApp, script: Callable[[Pilot[None], GameScreen], Awaitable[None]],
        size: tuple[int, int] = SIZE) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot, app.game_screen)
    asyncio.run(main())


def screen_text(pilot: Pilot[None]) -> str:
    """What the terminal shows right now, as plain text."""
    strips = pilot.app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def key_for(move: Move, game: Game) -> str:
    """The key a player presses for ``move`` (the move comes from the engine)."""
    if move.kind == "turn":
        return "t"
    if move.kind == "redeal":
        return "d"
    src = move.source or ""
    if src.startswith("R"):
        return src[1]
    if src == "W":
        return "w"
    if src == "F8" and game.position.privileged is not None:
        return "p"
    return "b"  # the active pile's own base (R5)


async def wait_for(pilot: Pilot[None], cond: Callable[[], bool], timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError("timed out waiting")
        await pilot.pause(0.02)


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
    assert {"t", "d", "p", "b"} <= set(keys) and any(k.isdigit() for k in keys)
    app = FirstLastApp(store, deal=deal, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = screen.session.game
        for i in range(0, len(keys), 25):
            await pilot.press(*keys[i:i + 25])
        assert game.moves == expected.moves
        assert game.position.status == "won" and game.position.score == 104
        await pilot.pause()
        assert isinstance(pilot.app.screen, EndDialog)
        text = screen_text(pilot)
        assert "came out" in text
        assert f"Deal {deal}" in text and "Score 104 of 104" in text
        stored = store.load(screen.session.game_id)
        assert stored.game.moves == expected.moves
        assert stored.finished is not None
        [stats] = PlayService(store).stats(store.local_player())
        assert stats.variant == Variant() and stats.won == 1

    run(app, script)


def test_autoplay_reaches_the_engines_result_and_next_deal(store: GameStore) -> None:
    deal = 10
    outcome = play_out(deal, Variant())
    app = FirstLastApp(store, deal=deal, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        for _ in range(10):
            await pilot.press("plus")  # to the fastest speed
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, EndDialog))
        pos = screen.session.game.position
        assert (pos.status == "won", pos.score, pos.passes) == (outcome.won, outcome.score, outcome.passes)
        assert store.load(screen.session.game_id).game.position.score == outcome.score
        await pilot.press("right")  # next deal
        await pilot.pause()
        assert screen.session.game.deal == deal + 1
        assert len(screen.session.game) == 0
        assert len(store.games(store.local_player())) == 2

    run(app, script)


def test_autoplay_pauses(store: GameStore) -> None:
    app = FirstLastApp(store, deal=5, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("a")
        await wait_for(pilot, lambda: len(screen.session.game) >= 2)
        await pilot.press("escape")
        made = len(screen.session.game)
        await pilot.pause(0.4)
        assert screen.auto_timer is None
        assert len(screen.session.game) == made
        assert screen.session.game.position.status == "playing"

    run(app, script)


def test_illegal_key_is_refused_with_the_rule(store: GameStore) -> None:
    """Deal 1: P1 needs a Q; R3 is 6♦. Pressing 3 changes nothing and says why (R4);
    turning when a card fits is refused (R9)."""
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = screen.session.game
        assert game.position.need == 12
        before = game.position
        await pilot.press("3")
        assert game.position is before
        assert "does not fit P1" in screen_text(pilot)
        assert "(R4)" in screen_text(pilot)
        await pilot.press("w")  # the waste is not a source in the canonical rules
        assert "(R6" in screen_text(pilot)
        # Turn until a reserve card or the privileged card fits, then try to turn again.
        while game.position.legal_moves()[0].kind == "turn":
            await pilot.press("space")
        assert game.position.legal_moves()[0].kind == "play"
        n = len(game)
        await pilot.press("t")
        assert len(game) == n
        assert "(R9)" in screen_text(pilot)

    run(app, script)


def test_turn_play_reserve_undo_redo(store: GameStore) -> None:
    app = FirstLastApp(store, deal=8, chance=False)  # a reserve card fits early

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = screen.session.game
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
        saved = store.load(screen.session.game_id)
        assert len(saved.game) == n
        await pilot.press("u")
        await pilot.press("ctrl+z")
        assert len(game) == n - 2
        assert store.load(screen.session.game_id).game.redo_moves[:2] == game.redo_moves[:2]
        await pilot.press("r")
        await pilot.press("ctrl+y")
        assert len(game) == n and game.moves[-1] == move
        await pilot.press("ctrl+r")
        assert len(game) == 0 and len(game.redo_moves) == n
        assert len(store.load(screen.session.game_id).game) == 0

    run(app, script)


def test_click_stock_and_card(store: GameStore) -> None:
    app = FirstLastApp(store, deal=8, chance=False)  # a reserve card fits early

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = screen.session.game
        await pilot.click("#slot-stock")
        assert len(game) == 1 and game.moves[0].kind == "turn"
        while game.position.legal_moves()[0].kind == "turn":
            await pilot.click("#slot-stock")
        move = game.position.legal_moves()[0]
        n = len(game)
        await pilot.click(f"#slot-{move.source}")
        assert len(game) == n + 1 and game.moves[-1] == move

    run(app, script)


def test_help_screen_languages(store: GameStore) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("h")
        assert isinstance(pilot.app.screen, HelpScreen)
        assert "First becomes last" in screen_text(pilot)
        await pilot.press("t")  # game keys do nothing under the help screen
        assert len(screen.session.game) == 0
        await pilot.press("l")
        text = screen_text(pilot)
        assert "Первые становятся последними" in text
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        from firstlast.tui.dialogs import help_text
        assert "Пасьянс раскладывается полной колодой из 52 карт" in help_text("ru")
        await pilot.press("escape")
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
        redeals = pilot.app.screen.query_one("#redeals")
        redeals.value = "unlimited"  # type: ignore[attr-defined]
        await pilot.click("#waste")
        await pilot.click("#ok")
        await pilot.pause()
        assert screen.new_variant == Variant(redeals=None, waste_playable=True)
        await pilot.press("n")
        assert screen.session.game.variant == Variant(redeals=None, waste_playable=True)
        assert "unlimited redeals, waste playable" in screen_text(pilot)
        # The choice is remembered for the next session.
        assert store.settings(store.local_player())["variant"] == "ruw"

    run(app, script)
    app2 = FirstLastApp(store, deal=7, chance=False)
    assert app2.session.settings().variant == Variant(redeals=None, waste_playable=True)
    assert app2.session.game.variant == Variant(redeals=None, waste_playable=True)


def test_game_is_stored_and_resumes_in_a_new_app(store: GameStore) -> None:
    app = FirstLastApp(store, deal=42, chance=False)
    made: list[Move] = []

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = screen.session.game
        for _ in range(15):
            await pilot.press(key_for(game.position.legal_moves()[0], game))
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
    assert len(store.load(again.session.game_id).game) == 16
    resumed = FirstLastApp(store, deal=42, resume=True, chance=False)
    assert resumed.session.game_id == again.session.game_id
    with pytest.raises(LookupError):
        FirstLastApp(store, deal=43, resume=True, chance=False)


def test_change_elsewhere_is_reloaded(store: GameStore) -> None:
    """The browser moves the same game on: our next save conflicts, we reload and say so."""
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await pilot.press("t")
        other = store.load(screen.session.game_id)
        other.game.autoplay()
        store.save(other)
        await pilot.press("t")
        assert "changed elsewhere" in screen_text(pilot)
        assert screen.session.game.moves == other.game.moves
        assert screen.session.stored.version == other.version

    run(app, script)


def test_statistics_screen(store: GameStore) -> None:
    player = store.local_player()
    for deal in (1, 2, 3):
        s = store.create(player, deal, Variant())
        s.game.autoplay()
        store.save(s)
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


@dataclass
class FakeEstimate:
    probability: float
    low: float
    high: float
    samples: int


def test_chance_figure_from_worker(store: GameStore) -> None:
    seen: list[str] = []

    def estimator(position: object, samples: int, seed: int) -> FakeEstimate:
        seen.append(str(position))
        return FakeEstimate(0.37, 0.352, 0.391, samples)

    app = FirstLastApp(store, deal=1, estimator=estimator)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        await wait_for(pilot, lambda: "chance 37 % (35–39)" in screen_text(pilot), timeout=5)
        await pilot.press("t")
        await wait_for(pilot, lambda: str(screen.session.game.position) in seen, timeout=5)

    run(app, script)


def test_chance_hidden_without_odds_module(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firstlast.tui.chance.load_estimator", lambda: None)
    app = FirstLastApp(store, deal=1)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        runner = screen.chance_runner
        assert runner is not None
        await wait_for(pilot, lambda: runner.available is False, timeout=5)
        await pilot.press("t")
        assert "chance" not in screen_text(pilot)

    run(app, script)


@pytest.mark.parametrize(("size", "card_width"), [((80, 24), 5), ((160, 50), 11)])
def test_layout_fits_and_scales(store: GameStore, size: tuple[int, int], card_width: int) -> None:
    app = FirstLastApp(store, deal=1, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert screen.size_now.width == card_width
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
        assert f"{app_module.SPEEDS[start - 1]}/s" in screen_text(pilot)

    run(app, script)


def test_moves_made_elsewhere_show_up_while_idle(store: GameStore) -> None:
    app = FirstLastApp(store, deal=2, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        other = store.load(screen.session.game_id)
        for _ in range(5):
            other.game.step()
        store.save(other)
        await wait_for(pilot, lambda: len(screen.session.game) == 5, timeout=6)
        assert screen.session.game.moves == other.game.moves
        assert "changed elsewhere" in screen_text(pilot)
        await pilot.press("s")  # and our next move saves on top of it, without a conflict
        assert len(store.load(screen.session.game_id).game) == 6

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
        assert screen.session.game_id != old
        await pilot.press("s")
        assert len(store.load(screen.session.game_id).game) == 1

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
        await wait_for(pilot, lambda: "chance " in screen_text(pilot), timeout=60)
        assert screen.chance_text is not None
        assert re.fullmatch(r"chance \d+ % \(\d+–\d+\)", screen.chance_text)

    run(app, script)


def test_waste_key_in_variant_v2(store: GameStore) -> None:
    """Deal 6 with V2: after 8 forced moves the waste's top card fits; w plays it."""
    v2 = Variant(waste_playable=True)
    app = FirstLastApp(store, deal=6, variant=v2, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        game = screen.session.game
        assert game.variant == v2
        for _ in range(8):
            await pilot.press("s")
        assert Move("play", "W") in game.legal_moves()
        top = game.position.waste[-1]
        assert "Waste" in screen_text(pilot)
        await pilot.press("w")
        assert str(game.moves[-1]) == "W"
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
        screen._maybe_end()
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
        await pilot.press("g", "4", "enter")  # another deal: deal 3 is left, abandoned
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
        assert pilot.app.screen is screen and screen.session.game_id == first
        assert len(screen.session.game) == 2
        [stats] = PlayService(store).stats(store.local_player())
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

    def estimator(position: object, samples: int, seed: int) -> FakeEstimate:
        return FakeEstimate(0.0, 0.0, 0.01, samples)

    app = FirstLastApp(store, deal=1, variant=Variant(redeals=0), estimator=estimator)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        screen.session.act("step", 100_000)
        screen._maybe_end()
        await pilot.pause()
        await pilot.press("u")  # from the end panel: undo the last move
        await wait_for(pilot, lambda: screen.chance_text is not None, timeout=5)
        await pilot.press("r")
        await pilot.pause()
        assert screen.session.game.position.status == "lost"
        assert screen.chance_text is None
        assert "chance" not in screen.query_one("#side").render().plain  # type: ignore[attr-defined]

    run(app, script)
