"""The Textual app: First and Last in the terminal.

The screen draws the position and sends the player's actions to the play layer
(``firstlast.play``, through ``Session``), which decides and commits them — the same
code the browser game calls, so both faces play one game the same way. Refusals come
back as coded errors, said in the status line from their code and parameters
(``messages``), cards with suit symbols as on the table.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ..engine import Card, Game, Move, Movement, Position, Variant
from ..engine.places import STOCK, WASTE
from ..i18n import announce, describe_variant, plural, t
from ..play import ActionName, GameStore, PlayError, StartKind
from ..play.table import controls
from . import cards as C
from .chance import Answer, ChanceRunner, Estimator, describe_answer, refinable, winnable_note
from .dialogs import (
    ConfirmDialog,
    DealDialog,
    EndDialog,
    HelpScreen,
    ImportDialog,
    StatsScreen,
    UnfinishedDialog,
    VariantDialog,
)
from .messages import error_text
from .session import Done, Session
from .table import FIRST, PILES, RESERVE, Slot, WasteFan, paint_slot
from .words import binding, compact_variant, lang_of, localize, other

SIDE_WIDTH: Final = 30
#: The side bar grows up to this width when the terminal has room to spare.
SIDE_MAX_WIDTH: Final = 40
#: The smallest terminal the table fits in, columns × lines.
MIN_SIZE: Final = (80, 24)
#: Autoplay speeds, in moves per second.
SPEEDS: Final = (1, 2, 4, 8, 16, 32, 64, 128, 512)
DEFAULT_SPEED: Final = 3
#: The autoplay speed (index into SPEEDS) each shared pace setting 0…3 starts at
#: (0 = instant, 1 slow, 2 normal, 3 fast).
PACE_SPEED: Final = (8, 2, 3, 5)
#: The UI redraws at most this often during autoplay; faster speeds make several
#: moves per tick (and commit them together).
MAX_TICKS_PER_S: Final = 30
#: How often the saved game is checked for moves made in another window.
WATCH_INTERVAL_S: Final = 2.0
#: During autoplay the chance figure is refreshed at most this often.
AUTO_CHANCE_INTERVAL_S: Final = 0.5
#: While the player is idle, the chance figure is refined (more samples of the same
#: position) this long after the last figure came.
REFINE_DELAY_S: Final = 0.5
#: The story of a finished game is told within about this many seconds (on a worker).
STORY_BUDGET_S: Final = 1.5
#: The story's curve is drawn this many columns wide.
STORY_WIDTH: Final = 56
#: An announcement longer than this is cut (the status line is one line).
ANNOUNCE_MAX: Final = 110

__all__ = ["FirstLastApp", "GameScreen", "compact_variant", "describe_movements", "title_text"]


def title_text(deal: int, variant: Variant, width: int, lang: str = "en") -> Text:
    """The title line for ``width`` columns: the game's name as room allows, and always
    the deal and its rules (in fewer words, or as the variant's token, on narrow
    terminals, so the variant is never cut off)."""
    deal_part = t(lang, "tui.title.deal", deal=deal)
    names = (t(lang, "tui.title"), t(lang, "tui.title.short"), "")
    rules = (describe_variant(variant, lang), compact_variant(variant, lang), variant.token)
    room = width - 2  # the title's padding
    candidates = [(name, rule) for rule in rules for name in names]
    name, rule = candidates[-1]
    for name, rule in candidates:
        if cell_len(" · ".join(x for x in (name, deal_part, rule) if x)) <= room:
            break
    title = Text()
    if name:
        title.append(name, style="bold")
        title.append(" · ", style="#b8d8c0")
    title.append(deal_part, style="bold #ffd24a")
    title.append(f" · {rule}", style="#b8d8c0")
    return title


def describe_movements(move: Move, movements: tuple[Movement, ...], pos: Position, lang: str = "en") -> str:
    """What a move did, in short: ``R3: 7♥ R3→P1 · 2♣ waste→R3`` (cards with suit
    symbols, places as the table labels them)."""
    if move.kind == "redeal":
        return plural(lang, "tui.describe.redeal", len(movements), **{"pass": pos.passes})
    parts = [f"{C.pretty(m.card, lang)} {_place(m.source, lang)}→{_place(m.target, lang)}" for m in movements]
    prefix = t(lang, "tui.move.turn") if move.kind == "turn" else _move_name(move, lang)
    return t(lang, "tui.describe.step", move=prefix, moved=" · ".join(parts))


def _place(place: str, lang: str) -> str:
    """A place as the table labels it: its code, but the stock and the waste in words."""
    if place == STOCK:
        return t(lang, "tui.place.stock")
    if place in (WASTE, "W"):
        return t(lang, "tui.move.waste")
    return place


def short_announcement(movements: tuple[Movement, ...], lang: str, undo: bool = False) -> str:
    """``i18n.announce`` of a step's movements, cut to fit the status line."""
    text = announce(movements, lang, undo=undo)
    return text if len(text) <= ANNOUNCE_MAX else text[:ANNOUNCE_MAX - 1] + "…"


