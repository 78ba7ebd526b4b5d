"""The Textual app: First and Last in the terminal. The screen draws the position and
sends the player's actions to the play layer (through ``Session``), which decides and
commits them; its other jobs have rooms of their own (README, "Where things live").
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable
from typing import ClassVar, Final, TypeVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from ..engine import Card, Position, Variant
from ..engine.places import PILES, STOCK
from ..i18n import DEFAULT_LANG, LANGS, announce, describe_variant, other_lang, plural, record_text, t
from ..i18n.table import hint_text, table_summary
from ..play import ActionName, ActionResult, GameStore, PlayError, StartKind, StoredGame
from ..play.chance import Estimator, story_book
from ..play.view import TableView as TableViewModel
from ..play.view import table_view
from . import cards as C
from .autoplay import PACE_SPEED, SPEEDS, moves_per_tick, tick_interval
from .calendar import CalendarScreen
from .chance import Answer, ChanceClock
from .dialogs import (
    ConfirmDialog,
    DealDialog,
    EndDialog,
    HelpScreen,
    ImportDialog,
    SettingsDialog,
    StatsScreen,
    UnfinishedDialog,
    VariantDialog,
    WishDialog,
    WordsDialog,
)
from .keys import TABLE_KEYS, KeyBar, table_bindings
from .replay import ReplayScreen
from .session import Session
from .table import Slot
from .widgets import FeltScreen, SideBar, StatusLine, TableView, TitleBar, move_name, step_text

SIDE_WIDTH: Final = 30
#: The side bar grows up to this width when the terminal has room to spare.
SIDE_MAX_WIDTH: Final = 40
#: The smallest terminal the table fits in, columns × lines.
MIN_SIZE: Final = (80, 24)
#: How often the store's change counter is looked at for moves made in another window.
WATCH_INTERVAL_S: Final = 2.0

#: The actions autoplay goes on through; any other stops it first.
KEEP_AUTO: Final = frozenset({"tick", "auto", "pause", "speed", "hint"})

T = TypeVar("T")


def starting_lang(asked: str | None, setting: str | None, system: str = DEFAULT_LANG) -> str:
    """The first catalog language of: asked for on this start (``--lang``,
    ``FIRSTLAST_LANG``), the saved setting, the terminal's locale; else English."""
    return next((lang for lang in (asked, setting, system) if lang in LANGS), DEFAULT_LANG)


