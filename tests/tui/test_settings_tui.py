"""The terminal's settings (issues 26 and 28), driven headless through Textual's pilot:
S opens them; the felt is the light or dark choice (paper: Textual's light theme, the
others dark), the four-colour deck, the marks on the cards that can be played
(``show_playable``) and "on a wish" are the play layer's one declaration of settings,
saved for every face and kept in backups; each is honoured at once.
"""

from __future__ import annotations

import loops
import pytest
from playing import export_backup
from textual.color import Color
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Input, Label, RadioButton

from firstlast.engine.places import RESERVE
from firstlast.play import PlayService
from firstlast.play.settings import CHOICES
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp, GameScreen
from firstlast.tui import cards as C
from firstlast.tui.dialogs import SettingsDialog, WishDialog
from firstlast.tui.table import Slot, marks


def contrast(widget: Widget) -> float:
    """The WCAG contrast of ``widget``'s ink on its background, as Textual paints them."""
    _, _, background, color = widget.colors

    def lum(c: Color) -> float:
        def ch(v: int) -> float:
            x = v / 255
            return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b)

    hi, lo = sorted((lum(background), lum(color.blend(background, 1 - color.a) if color.a < 1 else color)),
                    reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def framed(screen: GameScreen) -> set[str]:
    """The reserve places whose label the table draws in the playable style."""
    playable = marks()["playable"][2]
    return {p for p in RESERVE if screen.query_one(f"#slot-{p}", Slot).shown[0].spans[0].style == playable}


async def choose(pilot: Pilot[None], felt: str | None = None, switches: tuple[str, ...] = ()) -> None:
    """Open the settings with S, choose ``felt``, flip ``switches`` (their ids), OK."""
    await pilot.press("S")
    await pilot.pause()
    assert isinstance(pilot.app.screen, SettingsDialog)
    if felt is not None:
        button = pilot.app.screen.query_one(f"#felt-{felt}", RadioButton)
        button.value = True
    for switch in switches:
        await pilot.click(f"#{switch}")
    ok = pilot.app.screen.query_one("#ok", Button)
    assert ok.region.bottom <= pilot.app.size.height - 1, "OK is out of view"  # the key bar's line below
    await pilot.click("#ok")
    await pilot.pause()
    assert not isinstance(pilot.app.screen, SettingsDialog)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_settings_light_or_dark_marks_and_a_wish(store: GameStore, lang: str) -> None:
    # Deal 6: R4's card plays at once (the forced line's first move).
    app = FirstLastApp(store, deal=6, chance=False, lang=lang)
    play = PlayService(store)
    player = play.local_player()

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:  # the smallest terminal: the dialog fits whole
            await pilot.pause()
            screen = app.game_screen
            assert app.theme == "textual-dark" and screen.has_class("felt-green")
            marks = framed(screen)
            assert marks == {p for p in screen.view.playable if p in RESERVE} and marks
            # Paper: light, at once and on the next start; the four-colour deck; no marks.
            await choose(pilot, "paper", ("four-colour", "show-playable"))
            assert app.theme == "textual-light" and screen.has_class("felt-paper")
            assert not any(screen.has_class(f"felt-{f}") for f in CHOICES["felt"] if f != "paper")
            assert C.LOOK.light and C.LOOK.four_colour
            saved = play.settings(player)
            assert (saved.felt, saved.four_colour, saved.show_playable, saved.wish) == ("paper", True, False, False)
            assert framed(screen) == set()
            # On the light theme the dialogs' words still read (a dark panel, light ink).
            await pilot.press("S")
            await pilot.pause()
            dialog = app.screen
            for widget in [*dialog.query(Label), *dialog.query(RadioButton)]:
                assert contrast(widget) >= 4.5, (widget, widget.colors)
            await pilot.press("escape")
            await pilot.pause()
            # The hint frames its own card, the only one (the marks off).
            await pilot.press("h")
            await pilot.pause()
            hint = screen.view.hint
            assert hint is not None and hint.source in RESERVE
            assert framed(screen) == {hint.source}
            await pilot.press("s")  # a move: the frame goes with the position it was for
            await pilot.pause()
            assert framed(screen) == set()
            # Night: dark again; the marks back on; on a wish.
            await choose(pilot, "night", ("show-playable", "wish"))
            assert app.theme == "textual-dark" and screen.has_class("felt-night") and not C.LOOK.light
            assert framed(screen) == {p for p in screen.view.playable if p in RESERVE}
            assert play.settings(player).wish
            # A new deal asks for the wish first; the end will say whether it comes true.
            await pilot.press("n")
            await pilot.pause()
            if not isinstance(app.screen, WishDialog):  # leaving a game under way asks first
                await pilot.press("y")
                await pilot.pause()
            assert isinstance(app.screen, WishDialog)
            app.screen.query_one(Input).value = "a letter from home"
            await pilot.press("enter")
            await pilot.pause()
            assert screen.session.stored.wish == "a letter from home" and screen.session.game.deal != 6
            # Escape leaves the settings as they were.
            await pilot.press("S")
            await pilot.pause()
            await pilot.click("#felt-paper")
            await pilot.press("escape")
            await pilot.pause()
            assert play.settings(player).felt == "night" and app.theme == "textual-dark"
            # Chosen in the browser meanwhile: the terminal follows at its next look at the store.
            play.update_settings(player, {"felt": "paper", "show_playable": False})
            await screen._watch_store()
            await pilot.pause()
            assert app.theme == "textual-light" and screen.has_class("felt-paper") and framed(screen) == set()
            play.update_settings(player, {"felt": "night", "show_playable": True})
            await screen._watch_store()
            await pilot.pause()
            assert app.theme == "textual-dark" and screen.has_class("felt-night")

    loops.run(main())
    # Kept for every face and in a backup: a fresh database restores them all.
    text = export_backup(play, player)
    other = PlayService(GameStore(store.path.with_name("other.sqlite3")))
    other.import_backup(other.local_player(), text)
    kept = other.settings(other.local_player())
    assert (kept.felt, kept.four_colour, kept.show_playable, kept.wish) == ("night", True, True, True)
    # The next start draws the night felt at once.
    again = FirstLastApp(store, chance=False, lang=lang)

    async def reopen() -> None:
        async with again.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert again.theme == "textual-dark" and again.game_screen.has_class("felt-night")

    loops.run(reopen())