class GameScreen(Screen[None]):
    """The table, the side bar and the status line. Game keys live here rather than on
    the app so that dialogs and the help screen on top of it do not trigger them."""

    DEFAULT_CSS = """
    GameScreen { background: #0b4d22; layout: vertical; }
    #title { height: 1; background: #08361a; color: #e8f3ea; padding: 0 1; }
    #body { height: 1fr; }
    #table-area { width: 1fr; height: 1fr; align: center middle; background: #0b4d22; }
    #table { width: auto; height: auto; padding: 0 0 0 1; background: #0b4d22; }
    .row { height: auto; width: auto; margin-bottom: 0; }
    #row-stock { width: 100%; }
    #side { width: 30; height: 1fr; background: #0e3b1d; color: #e8f3ea; padding: 0 1; }
    #status { height: 1; background: #08361a; color: #e8f3ea; padding: 0 1; }
    #too-small { height: 1fr; content-align: center middle; color: #ffd24a; text-style: bold; }
    #status.error { color: #ff8a8a; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("t,space", "turn", "tui.binding.turn"),
        *[Binding(str(i), f"play('R{i}')", f"R{i}", show=False) for i in range(1, 9)],
        binding("p", "play('F8')", "tui.binding.privileged", show=False),
        binding("b", "base", "tui.binding.base", show=False),
        binding("w", "play('waste')", "tui.binding.waste", show=False),
        binding("d", "redeal", "tui.binding.redeal", show=False),
        binding("s", "step", "tui.binding.step"),
        binding("f", "advance", "tui.binding.advance", show=False),
        binding("a", "auto", "tui.binding.auto"),
        binding("escape", "pause", "tui.binding.pause", show=False),
        binding("plus,equals_sign", "speed(1)", "tui.binding.faster", show=False),
        binding("minus,underscore", "speed(-1)", "tui.binding.slower", show=False),
        binding("u,ctrl+z", "undo", "tui.binding.undo"),
        binding("r,ctrl+y", "redo", "tui.binding.redo", show=False),
        binding("ctrl+r", "restart", "tui.binding.restart", show=False),
        binding("n", "new_random", "tui.binding.new"),
        binding("g", "new_by_number", "tui.binding.deal", show=False),
        binding("v", "variant", "tui.binding.variant", show=False),
        binding("o", "import_record", "tui.binding.import", show=False),
        binding("l", "reopen", "tui.binding.unfinished", show=False),
        binding("L", "language", "tui.binding.lang"),
        binding("y", "story", "tui.binding.story", show=False),
        binding("i", "stats", "tui.binding.stats"),
        binding("h,question_mark", "help", "tui.binding.help"),
        binding("q", "quit_game", "tui.binding.quit"),
    ]

    def __init__(self, session: Session, new_variant: Variant | None = None, chance: bool = True,
                 estimator: Estimator | None = None) -> None:
        super().__init__()
        self.session = session
        settings = session.settings()
        # The variant for new games: asked for on the command line, else the shared setting.
        self.new_variant = new_variant or settings.variant
        self.size_now = C.SMALL
        self.speed = PACE_SPEED[settings.speed]
        self.auto_timer: Timer | None = None
        self._ended_shown: tuple[str, int] | None = None
        self.message = ""
        self.chance_text: str | None = None
        self.chance_runner = (
            ChanceRunner(self._chance_done_threadsafe, estimator=estimator) if chance else None
        )
        #: The language everything on the terminal is said in (the shared setting; L (on
        #: the table and in the help) switches it, and the choice is saved for the browser too).
        self.lang: str = lang_of(settings.lang)
        #: The story of the finished game on the table: (game id, moves) it tells, its text.
        self.story: tuple[tuple[str, int], str] | None = None
        self._story_for: tuple[str, int] | None = None
        self._chance_asked = 0.0
        self.chance_answer: Answer = None
        self._refine_timer: Timer | None = None
        #: The cards the last action moved (marked on the table until the next one).
        self.moved: frozenset[Card] = frozenset()

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="too-small")
        with Horizontal(id="body"):
            with Vertical(id="table-area"), Vertical(id="table"):
                with Horizontal(classes="row", id="row-first"):
                    for p in FIRST:
                        yield Slot(p)
                with Horizontal(classes="row", id="row-piles"):
                    for p in PILES:
                        yield Slot(p)
                with Horizontal(classes="row", id="row-reserve"):
                    for p in RESERVE:
                        yield Slot(p)
                with Horizontal(classes="row", id="row-stock"):
                    yield Slot(STOCK)
                    yield Slot(WASTE)
                    yield WasteFan()
            yield Static(id="side")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        localize(self, self.lang)
        self._apply_size(self.app.size.width, self.app.size.height)
        self.refresh_table()
        self._request_chance()
        self._maybe_end()
        self.set_interval(WATCH_INTERVAL_S, self._watch_store)
        pending = self.session.pending
        if pending is not None:
            # ``firstlast tui N`` with a game under way on the table: ask first.
            self.session.pending = None
            self._confirm_leaving(t(self.lang, "tui.confirm.what.deal", deal=pending.deal),
                                  lambda: self._start("number", pending.deal, pending.variant),
                                  lambda: self.say(t(self.lang, "tui.msg.kept_pending", deal=self.session.game.deal,
                                                     pending=pending.deal)))

    def _watch_store(self) -> None:
        """Show moves made on this game elsewhere (the browser, another terminal)."""
        if self.auto_timer is not None or self.app.screen is not self:
            return
        if self.session.follow():
            self._ended_shown = None
            self.moved = frozenset()
            self.say(t(self.lang, "tui.msg.changed"))
            self.refresh_table()
            self._request_chance()
            self._maybe_end()

    def on_resize(self, event: events.Resize) -> None:
        self._apply_size(event.size.width, event.size.height)
        self.refresh_table()

    def _apply_size(self, width: int, height: int) -> None:
        # Below MIN_SIZE the table cannot be drawn whole: say so instead of a cut table.
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.query_one("#body").display = not small
        notice = self.query_one("#too-small", Static)
        notice.display = small
        notice.update(t(self.lang, "tui.too_small", width=width, height=height, min_width=MIN_SIZE[0],
                        min_height=MIN_SIZE[1]))
        size = C.choose_size(width, height, SIDE_WIDTH)
        self.size_now = size
        # The side bar takes what the table leaves, within bounds; the table is centred
        # in the rest.
        drawn = 8 * (size.width + 1) + 1  # the eight columns and the table's left padding
        side = max(SIDE_WIDTH - 2, min(SIDE_MAX_WIDTH, width - drawn))
        self.query_one("#side").styles.width = side
        for slot in self.query(Slot):
            wide = slot.place in (STOCK, WASTE)
            slot.styles.width = max(size.width, 9) if wide else size.width
            slot.styles.height = size.height + 1
        self.query_one(WasteFan).styles.height = size.height + 1
        # The stock row's fan spans the rows above it, not the whole screen.
        self.query_one("#row-stock").styles.width = C.table_width(size.width) - 3

    # ------------------------------------------------------------ painting
    @property
    def pos(self) -> Position:
        return self.session.game.position

    def refresh_table(self) -> None:
        game = self.session.game
        pos = game.position
        legal = pos.legal_moves()
        for slot in self.query(Slot):
            label, lines = paint_slot(slot.place, pos, self.size_now, legal, self.moved, self.lang)
            slot.show(label, lines)
        self.query_one(WasteFan).show(pos.waste, self.lang)
        self.query_one("#title", Static).update(title_text(game.deal, game.variant, self.app.size.width, self.lang))
        self.query_one("#side", Static).update(self._side_text())

    def _side_text(self) -> Text:
        game = self.session.game
        pos = game.position
        lang = self.lang
        key = "#9fc7a8"
        labels = [t(lang, f"tui.side.{k}") for k in ("active", "needs", "privileged", "pass", "redeals", "stock",
                                                      "score", "auto", "next")]
        pad = max(len(x) for x in labels) + 1

        def label(name: str) -> None:
            t_.append(t(lang, f"tui.side.{name}").ljust(pad), style=key)

        t_ = Text()
        status = pos.status
        if status == "won":
            t_.append(t(lang, "tui.side.won") + "\n", style="bold #ffd24a")
        elif status == "lost":
            t_.append(t(lang, "tui.side.lost") + "\n", style="bold #ff8a8a")
        k = pos.active
        if k is not None and pos.need is not None:
            label("active")
            t_.append(f"P{k + 1}", style=f"bold {C.ACTIVE}")
            t_.append(f" {t(lang, 'tui.side.under')} ")
            t_.append_text(C.pretty_text(pos.first[k], lang))
            t_.append("\n")
            label("needs")
            t_.append(C.rank_text(pos.need, lang), style=f"bold {C.ACTIVE}")
            t_.append("   " + t(lang, "tui.side.on_pile", n=len(pos.piles[k]), pile=f"P{k + 1}") + "\n")
        priv = pos.privileged
        label("privileged")
        if priv is not None:
            t_.append_text(C.pretty_text(priv, lang))
            t_.append(" " + t(lang, "tui.side.privileged_at") + "\n", style=C.PRIVILEGED)
        elif not pos.variant.privileged_last:
            t_.append(t(lang, "tui.side.no_privileged_v3") + "\n", style="dim")
        else:
            t_.append(t(lang, "tui.side.no_privileged_p8") + "\n", style="dim")
        redeals = pos.variant.redeals
        total = "∞" if redeals is None else str(redeals + 1)
        left = pos.redeals_left
        label("pass")
        t_.append(t(lang, "tui.side.pass_of", total=total, **{"pass": pos.passes}) + "\n", style="bold")
        label("redeals")
        t_.append(t(lang, "tui.side.redeals_left", left="∞" if left is None else left) + "\n")
        label("stock")
        t_.append(t(lang, "tui.side.stock_waste", stock=len(pos.stock), waste=len(pos.waste)) + "\n")
        label("score")
        t_.append(f"{pos.score}/104", style="bold")
        t_.append(" · " + t(lang, "tui.side.moves", n=len(game)) + "\n")
        if self.chance_text:
            t_.append(self.chance_text + "\n", style="bold #8fd3ff")
            note = winnable_note(self.session.stored.dealt, pos.status, lang)
            if note:
                t_.append(note + "\n", style="italic #8fd3ff")
        speed = SPEEDS[self.speed]
        label("auto")
        on = self.auto_timer is not None
        t_.append(t(lang, "tui.side.auto_on" if on else "tui.side.auto_off"), style=f"bold {C.PLAYABLE}" if on else "")
        t_.append(" · " + t(lang, "tui.side.speed", speed=speed) + "\n")
        legal = pos.legal_moves()
        if legal:
            label("next")
            t_.append(", ".join(_move_name(m, lang) for m in legal) + "\n")
        t_.append("\n" + t(lang, "tui.side.keys"), style="#8fb79a")
        # Tall terminals: the rest of the side bar lists the latest moves.
        side = self.query_one("#side", Static)
        room = side.size.height - len(t_.plain.splitlines()) - 2
        if room >= 3 and len(game):
            t_.append("\n\n" + t(lang, "tui.side.latest") + "\n", style=key)
            steps = game.steps[-room + 1:]
            first = len(game) - len(steps) + 1
            width = max(10, side.size.width - 2)
            lines = [f"{first + i:4}. {_step_text(step.move, step.movements, lang)}"[:width]
                     for i, step in enumerate(steps)]
            t_.append("\n".join(reversed(lines)), style="#b8d8c0")
        return t_

    def say(self, message: str, error: bool = False) -> None:
        self.message = message
        status = self.query_one("#status", Static)
        status.set_class(error, "error")
        status.update(("✗ " if error else "") + message)

    # ------------------------------------------------------------ making moves
    def _act(self, action: ActionName, argument: str | int | None = None) -> Done:
        """Ask the play layer for ``action``; show what it did, or why it refused."""
        done = self.session.act(action, argument)
        if not done.ok:
            self.stop_auto()
            assert done.error is not None
            if done.error.kind == "illegal":
                self.app.bell()
            self.say(error_text(done.error, self.lang), error=True)
            if done.error.kind in ("conflict", "not_found"):
                self._ended_shown = None
                self.moved = frozenset()
                self.refresh_table()
                self._request_chance()
            return done
        self.moved = frozenset(m.card for m in done.movements)
        if done.new_game:
            self._shown_new_game()
        else:
            self._after_change(self._describe(action, done))
        return done

    def _describe(self, action: ActionName, done: Done) -> str:
        """The status line after an action: what it did in short (cards as on the
        table), then its card movements in words (``i18n.announce``), as a screen
        reader would say them."""
        lang = self.lang
        if not done.steps:
            return t(lang, "tui.msg.nothing")
        if action == "undo":
            text = t(lang, "tui.msg.undid", move=_move_name(done.steps[0].move, lang))
            return f"{text} — {short_announcement(done.movements, lang, undo=True)}"
        if action == "redo":
            text = t(lang, "tui.msg.redid", move=_move_name(done.steps[0].move, lang))
            return f"{text} — {short_announcement(done.movements, lang)}"
        if action == "restart":
            return t(lang, "tui.msg.restarted", deal=self.session.game.deal)
        last = done.steps[-1]
        if len(done.steps) > 1:  # autoplay, advance: the last move in short is enough
            return t(lang, "tui.msg.moves_made", n=len(done.steps),
                     text=describe_movements(last.move, last.movements, self.pos, lang))
        return short_announcement(last.movements, lang)

    def _after_change(self, message: str) -> None:
        self.say(message)
        self.refresh_table()
        self._request_chance()
        self._maybe_end()

    def _maybe_end(self) -> None:
        game = self.session.game
        pos = game.position
        if pos.status == "playing":
            return
        self.stop_auto()
        key = (self.session.game_id, len(game))
        if self._ended_shown == key:
            return
        self._ended_shown = key
        self._show_end()

    def _show_end(self) -> None:
        """The end panel of the finished game on the table, with its story (told on a
        worker the first time, so the screen never waits for it)."""
        game = self.session.game
        pos = game.position
        key = (self.session.game_id, len(game))
        story = self.story[1] if self.story is not None and self.story[0] == key else None
        dialog = EndDialog(pos.status == "won", game.deal, game.variant, pos.score, pos.passes, len(game),
                           self.lang, story)
        self.app.push_screen(dialog, self._end_chosen)
        if story is None:
            self._tell_story()

    def _tell_story(self) -> None:
        """Tell the finished game's story (``play.story.story_of``) on a worker thread,
        within ``STORY_BUDGET_S``; the end panel shows it when it comes."""
        stored = self.session.stored
        key = (stored.id, len(stored.game))
        if self._story_for == key:
            return  # already being told
        self._story_for = key
        # A copy: the worker reads its positions while the player may undo on the table.
        game = Game(stored.game.deal, stored.game.variant, stored.game.moves)
        lang = self.lang

        def tell() -> None:
            from ..play.story import story_of

            try:
                text = story_of(game, budget_s=STORY_BUDGET_S).render(STORY_WIDTH, lang)
            except Exception as e:  # the story is a bonus: its failure must not end the game
                text = t(lang, "tui.story.failed", reason=f"{type(e).__name__}: {e}"[:120])
            with contextlib.suppress(RuntimeError):  # the app is shutting down
                self.app.call_from_thread(self._story_told, key, lang, text)

        self.run_worker(tell, thread=True, group="story", exit_on_error=False)

    def _story_told(self, key: tuple[str, int], lang: str, text: str) -> None:
        if self._story_for == key:
            self._story_for = None
        if lang != self.lang:
            return  # the language changed meanwhile: told again when asked
        self.story = (key, text)
        screen = self.app.screen
        if isinstance(screen, EndDialog) and key == (self.session.game_id, len(self.session.game)):
            screen.show_story(text)

    def _end_chosen(self, choice: str | None) -> None:
        if choice == "undo":
            self.action_undo()
        elif choice == "quit":
            self.action_quit_game()
        elif choice == "again":
            self._start("again")
        elif choice == "next":
            # Under the variant of this session's new games (the command line's, or
            # the one chosen with v), as n deals: not the saved setting's.
            self._start("next", variant=self.new_variant)
        elif choice == "random":
            self._start("random", variant=self.new_variant)

    def _confirm_leaving(self, what: str, go: Callable[[], None], stay: Callable[[], None] | None = None) -> None:
        """Run ``go`` (which puts ``what`` on the table); when that would abandon the
        game under way, only once the player says yes (Enter/y; Escape/n keeps it)."""
        self.stop_auto()
        if not self.session.under_way():
            go()
            return
        game = self.session.game

        def answered(yes: bool | None) -> None:
            if yes:
                go()
            elif stay is not None:
                stay()
            else:
                self.say(t(self.lang, "tui.msg.kept", deal=game.deal))

        self.app.push_screen(ConfirmDialog(
            t(self.lang, "tui.confirm.title", deal=game.deal, what=what),
            plural(self.lang, "tui.confirm.text", len(game)), self.lang), answered)

    def _start(self, how: StartKind, deal: object = None, variant: Variant | None = None) -> None:
        """A new game on the table (the play layer leaves the one there: abandoned if
        it was under way, docs/play.md; the keys ask first, ``_confirm_leaving``)."""
        self.stop_auto()
        done = self.session.start(how, deal, variant)
        if not done.ok:
            assert done.error is not None
            self.say(error_text(done.error, self.lang), error=True)
            return
        self._shown_new_game()

    def _shown_new_game(self) -> None:
        game = self.session.game
        self.chance_text = None
        self._ended_shown = None
        self.moved = frozenset()
        self.say(t(self.lang, "tui.msg.new_game", deal=game.deal, variant=describe_variant(game.variant, self.lang)))
        self.refresh_table()
        self._request_chance()

    # ------------------------------------------------------------ actions
    def action_turn(self) -> None:
        """The stock's move: turn, or redeal once the stock is empty (the play layer
        says which; the engine whether it is allowed)."""
        self.stop_auto()
        self._act("move", str(controls(self.pos).stock))

    def action_redeal(self) -> None:
        self.stop_auto()
        self._act("move", "redeal")

    def action_play(self, source: str) -> None:
        self.stop_auto()
        self._act("move", source)

    def action_base(self) -> None:
        """Play the active pile's own base onto it (R5)."""
        self.stop_auto()
        base = controls(self.pos).base
        if base is None:
            self.say(t(self.lang, "tui.msg.over_no_move"), error=True)
            return
        self._act("move", str(base))

    def action_step(self) -> None:
        self.stop_auto()
        self._act("step")

    def action_advance(self) -> None:
        """Turn until a card fits (or a redeal is due)."""
        self.stop_auto()
        self._act("advance")

    def action_auto(self) -> None:
        if self.auto_timer is not None:
            self.stop_auto()
            self.say(t(self.lang, "tui.msg.paused"))
            self.refresh_table()
            self._request_chance()
            return
        if self.pos.status != "playing":
            self.say(t(self.lang, "tui.msg.over_no_auto"), error=True)
            return
        self._start_timer()
        self.say(t(self.lang, "tui.msg.auto_on", speed=SPEEDS[self.speed]))
        self.refresh_table()

    def _start_timer(self) -> None:
        speed = SPEEDS[self.speed]
        interval = max(1 / speed, 1 / MAX_TICKS_PER_S)
        self.auto_timer = self.set_interval(interval, self._auto_tick)

    def _auto_tick(self) -> None:
        # Several forced moves per tick at high speeds, committed together.
        per_tick = max(1, math.ceil(SPEEDS[self.speed] / MAX_TICKS_PER_S))
        self._act("step", per_tick)
        if self.pos.status != "playing":
            self.stop_auto()
            self.refresh_table()

    def stop_auto(self) -> None:
        if self.auto_timer is not None:
            self.auto_timer.stop()
            self.auto_timer = None

    def action_pause(self) -> None:
        if self.auto_timer is not None:
            self.stop_auto()
            self.say(t(self.lang, "tui.msg.paused"))
            self.refresh_table()
            self._request_chance()

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.auto_timer is not None:
            self.stop_auto()
            self._start_timer()
        self.say(t(self.lang, "tui.msg.speed", speed=SPEEDS[self.speed]))
        self.refresh_table()

    def action_undo(self) -> None:
        self.stop_auto()
        if self._act("undo").ok:
            self._ended_shown = None

    def action_redo(self) -> None:
        self.stop_auto()
        self._act("redo")

    def action_restart(self) -> None:
        """Back to the deal; a finished game keeps its result and the deal starts again
        as a new attempt (the play layer's statistics policy)."""
        self.stop_auto()
        self._act("restart")

    def action_new_random(self) -> None:
        self._confirm_leaving(t(self.lang, "tui.confirm.what.new"),
                              lambda: self._start("random", variant=self.new_variant))

    def action_new_by_number(self) -> None:
        self.stop_auto()

        def chosen(n: int | None) -> None:
            if n is not None:
                self._confirm_leaving(t(self.lang, "tui.confirm.what.deal", deal=n),
                                      lambda: self._start("number", n, self.new_variant))

        self.app.push_screen(DealDialog(self.lang), chosen)

    def action_variant(self) -> None:
        self.stop_auto()

        def chosen(v: Variant | None) -> None:
            if v is None:
                return
            error = self.session.save_settings(variant=v.token)
            if error is not None:
                self.say(error_text(error, self.lang), error=True)
                return
            self.new_variant = v
            self.say(t(self.lang, "tui.msg.new_variant", variant=describe_variant(v, self.lang)))

        self.app.push_screen(VariantDialog(self.new_variant, self.lang), chosen)

    def action_import_record(self) -> None:
        """Store someone's game from a record file (the play layer checks it by replaying
        it; it is kept beside the player's games, never counted as theirs)."""
        self.stop_auto()

        def chosen(text: str | None) -> None:
            if text is None:
                return
            try:
                stored = self.session.play.import_record(self.session.player, text)
            except PlayError as e:
                self.say(error_text(e, self.lang), error=True)
                return
            self.say(t(self.lang, "tui.msg.imported", deal=stored.game.deal,
                       variant=describe_variant(stored.game.variant, self.lang), moves=len(stored.game)))

        self.app.push_screen(ImportDialog(self.lang), chosen)

    def action_reopen(self) -> None:
        """Put one of the player's unfinished games back on the table (the one there is
        left: abandoned if under way)."""
        self.stop_auto()
        games = self.session.play.games(self.session.player, "unfinished", 50)

        def chosen(game_id: str | None) -> None:
            if game_id is None:
                return
            deal = next((str(g.deal) for g in games if g.id == game_id), "?")
            self._confirm_leaving(t(self.lang, "tui.confirm.what.unfinished", deal=deal), lambda: reopen(game_id))

        def reopen(game_id: str) -> None:
            done = self.session.reopen(game_id)
            if not done.ok:
                assert done.error is not None
                self.say(error_text(done.error, self.lang), error=True)
                return
            self._shown_new_game()

        self.app.push_screen(UnfinishedDialog(games, self.session.game_id, self.lang), chosen)

    def action_help(self) -> None:
        self.stop_auto()

        def closed(_: None) -> None:
            if screen.language != self.lang:
                self.set_language(screen.language)

        screen = HelpScreen(self.lang)
        self.app.push_screen(screen, closed)

    def action_language(self) -> None:
        """Switch the terminal between Russian and English (saved: the browser follows)."""
        self.set_language(other(self.lang))

    def set_language(self, lang: str) -> None:
        """Say everything in ``lang`` from now on: footer, title, side bar, table, status."""
        self.lang = lang
        self.story = None  # told in the old language
        error = self.session.save_settings(lang=lang)
        localize(self, lang)
        self.app.title = t(lang, "tui.title.short")
        self.chance_text = describe_answer(self.chance_answer, lang)
        self._apply_size(self.app.size.width, self.app.size.height)
        self.refresh_table()
        if error is not None:
            self.say(error_text(error, lang), error=True)
        else:
            self.say(t(lang, "tui.msg.language"))

    def action_story(self) -> None:
        """Reopen the end panel, with the story of the game (only a finished game has one)."""
        self.stop_auto()
        if self.pos.status == "playing":
            self.say(t(self.lang, "tui.msg.no_story"), error=True)
            return
        self._ended_shown = (self.session.game_id, len(self.session.game))
        self._show_end()

    def action_stats(self) -> None:
        self.stop_auto()
        self.app.push_screen(StatsScreen(self.session.play, self.session.player, self.lang))

    def action_quit_game(self) -> None:
        self.stop_auto()
        self.app.exit()

    # ------------------------------------------------------------ mouse
    def on_slot_clicked(self, event: Slot.Clicked) -> None:
        place = event.place
        if place == STOCK:
            self.action_turn()
        elif place == WASTE:
            self.action_play(WASTE)
        elif place in PILES:
            self.action_step()
        else:
            self.action_play(place)

    # ------------------------------------------------------------ chance
    def _request_chance(self, refine: bool = False) -> None:
        runner = self.chance_runner
        if runner is None:
            return
        if self._refine_timer is not None and not refine:
            self._refine_timer.stop()
            self._refine_timer = None
        pos = self.pos
        if pos.status != "playing":
            if self.chance_text is not None:  # e.g. redoing the last move: no stale figure beside the end
                self.chance_text = None
                self.chance_answer = None
                if self.is_mounted:
                    self.query_one("#side", Static).update(self._side_text())
            return
        now = time.monotonic()
        if self.auto_timer is not None and now - self._chance_asked < AUTO_CHANCE_INTERVAL_S:
            return  # autoplay: a fresh figure now and then is enough, and keeps the CPU for play
        self._chance_asked = now

        def start(fn: Callable[[], None]) -> None:
            self.run_worker(fn, thread=True, group="chance", exit_on_error=False)

        runner.request(pos, start, refine=refine)

    def _chance_done_threadsafe(self, pos: Position, answer: Answer) -> None:
        with contextlib.suppress(RuntimeError):  # the app is shutting down
            self.app.call_from_thread(self._chance_done, pos, answer)

    def _chance_done(self, pos: Position, answer: Answer) -> None:
        if pos is not self.pos:
            return  # a newer position is on the table; its estimate is on the way
        self.chance_answer = answer
        self.chance_text = describe_answer(answer, self.lang)
        if self.is_mounted:
            self.query_one("#side", Static).update(self._side_text())
        if refinable(answer) and self._refine_timer is None:
            # The player is thinking: pool more samples of this position meanwhile.
            self._refine_timer = self.set_timer(REFINE_DELAY_S, lambda: self._refine(pos))

    def _refine(self, pos: Position) -> None:
        self._refine_timer = None
        if pos is not self.pos or self.auto_timer is not None:
            return  # the position moved on (its own figure is asked for) or autoplay runs
        self._request_chance(refine=True)


