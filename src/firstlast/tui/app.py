"""The Textual app: First and Last in the terminal.

The screen draws the position and sends the player's actions to the play layer
(``firstlast.play``, through ``Session``), which decides and commits them — the same
code the browser game calls, so both faces play one game the same way. Refusals come
back as coded errors whose sentence goes to the status line.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from ..engine import Move, Movement, Position, Variant
from ..play import PlayError, StartKind
from ..play.service import ActionName
from ..play.table import controls
from ..store import GameStore
from . import cards as C
from .chance import ChanceRunner, Estimate, Estimator, format_estimate
from .dialogs import DealDialog, EndDialog, HelpScreen, ImportDialog, StatsScreen, UnfinishedDialog, VariantDialog
from .session import Done, Session
from .table import FIRST, PILES, RESERVE, Slot, WasteFan, paint_slot

SIDE_WIDTH: Final = 30
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


def describe_movements(move: Move, movements: tuple[Movement, ...], pos: Position) -> str:
    """What a move did, in words: ``R3 7♥→P1 · 2♣ waste→R3``."""
    if move.kind == "redeal":
        return f"redeal: {len(movements)} cards of the waste shuffled into the stock — pass {pos.passes}"
    parts = [f"{C.pretty(m.card)} {m.source}→{m.target}" for m in movements]
    prefix = "turn" if move.kind == "turn" else str(move)
    return f"{prefix}: " + " · ".join(parts)


class GameScreen(Screen[None]):
    """The table, the side bar and the status line. Game keys live here rather than on
    the app so that dialogs and the help screen on top of it do not trigger them."""

    DEFAULT_CSS = """
    GameScreen { background: #0b4d22; layout: vertical; }
    #title { height: 1; background: #08361a; color: #e8f3ea; padding: 0 1; }
    #body { height: 1fr; }
    #table { width: auto; height: auto; padding: 0 0 0 1; background: #0b4d22; }
    .row { height: auto; width: auto; margin-bottom: 0; }
    #row-stock { width: 100%; }
    #side { width: 1fr; min-width: 28; height: 1fr; background: #0e3b1d; color: #e8f3ea; padding: 0 1; }
    #status { height: 1; background: #08361a; color: #e8f3ea; padding: 0 1; }
    #too-small { height: 1fr; content-align: center middle; color: #ffd24a; text-style: bold; }
    #status.error { color: #ff8a8a; text-style: bold; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t,space", "turn", "Turn"),
        *[Binding(str(i), f"play('R{i}')", f"R{i}", show=False) for i in range(1, 9)],
        Binding("p", "play('F8')", "Privileged", show=False),
        Binding("b", "base", "Base", show=False),
        Binding("w", "play('W')", "Waste", show=False),
        Binding("d", "redeal", "Redeal", show=False),
        Binding("s", "step", "Step"),
        Binding("f", "advance", "Advance", show=False),
        Binding("a", "auto", "Auto"),
        Binding("escape", "pause", "Pause", show=False),
        Binding("plus,equals_sign", "speed(1)", "Faster", show=False),
        Binding("minus,underscore", "speed(-1)", "Slower", show=False),
        Binding("u,ctrl+z", "undo", "Undo"),
        Binding("r,ctrl+y", "redo", "Redo", show=False),
        Binding("ctrl+r", "restart", "Restart", show=False),
        Binding("n", "new_random", "New"),
        Binding("g", "new_by_number", "Deal #", show=False),
        Binding("v", "variant", "Variant", show=False),
        Binding("o", "import_record", "Import", show=False),
        Binding("l", "reopen", "Unfinished", show=False),
        Binding("i", "stats", "Stats"),
        Binding("h,question_mark", "help", "Help"),
        Binding("q", "quit_game", "Quit"),
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
        self.help_language: str = settings.lang or "en"
        self._chance_asked = 0.0

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="too-small")
        with Horizontal(id="body"):
            with Vertical(id="table"):
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
                    yield Slot("stock")
                    yield Slot("waste")
                    yield WasteFan()
            yield Static(id="side")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self._apply_size(self.app.size.width, self.app.size.height)
        self.refresh_table()
        self._request_chance()
        self._maybe_end()
        self.set_interval(WATCH_INTERVAL_S, self._watch_store)

    def _watch_store(self) -> None:
        """Show moves made on this game elsewhere (the browser, another terminal)."""
        if self.auto_timer is not None or self.app.screen is not self:
            return
        if self.session.follow():
            self._ended_shown = None
            self.say("this game was changed elsewhere: showing the saved game")
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
        notice.update(f"The terminal is too small for the table: {width}×{height}, "
                      f"it needs at least {MIN_SIZE[0]}×{MIN_SIZE[1]}. Enlarge the window (q quits).")
        size = C.choose_size(width, height, SIDE_WIDTH)
        self.size_now = size
        for slot in self.query(Slot):
            wide = slot.place in ("stock", "waste")
            slot.styles.width = max(size.width, 9) if wide else size.width
            slot.styles.height = size.height + 1
        self.query_one(WasteFan).styles.height = size.height + 1

    # ------------------------------------------------------------ painting
    @property
    def pos(self) -> Position:
        return self.session.game.position

    def refresh_table(self) -> None:
        game = self.session.game
        pos = game.position
        legal = pos.legal_moves()
        for slot in self.query(Slot):
            label, lines = paint_slot(slot.place, pos, self.size_now, legal)
            slot.show(label, lines)
        self.query_one(WasteFan).show(pos.waste)
        wide = self.app.size.width >= 100
        title = Text(" First and Last · Первые и последние" if wide else " First and Last", style="bold")
        title.append(f"   deal {game.deal}", style="bold #ffd24a")
        title.append(f" · {game.variant.describe()}", style="#b8d8c0")
        self.query_one("#title", Static).update(title)
        self.query_one("#side", Static).update(self._side_text())

    def _side_text(self) -> Text:
        game = self.session.game
        pos = game.position
        key = "#9fc7a8"
        t = Text()
        status = pos.status
        if status == "won":
            t.append("★ WON — пасьянс вышел ★\n", style="bold #ffd24a")
        elif status == "lost":
            t.append("LOST — no move left\n", style="bold #ff8a8a")
        k = pos.active
        if k is not None and pos.need is not None:
            t.append("Active  ", style=key)
            t.append(f"P{k + 1}", style=f"bold {C.ACTIVE}")
            t.append(" under ")
            t.append_text(C.pretty_text(pos.first[k]))
            t.append("\nNeeds   ", style=key)
            t.append(C.RANK_LABELS[pos.need - 1], style=f"bold {C.ACTIVE}")
            t.append(f"   {len(pos.piles[k])}/13 on P{k + 1}\n")
        priv = pos.privileged
        t.append("Privil. ", style=key)
        if priv is not None:
            t.append_text(C.pretty_text(priv))
            t.append(" at F8 ★\n", style=C.PRIVILEGED)
        elif not pos.variant.privileged_last:
            t.append("none (V3)\n", style="dim")
        else:
            t.append("none: P8 has begun\n", style="dim")
        redeals = pos.variant.redeals
        total = "∞" if redeals is None else str(redeals + 1)
        left = pos.redeals_left
        t.append("Pass    ", style=key)
        t.append(f"{pos.passes} of {total}\n", style="bold")
        t.append("Redeals ", style=key)
        t.append(f"{'∞' if left is None else left} left\n")
        t.append("Stock   ", style=key)
        t.append(f"{len(pos.stock)} · waste {len(pos.waste)}\n")
        t.append("Score   ", style=key)
        t.append(f"{pos.score}/104", style="bold")
        t.append(f" · moves {len(game)}\n")
        if self.chance_text:
            t.append(self.chance_text + "\n", style="bold #8fd3ff")
        speed = SPEEDS[self.speed]
        t.append("Auto    ", style=key)
        t.append("▶ on" if self.auto_timer else "off", style=f"bold {C.PLAYABLE}" if self.auto_timer else "")
        t.append(f" · {speed}/s (+/-)\n")
        legal = pos.legal_moves()
        if legal:
            t.append("Next    ", style=key)
            t.append(", ".join(_move_name(m) for m in legal) + "\n")
        t.append("\nt/space turn  1–8 reserve\np privil.  b base  s step\n"
                 "f advance  a auto  u undo  r redo\nn new  g deal#  l unfinished\n"
                 "v variant  o import  i stats\nh help  q quit",
                 style="#8fb79a")
        # Tall terminals: the rest of the side bar lists the latest moves.
        side = self.query_one("#side", Static)
        room = side.size.height - len(t.plain.splitlines()) - 2
        if room >= 3 and len(game):
            t.append("\n\nLatest moves\n", style=key)
            steps = game.steps[-room + 1:]
            first = len(game) - len(steps) + 1
            width = max(10, side.size.width - 2)
            lines = [f"{first + i:4}. {_step_text(step.move, step.movements)}"[:width] for i, step in enumerate(steps)]
            t.append("\n".join(reversed(lines)), style="#b8d8c0")
        return t

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
            self.say(done.message, error=True)
            if done.error.kind in ("conflict", "not_found"):
                self._ended_shown = None
                self.refresh_table()
                self._request_chance()
            return done
        if done.new_game:
            self._shown_new_game()
        else:
            self._after_change(self._describe(action, done))
        return done

    def _describe(self, action: ActionName, done: Done) -> str:
        if not done.steps:
            return "nothing to do"
        if action == "undo":
            return f"undid {_move_name(done.steps[0].move)}"
        if action == "redo":
            return f"redid {_move_name(done.steps[0].move)}"
        if action == "restart":
            return f"restarted deal {self.session.game.deal} — r redoes the moves"
        last = done.steps[-1]
        text = describe_movements(last.move, last.movements, self.pos)
        return text if len(done.steps) == 1 else f"{len(done.steps)} moves · {text}"

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
        dialog = EndDialog(pos.status == "won", game.deal, game.variant, pos.score, pos.passes, len(game))
        self.app.push_screen(dialog, self._end_chosen)

    def _end_chosen(self, choice: str | None) -> None:
        if choice == "undo":
            self.action_undo()
        elif choice == "quit":
            self.action_quit_game()
        elif choice == "again":
            self._start("again")
        elif choice == "next":
            self._start("next")
        elif choice == "random":
            self._start("random", variant=self.new_variant)

    def _start(self, how: StartKind, deal: object = None, variant: Variant | None = None) -> None:
        """A new game on the table (the play layer leaves the one there: abandoned if
        it was under way, docs/play.md)."""
        self.stop_auto()
        done = self.session.start(how, deal, variant)
        if not done.ok:
            self.say(done.message, error=True)
            return
        self._shown_new_game()

    def _shown_new_game(self) -> None:
        game = self.session.game
        self.chance_text = None
        self._ended_shown = None
        self.say(f"new game: deal {game.deal} ({game.variant.describe()})")
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
            self.say("the game is over: no move left (R11)", error=True)
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
            self.say("autoplay paused")
            self.refresh_table()
            self._request_chance()
            return
        if self.pos.status != "playing":
            self.say("the game is over: nothing to autoplay (R11)", error=True)
            return
        self._start_timer()
        self.say(f"autoplay at {SPEEDS[self.speed]} moves/s — a or escape pauses")
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
            self.say("autoplay paused")
            self.refresh_table()
            self._request_chance()

    def action_speed(self, delta: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        if self.auto_timer is not None:
            self.stop_auto()
            self._start_timer()
        self.say(f"autoplay speed {SPEEDS[self.speed]} moves/s")
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
        self._start("random", variant=self.new_variant)

    def action_new_by_number(self) -> None:
        self.stop_auto()

        def chosen(n: int | None) -> None:
            if n is not None:
                self._start("number", n, self.new_variant)

        self.app.push_screen(DealDialog(), chosen)

    def action_variant(self) -> None:
        self.stop_auto()

        def chosen(v: Variant | None) -> None:
            if v is None:
                return
            error = self.session.save_settings(variant=v.token)
            if error is not None:
                self.say(error.message, error=True)
                return
            self.new_variant = v
            self.say(f"new games: {v.describe()} — n starts one, g picks a deal")

        self.app.push_screen(VariantDialog(self.new_variant), chosen)

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
                self.say(e.message, error=True)
                return
            self.say(f"imported deal {stored.game.deal} ({stored.game.variant.describe()}, {len(stored.game)} moves):"
                     " kept with your games, not counted in your statistics")

        self.app.push_screen(ImportDialog(), chosen)

    def action_reopen(self) -> None:
        """Put one of the player's unfinished games back on the table (the one there is
        left: abandoned if under way)."""
        self.stop_auto()
        games = self.session.play.games(self.session.player, "unfinished", 50)

        def chosen(game_id: str | None) -> None:
            if game_id is None:
                return
            done = self.session.reopen(game_id)
            if not done.ok:
                self.say(done.message, error=True)
                return
            self._shown_new_game()

        self.app.push_screen(UnfinishedDialog(games, self.session.game_id), chosen)

    def action_help(self) -> None:
        self.stop_auto()

        def closed(_: None) -> None:
            self.help_language = screen.language

        screen = HelpScreen(self.help_language)
        self.app.push_screen(screen, closed)

    def action_stats(self) -> None:
        self.stop_auto()
        self.app.push_screen(StatsScreen(self.session.play, self.session.player))

    def action_quit_game(self) -> None:
        self.stop_auto()
        self.app.exit()

    # ------------------------------------------------------------ mouse
    def on_slot_clicked(self, event: Slot.Clicked) -> None:
        place = event.place
        if place == "stock":
            self.action_turn()
        elif place == "waste":
            self.action_play("W")
        elif place.startswith("P"):
            self.action_step()
        else:
            self.action_play(place)

    # ------------------------------------------------------------ chance
    def _request_chance(self) -> None:
        runner = self.chance_runner
        if runner is None:
            return
        pos = self.pos
        if pos.status != "playing":
            if self.chance_text is not None:  # e.g. redoing the last move: no stale figure beside the end
                self.chance_text = None
                if self.is_mounted:
                    self.query_one("#side", Static).update(self._side_text())
            return
        now = time.monotonic()
        if self.auto_timer is not None and now - self._chance_asked < AUTO_CHANCE_INTERVAL_S:
            return  # autoplay: a fresh figure now and then is enough, and keeps the CPU for play
        self._chance_asked = now

        def start(fn: Callable[[], None]) -> None:
            self.run_worker(fn, thread=True, group="chance", exit_on_error=False)

        runner.request(pos, start)

    def _chance_done_threadsafe(self, pos: Position, est: Estimate | None) -> None:
        with contextlib.suppress(RuntimeError):  # the app is shutting down
            self.app.call_from_thread(self._chance_done, pos, est)

    def _chance_done(self, pos: Position, est: Estimate | None) -> None:
        if pos is not self.pos:
            return  # a newer position is on the table; its estimate is on the way
        self.chance_text = None if est is None else format_estimate(est)
        if self.is_mounted:
            self.query_one("#side", Static).update(self._side_text())


def _step_text(move: Move, movements: tuple[Movement, ...]) -> str:
    """One line of the move log: ``R3 7♥→P1 2♣→R3``."""
    if move.kind == "redeal":
        return f"redeal ({len(movements)} cards)"
    moved = " ".join(f"{C.pretty(m.card)}→{m.target}" for m in movements)
    return f"{_move_name(move)} {moved}"


def _move_name(move: Move) -> str:
    if move.kind == "play":
        return {"W": "waste"}.get(str(move), str(move))
    return str(move)


class FirstLastApp(App[None]):
    """``FirstLastApp(store, deal=None, variant=None, resume=False)``: see ``Session.open``
    for which game goes on the table. ``variant=None``: new games use the player's
    variant setting (shared with the browser game; the ``v`` key changes it)."""

    TITLE = "First and Last"
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
        self.push_screen(GameScreen(self.session, self.new_variant, self.chance, self.estimator))

    @property
    def game_screen(self) -> GameScreen:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("the game screen is not open")