class GameScreen(FeltScreen):
    """The table, the side bar, the status line and the key bar. Game keys live here
    rather than on the app so that dialogs and the help screen on top of it do not
    trigger them."""

    BINDINGS: ClassVar[list[BindingType]] = list(table_bindings())

    #: The language everything on the terminal is said in (the shared setting; L switches
    #: it, and the choice is saved for the browser too).
    lang: reactive[str] = reactive("en")
    #: The state below is drawn by the parts bound to it (``data_bind``) and by ``_paint``,
    #: the changed places only, not by the screen (``repaint=False``: that redrew the whole
    #: terminal at each key, twice, issue 25.7). ``version`` goes up whenever the game on
    #: the table changes (a move, another game).
    version: reactive[int] = reactive(0, repaint=False)
    message: reactive[str] = reactive("", repaint=False)
    error: reactive[bool] = reactive(False, repaint=False)
    chance_answer: reactive[Answer] = reactive(None, repaint=False)
    auto: reactive[bool] = reactive(False, repaint=False)
    speed: reactive[int] = reactive(0, repaint=False)  # from the player's pace setting (PACE_SPEED)

    def __init__(self, session: Session, new_variant: Variant | None = None, chance: bool = True,
                 estimator: Estimator | None = None, lang: str = DEFAULT_LANG) -> None:
        super().__init__()
        self.session = session
        settings = session.settings()
        # The variant for new games: asked for on the command line, else the shared setting.
        self.new_variant = new_variant or settings.variant
        self.size_now = C.SMALL
        self.set_reactive(GameScreen.speed, PACE_SPEED[settings.speed])
        self.set_reactive(GameScreen.lang, lang)
        C.set_look(settings.felt, settings.four_colour, settings.show_playable)
        #: The hint's card, framed once asked for when the marks are off (issue 26).
        self.hinted: str | None = None
        self._ended_shown: tuple[str, int] | None = None
        #: Writes go one at a time, in the order asked (keys, autoplay's ticks), each on a
        #: thread (``write``), so that a commit's fsync never holds up the screen.
        self._writing = asyncio.Lock()
        #: Autoplay's clock while it runs (``auto``), and whether its tick waits in the queue.
        self._ticker: Timer | None = None
        self._tick_waiting = False
        self.chance = ChanceClock(self, estimator, available=chance)
        #: The stories told (the play layer's one cache of them).
        self.stories = story_book()
        #: The cards the last action moved (marked on the table until the next one).
        self.moved: frozenset[Card] = frozenset()
        self._view: tuple[StoredGame, TableViewModel] | None = None

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield TitleBar(lambda: self.session.game, id="title").data_bind(GameScreen.lang, GameScreen.version)
        yield Static(id="too-small")
        with Horizontal(id="body"):
            with Vertical(id="table-area"):
                yield TableView(id="table")
            yield SideBar(lambda: self.view, lambda: self.session.game, id="side").data_bind(
                GameScreen.lang, GameScreen.version, GameScreen.chance_answer, GameScreen.auto, GameScreen.speed)
        yield StatusLine(id="status").data_bind(GameScreen.message, GameScreen.error)
        yield KeyBar(TABLE_KEYS, id="keys").data_bind(GameScreen.lang)

    def _follow_looks(self) -> None:
        """Draw with the looks as now saved (chosen here or in the browser)."""
        s = self.session.settings()
        if (s.felt, s.four_colour, s.show_playable) != (C.LOOK.felt, C.LOOK.four_colour, C.LOOK.marks):
            C.set_look(s.felt, s.four_colour, s.show_playable)
            self.show_felt()
            self.version += 1

    async def on_mount(self) -> None:
        self.show_felt()
        self._apply_size(self.app.size.width, self.app.size.height)
        self._shown()
        self.set_interval(WATCH_INTERVAL_S, self._watch_store)
        if self.session.play.store.read_only:  # every write will be refused: say so from the start
            self.say(t(self.lang, "tui.msg.read_only"), error=True)
        pending = self.session.pending
        if pending is not None:
            # ``firstlast tui N`` with a game under way on the table: ask first.
            self.session.pending = None
            await self._confirm_leaving(t(self.lang, "tui.confirm.what.deal", deal=pending.deal),
                                        lambda: self._start("number", pending.deal, pending.variant),
                                        t(self.lang, "tui.msg.kept_pending", deal=self.session.game.deal,
                                          pending=pending.deal))

    def watch_version(self) -> None:
        self.hinted = None  # the hint framed was the last position's
        self._paint()

    def watch_lang(self) -> None:
        if self.is_mounted:
            self._apply_size(self.app.size.width, self.app.size.height)

    async def _watch_store(self) -> None:
        """Show moves made on this game elsewhere (the browser, another terminal), and the
        looks chosen there."""
        if self.auto or self.app.screen is not self or self._writing.locked():
            return
        if not self.session.store_changed():  # the store's change counter: nothing read else
            return
        self._follow_looks()
        if self.session.follow():
            self._shown(t(self.lang, "tui.msg.changed"), other=True)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_size(event.size.width, event.size.height)

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
        # The side bar takes what the table leaves, within bounds.
        drawn = 8 * (size.width + 1) + 1  # the eight columns and the table's left padding
        side = max(SIDE_WIDTH - 2, min(SIDE_MAX_WIDTH, width - drawn))
        self.query_one(SideBar).styles.width = side
        self.query_one(TableView).lay_out(size, self.lang)
        self._paint()

    # ------------------------------------------------------------ painting
    @property
    def pos(self) -> Position:
        return self.session.game.position

    @property
    def view(self) -> TableViewModel:
        """The play layer's view of the table, made once per stored game for the table
        and the side bar (the play layer changes only a copy of a game it answered)."""
        stored = self.session.stored
        if self._view is None or self._view[0] is not stored:
            self._view = (stored, table_view(stored.game, stored=stored))
        return self._view[1]

    def _paint(self) -> None:
        if self.is_mounted:
            marked = None if C.LOOK.marks else frozenset({self.hinted} if self.hinted else ())
            self.query_one(TableView).show(self.view, self.size_now, self.moved, self.lang, marked)

    def say(self, message: str, error: bool = False) -> None:
        self.message = message
        self.error = error

    async def write(self, call: Callable[[], T]) -> T:
        """``call`` (a write: a commit, with its fsync) on a thread, after the writes
        asked before it; its own error (the play layer's refusal) is raised as it is."""
        async with self._writing:
            return await asyncio.to_thread(call)

    async def _write(self, call: Callable[[], T]) -> T | None:
        """``write``; refused, the play layer's reason is said and the answer is ``None``."""
        try:
            return await self.write(call)
        except PlayError as e:
            self.say(e.text(self.lang), error=True)
            return None

    # ------------------------------------------------------------ the action queue
    def action_queue(self, action: str, *args: object) -> None:
        """An action asked for (by a key, by autoplay's clock): done in the screen's own
        message queue (``call_later``), so actions run one at a time, in order, each
        seeing the table as the one before left it."""
        self.call_later(self._do, action, *args)

    def _do(self, action: str, *args: object) -> object:
        if action not in KEEP_AUTO:
            self.stop_auto()  # any other key takes the game back from autoplay
        return getattr(self, f"action_{action}")(*args)  # call_later awaits it if a coroutine

    # ------------------------------------------------------------ making moves
    async def action_act(self, action: ActionName, argument: str | int | None = None) -> ActionResult | None:
        """Ask the play layer for ``action``; show what it did, or why it refused."""
        try:
            done = await self.write(lambda: self.session.act(action, argument))
        except PlayError as e:
            self.stop_auto()
            if e.kind == "illegal":
                self.app.bell()
            self.say(e.text(self.lang), error=True)
            if e.kind in ("conflict", "not_found"):
                self._shown(other=True)  # what is saved now (``Session.act`` followed it)
            return None
        self.moved = frozenset(m.card for m in done.movements)
        if done.new_game:
            self._shown_new_game()
        else:
            self._shown(self._describe(action, done))
        return done

    def _describe(self, action: ActionName, done: ActionResult) -> str:
        """The status line after an action: what it did in short, then in words, as a
        screen reader would say them."""
        lang = self.lang
        if not done.steps:
            return t(lang, "tui.msg.nothing")
        if action in ("undo", "redo"):
            text = t(lang, "tui.msg.undid" if action == "undo" else "tui.msg.redid",
                     move=move_name(done.steps[0].move, lang))
            return f"{text} — {announce(done.movements, lang, undo=action == 'undo')}"
        if action == "restart":
            return t(lang, "tui.msg.restarted", deal=self.session.game.deal)
        last = done.steps[-1]
        if len(done.steps) > 1:  # autoplay, advance: the last move in short is enough
            return t(lang, "tui.msg.moves_made", n=len(done.steps), text=step_text(last.move, last.movements, lang))
        return announce(last.movements, lang)  # the status line cuts it to its width

    def _shown(self, message: str | None = None, other: bool = False) -> None:
        """The table changed: say ``message`` (``None``: the status line stays), redraw,
        ask for the chance, and show the end panel of a game that ended. ``other``:
        another game, or moves made elsewhere: no card marked as moved, an end shown anew."""
        if other:
            self._ended_shown = None
            self.moved = frozenset()
        if message is not None:
            self.say(message)
        self.version += 1
        self.chance.request()
        if self.pos.status != "playing":
            self.stop_auto()
            ended = (self.session.game_id, len(self.session.game))
            if self._ended_shown != ended:
                self._ended_shown = ended
                self._show_end()

    def _show_end(self) -> None:
        """The end panel of the finished game on the table, with its story."""
        game, stored = self.session.game, self.session.stored
        news = [record_text(r.kind, r.value, r.previous, self.lang)
                for r in self.session.play.records(self.session.player, stored.id)] if stored.result else []
        if stored.wish is not None:
            news.append(t(self.lang, "wish.true" if game.position.status == "won" else "wish.false"))
        self.app.push_screen(EndDialog(game, self.lang, news, self.stories), self._end_chosen)

    async def _end_chosen(self, choice: str | None) -> None:
        match choice:
            case "undo":
                await self.action_undo()
            case "quit":
                self.action_quit()
            case "again" | "next" | "random":
                # Next and random under the variant of this session's new games (the command
                # line's, or the one chosen with v), as n deals: not the saved setting's.
                await self._start(choice, variant=None if choice == "again" else self.new_variant)

    async def _confirm_leaving(self, what: str, go: Callable[[], Awaitable[None]], kept: str | None = None) -> None:
        """Run ``go`` (which puts ``what`` on the table); when that would abandon the
        game under way, only once the player says yes (Enter/y; Escape/n keeps it, and
        says ``kept``)."""
        self.stop_auto()
        if not self.session.under_way():
            await go()
            return
        game = self.session.game

        async def answered(yes: bool | None) -> None:
            if yes:
                await go()
            else:
                self.say(kept or t(self.lang, "tui.msg.kept", deal=game.deal))

        self.app.push_screen(ConfirmDialog(
            t(self.lang, "tui.confirm.title", deal=game.deal, what=what),
            plural(self.lang, "tui.confirm.text", len(game)), self.lang), answered)

    async def _start(self, how: StartKind, deal: object = None, variant: Variant | None = None,
                     day: dt.date | None = None) -> None:
        """A new game on the table (the play layer leaves the one there, docs/play.md; the
        keys ask first); ``day``: a deal of the day. On a wish (the setting), asked first."""
        self.stop_auto()

        async def deal_it(wish: str | None) -> None:
            if await self._write(lambda: self.session.start(how, deal, variant, day, wish)) is not None:
                self._shown_new_game()

        if self.session.settings().wish:
            self.app.push_screen(WishDialog(self.lang), deal_it)
        else:
            await deal_it(None)

    def _shown_new_game(self, message: str | None = None) -> None:
        """A game was put on the table: a new one (said so), or ``message``."""
        game = self.session.game
        self.chance_answer = None
        self._shown(message or t(self.lang, "tui.msg.new_game", deal=game.deal,
                                 variant=describe_variant(game.variant, self.lang)), other=True)

    # ------------------------------------------------------------ actions
    async def action_turn(self) -> None:
        """The stock's move: turn, or redeal once the stock is empty (the play layer says which)."""
        await self.action_act("move", str(self.view.stock_move))

    async def action_play(self, source: str) -> None:
        await self.action_act("move", source)

    async def action_base(self) -> None:
        """Play the active pile's own base onto it (R5)."""
        base = self.view.base_move
        if base is None:
            self.say(t(self.lang, "tui.msg.over_no_move"), error=True)
            return
        await self.action_act("move", str(base))

    def action_auto(self) -> None:
        if self.auto:
            self.action_pause()
            return
        if self.pos.status != "playing":
            self.say(t(self.lang, "tui.msg.over_no_auto"), error=True)
            return
        self._start_clock()
        self.say(t(self.lang, "tui.msg.auto_on", speed=SPEEDS[self.speed]))

    def _start_clock(self) -> None:
        """Autoplay's clock at the speed chosen: a tick queues a step, one at most waiting,
        so a slow write delays autoplay and never piles steps up behind the player's keys."""
        self.stop_auto()
        self._ticker = self.set_interval(tick_interval(self.speed), self._tick)
        self.auto = True

    def _tick(self) -> None:
        if self.auto and not self._tick_waiting:
            self._tick_waiting = True
            self.action_queue("tick")

    async def action_tick(self) -> None:
        """Autoplay's clock ticked: its moves, unless paused meanwhile."""
        self._tick_waiting = False
        if not self.auto:
            return
        await self.action_act("step", moves_per_tick(self.speed))  # committed together; the end stops it

    def stop_auto(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
            # Autoplay asked for few figures: the position's own, after the action that stopped it.
            self.call_later(self.chance.request)
        self.auto = False

    def action_pause(self) -> None:
        if self.auto:
            self.stop_auto()
            self.say(t(self.lang, "tui.msg.paused"))

    def action_speed(self, delta: int | str) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + int(delta)))
        if self.auto:
            self._start_clock()
        self.say(t(self.lang, "tui.msg.speed", speed=SPEEDS[self.speed]))

    async def action_undo(self) -> None:
        if await self.action_act("undo") is not None:
            self._ended_shown = None

    def action_hint(self) -> None:
        """Say the forced line's next move in words (the page's too), and frame its card
        (with the marks off, it alone)."""
        self.say(hint_text(self.pos, self.lang, self.session.settings().verbosity))
        hint = self.view.hint
        self.hinted = hint.source if hint is not None and hint.kind == "play" else None
        self._paint()

    def action_summary(self) -> None:
        """The whole table in words; 1–8 and w then read a pile or the waste."""
        text = table_summary(self.pos, self.lang, self.session.settings().verbosity)
        self.say(text)
        self.app.push_screen(WordsDialog(self.pos, self.lang, text), self._reviewed)

    def action_review(self) -> None:
        """A pile's cards in order, or the waste's top down: asks which, 1–8 or w."""
        self.app.push_screen(WordsDialog(self.pos, self.lang, None), self._reviewed)

    def _reviewed(self, text: str | None) -> None:
        if text:
            self.say(text)

    async def action_new(self) -> None:
        await self._confirm_leaving(t(self.lang, "tui.confirm.what.new"),
                                    lambda: self._start("random", variant=self.new_variant))

    def action_deal(self) -> None:

        async def chosen(n: int | None) -> None:
            if n is not None:
                await self._confirm_leaving(t(self.lang, "tui.confirm.what.deal", deal=n),
                                            lambda: self._start("number", n, self.new_variant))

        self.app.push_screen(DealDialog(self.lang), chosen)

    def action_settings(self) -> None:
        """The settings the terminal honours: saved for every face, then drawn at once."""

        async def chosen(changes: dict[str, object] | None) -> None:
            if changes and await self._write(lambda: self.session.save_settings(**changes)) is not None:
                self._follow_looks()
                self.say(t(self.lang, "tui.msg.settings_saved"))

        self.app.push_screen(SettingsDialog(self.session.settings(), self.lang), chosen)

    def action_variant(self) -> None:

        async def chosen(v: Variant | None) -> None:
            if v is not None and await self._write(lambda: self.session.save_settings(variant=v.token)) is not None:
                self.new_variant = v
                self.say(t(self.lang, "tui.msg.new_variant", variant=describe_variant(v, self.lang)))

        self.app.push_screen(VariantDialog(self.new_variant, self.lang), chosen)

    def action_import(self) -> None:
        """Store someone's game from a record file (kept once); ``l`` lists it to watch."""

        async def chosen(text: str | None) -> None:
            got = None if text is None else await self._write(
                lambda: self.session.play.import_record(self.session.player, text))
            if got is None:
                return
            stored, new = got
            key = "tui.msg.imported" if new else "tui.msg.imported_again"
            self.say(t(self.lang, key, deal=stored.game.deal,
                       variant=describe_variant(stored.game.variant, self.lang), moves=len(stored.game)))

        self.app.push_screen(ImportDialog(self.lang), chosen)

    def action_unfinished(self) -> None:
        """Put one of the player's unfinished games back on the table (the one there is
        left: abandoned if under way), or watch an imported game."""
        games = self.session.play.games(self.session.player, "unfinished", 50)
        imported = [g for g in self.session.play.games(self.session.player, None, 200) if g.origin == "imported"]

        async def chosen(game_id: str | None) -> None:
            if game_id is None:
                return
            if any(g.id == game_id for g in imported):  # watched move by move: nothing is written
                stored = self.session.play.game(self.session.player, game_id)
                self.app.push_screen(ReplayScreen(stored.game, self.lang))
                return
            deal = next((str(g.deal) for g in games if g.id == game_id), "?")
            await self._confirm_leaving(t(self.lang, "tui.confirm.what.unfinished", deal=deal),
                                        lambda: reopen(game_id))

        async def reopen(game_id: str) -> None:
            if await self._write(lambda: self.session.reopen(game_id)) is None:
                return
            game = self.session.game
            self._shown_new_game(t(self.lang, "tui.msg.reopened", deal=game.deal,
                                   variant=describe_variant(game.variant, self.lang), moves=len(game)))

        self.app.push_screen(UnfinishedDialog(games, self.session.game_id, self.lang, imported), chosen)

    def action_help(self) -> None:

        def closed(_: None) -> None:
            if screen.language != self.lang:
                self.app.call_later(self.set_language, screen.language)

        screen = HelpScreen(self.lang)
        self.app.push_screen(screen, closed)

    async def action_language(self) -> None:
        """Switch the terminal between Russian and English (saved: the browser follows)."""
        await self.set_language(other_lang(self.lang))

    async def set_language(self, lang: str) -> None:
        """Say everything in ``lang`` from now on: key bar, title, side bar, table, status."""
        self.lang = lang
        self.app.title = t(lang, "title")
        if await self._write(lambda: self.session.save_settings(lang=lang)) is not None:
            self.say(t(lang, "tui.msg.language"))

    def action_story(self) -> None:
        """Reopen the end panel, with the story of the game (only a finished game has one)."""
        if self.pos.status == "playing":
            self.say(t(self.lang, "tui.msg.no_story"), error=True)
            return
        self._ended_shown = (self.session.game_id, len(self.session.game))
        self._show_end()

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen(self.session.play, self.session.player, self.lang))

    def action_calendar(self) -> None:
        """The calendar of deals of the day; Enter on a day plays its deal (asking first)."""

        async def chosen(day: dt.date | None) -> None:
            if day is not None:
                await self._confirm_leaving(t(self.lang, "tui.confirm.what.deal", deal=f"{day:%Y%m%d}"),
                                            lambda: self._start("daily", day=day))

        self.app.push_screen(CalendarScreen(self.session.play, self.session.player, self.lang), chosen)

    def action_quit(self) -> None:
        self.app.exit()

    # ------------------------------------------------------------ mouse
    async def on_slot_clicked(self, event: Slot.Clicked) -> None:
        self.stop_auto()
        place = event.place
        if place == STOCK:
            await self.action_turn()
        elif place in PILES:
            await self.action_act("step")
        else:
            await self.action_act("move", place)


class FirstLastApp(App[None]):
    """``Session.open`` decides which game goes on the table; ``variant=None``: new games
    use the player's variant setting."""

    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "firstlast.tcss"

    def __init__(self, store: GameStore, deal: int | None = None, variant: Variant | None = None,
                 resume: bool = False, chance: bool = True, estimator: Estimator | None = None,
                 lang: str | None = None, system_lang: str = "en") -> None:
        super().__init__()
        self.session = Session.open(store, deal, variant, resume, lang)
        settings = self.session.settings()
        self.chance = chance and settings.show_chance
        #: ``lang`` is not saved: the L key saves.
        self.lang = starting_lang(lang, settings.lang, system_lang)
        self.title = t(self.lang, "title")
        self.game_screen = GameScreen(self.session, variant, self.chance, estimator, self.lang)

    def get_default_screen(self) -> GameScreen:
        return self.game_screen