def _step_text(move: Move, movements: tuple[Movement, ...], lang: str = "en") -> str:
    """One line of the move log: ``R3 7♥→P1 2♣→R3``."""
    if move.kind == "redeal":
        return t(lang, "tui.log.redeal", n=len(movements))
    moved = " ".join(f"{C.pretty(m.card, lang)}→{_place(m.target, lang)}" for m in movements)
    return f"{_move_name(move, lang)} {moved}"


def _move_name(move: Move, lang: str = "en") -> str:
    """A move as the table names it: its place (``R3``, ``F8``), or ``turn``,
    ``redeal`` and ``waste`` in words."""
    if move.kind == "turn":
        return t(lang, "tui.move.turn")
    if move.kind == "redeal":
        return t(lang, "tui.move.redeal")
    if move.kind == "play" and move.source in (WASTE, "W"):
        return t(lang, "tui.move.waste")
    return str(move)


class FirstLastApp(App[None]):
    """``FirstLastApp(store, deal=None, variant=None, resume=False)``: see ``Session.open``
    for which game goes on the table. ``variant=None``: new games use the player's
    variant setting (shared with the browser game; the ``v`` key changes it)."""

    TITLE = t("en", "tui.title.short")
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, store: GameStore, deal: int | None = None, variant: Variant | None = None,
                 resume: bool = False, chance: bool = True, estimator: Estimator | None = None) -> None:
        super().__init__()
        self.store = store
        self.session = Session.open(store, deal, variant, resume)
        self.new_variant = variant
        self.chance = chance and self.session.settings().show_chance
        self.estimator = estimator

    def on_mount(self) -> None:
        self.title = t(lang_of(self.session.settings().lang), "tui.title.short")
        self.push_screen(GameScreen(self.session, self.new_variant, self.chance, self.estimator))

    @property
    def game_screen(self) -> GameScreen:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("the game screen is not open")
