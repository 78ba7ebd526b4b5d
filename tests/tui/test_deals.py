"""Deals in the terminal (issue 19): "Next deal (→)" keeps the variant given on the command
line, a new game's random deal has at most nine digits, and a game dealt as a deal that
comes out (on the page, say: the same store) says "This deal comes out" in place of the
chance figure (no estimate is made: play is forced), in both languages (issue 26); a
random deal shows its figure."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from tui_pilot import run, wait_for

from firstlast.engine import Position, Variant
from firstlast.odds.live import ChanceEstimate
from firstlast.play import PlayService
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp, GameScreen
from firstlast.tui.dialogs import ConfirmDialog, EndDialog

WHY = {"en": "This deal comes out", "ru": "Эта раскладка выходит"}


def side(screen: GameScreen) -> str:
    """The side bar's text, its wrapped lines joined."""
    return " ".join(str(screen.query_one("#side").render()).split())


def estimator(position: Position, samples: int, seed: int) -> ChanceEstimate:
    return ChanceEstimate.of(500, 2000)


def test_next_deal_keeps_the_command_lines_variant(store: GameStore) -> None:
    r0 = Variant(redeals=0)
    app = FirstLastApp(store, deal=1, variant=r0, chance=False)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        screen.session.act("step", 100_000)  # to the end, as if by autoplay
        screen._shown()
        await pilot.pause()
        assert isinstance(pilot.app.screen, EndDialog)
        await pilot.press("right")  # Next deal (→)
        await pilot.pause()
        game = screen.session.game
        assert (game.deal, game.variant) == (2, r0)  # was deal 2 under the saved setting (r3)
        await pilot.press("n")  # a new random deal: nine digits at most, the same variant
        await pilot.pause()
        if isinstance(pilot.app.screen, ConfirmDialog):
            await pilot.press("y")
            await pilot.pause()
        game = screen.session.game
        assert game.deal != 2 and 1 <= game.deal <= 999_999_999 and game.variant == r0

    run(app, script, size=(120, 40))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_deal_that_comes_out_says_so_instead_of_a_figure(store: GameStore, lang: str) -> None:
    play = PlayService(store)
    player = play.local_player()
    play.update_settings(player, {"lang": lang})
    dealt = play.start(player, "winnable", variant=Variant.from_token("r0n"))  # as the page deals it
    app = FirstLastApp(store, estimator=estimator)

    async def script(pilot: Pilot[None], screen: GameScreen) -> None:
        assert screen.session.game_id == dealt.id
        await wait_for(pilot, lambda: WHY[lang] in side(screen))
        # Nothing estimated (no estimate asked for, none on its way), no figure.
        assert not any(worker.group == "chance" for worker in pilot.app.workers)
        assert screen.chance_answer is None and "%" not in side(screen)
        await pilot.press("L")  # the other language
        other = "en" if lang == "ru" else "ru"
        await wait_for(pilot, lambda: WHY[other] in side(screen))
        await pilot.press("n")  # a random deal: no such line
        await pilot.pause()
        if isinstance(pilot.app.screen, ConfirmDialog):
            await pilot.press("y")
            await pilot.pause()
        assert screen.session.stored.dealt == "random"
        await wait_for(pilot, lambda: screen.chance_answer is not None)
        assert WHY[other] not in side(screen) and WHY[lang] not in side(screen)

    run(app, script, size=(120, 40))
