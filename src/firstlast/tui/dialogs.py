"""Dialogs and secondary screens: deal number, variant, settings, leaving a game, game
over, help, statistics, the table in words. Each has its own key bar (``keys.KeyBar``), so the keys
shown are always the keys that work there."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final, Generic, TypeVar

from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, OptionList, RadioButton, RadioSet, Static, Switch
from textual.widgets.button import ButtonVariant
from textual.widgets.option_list import Option

from ..engine import Game, Position, Variant
from ..engine.cards import DECK_SIZE
from ..engine.places import WASTE
from ..i18n import book_text, describe_variant, file_error_text, number, other_lang, plural, t
from ..i18n.table import review_words
from ..play import MAX_REDEALS, GameSummary, PlayError, PlayService, Stats, parse_deal, parse_variant
from ..play.actions import help_markdown
from ..play.chance import StoryKey, kept_story, story_key
from ..play.fields import MAX_WISH
from ..play.kept import Kept
from ..play.settings import CHOICES, Settings, parse_redeals
from ..play.stats import SCORE_BIN
from ..recordfile import RecordFileError, read_record_file
from .keys import BarKey, KeyBar, binding

if TYPE_CHECKING:  # the story module loads the odds: its first story does, on a worker
    from ..play.story import Story

#: The story's curve is drawn this many columns wide.
STORY_WIDTH: Final = 56

T = TypeVar("T")


class Dialog(ModalScreen[T | None], Generic[T]):
    """A panel over the screen, centred, dark with light ink (firstlast.tcss), speaking
    ``lang``; Escape answers ``None`` unless a dialog binds it otherwise."""

    BINDINGS: ClassVar[list[BindingType]] = [binding("escape", "dismiss", "cancel")]

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang

    def buttons(self, *keys: str, first: ButtonVariant = "primary") -> Horizontal:
        """A row of buttons, worded by catalog key, each's id its key's last word (a
        press answers by it); the first one drawn as ``first``."""
        return Horizontal(*(Button(t(self.lang, key), variant=first if i == 0 else "default", id=key.split(".")[-1])
                            for i, key in enumerate(keys)), classes="buttons")


class ConfirmDialog(Dialog[bool]):
    """A yes/no question: Enter or y confirms, Escape or n cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("enter,y", "dismiss(True)", "tui.binding.yes"),
        binding("escape,n", "dismiss(False)", "tui.binding.no"),
    ]

    def __init__(self, question: str, detail: str = "", lang: str = "en") -> None:
        super().__init__(lang)
        self.question, self.detail = question, detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="confirm"):
            yield Label(self.question, id="confirm-question")
            if self.detail:
                yield Label(self.detail, id="confirm-detail")
            yield self.buttons("tui.confirm.yes", "tui.confirm.no", first="warning")
        yield KeyBar((BarKey("y", "tui.binding.yes"), BarKey("n", "tui.binding.no")), self.lang)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class Refused(Exception):
    """Why an ``_AskDialog``'s line was refused, in words (shown under it)."""


class _AskDialog(Dialog[T]):
    """One line asked for (a prompt, an input, a line for its error, the keys): Enter
    reads it with ``read``, whose refusal (``Refused``, the play layer's ``PlayError``)
    is shown and keeps the dialog open; Escape answers ``None``."""

    #: Its catalog keys (``tui.<words>.prompt``, ``.placeholder``, ``.keys``); its input is ``#<words>-input``.
    words: ClassVar[str]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t(self.lang, f"tui.{self.words}.prompt"))
            yield Input(placeholder=t(self.lang, f"tui.{self.words}.placeholder"), id=f"{self.words}-input")
            yield Label("", classes="error")
            yield Label(t(self.lang, f"tui.{self.words}.keys"))
        yield KeyBar((BarKey("Esc", "cancel"),), self.lang)

    def read(self, value: str) -> T:
        raise NotImplementedError

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            answer = self.read(event.value.strip())
        except (Refused, PlayError) as e:
            self.query_one(".error", Label).update(e.text(self.lang) if isinstance(e, PlayError) else str(e))
            return
        self.dismiss(answer)


class DealDialog(_AskDialog[int]):
    """Ask for a deal number."""

    words = "deal"

    def read(self, value: str) -> int:
        return parse_deal(value)


class WishDialog(_AskDialog[str]):
    """"On a wish" (the setting ``wish``): a wish before the deal, a few words or none
    (Enter: "I have made a wish"); Escape deals without one."""

    words = "wish"

    def read(self, value: str) -> str:
        if len(value) > MAX_WISH:
            raise PlayError("wish.long", max=MAX_WISH)
        return value


class ImportDialog(_AskDialog[str]):
    """Ask for a record file to import; answers its text (the play layer checks it)."""

    words = "import"

    def read(self, value: str) -> str:
        try:
            return read_record_file(Path(value).expanduser())
        except RecordFileError as e:
            # The file's own problem, from its code, in the player's language.
            reason = file_error_text(e.code, value, e.limit, self.lang, os_error=e.os_error)
            raise Refused(t(self.lang, "tui.import.error", reason=reason)) from None


class UnfinishedDialog(Dialog[str]):
    """The player's unfinished games (left for another, or on the table), to put one
    back on the table, and the imported games, to watch one. Answers its id."""

    def __init__(self, games: list[GameSummary], current: str, lang: str, imported: list[GameSummary]) -> None:
        super().__init__(lang)
        self.games = [g for g in games if g.id != current and g.origin != "imported"]
        self.imported = imported

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(classes="dialog"):
            yield Label(t(lang, "tui.unfinished.prompt"))
            if not self.games and not self.imported:
                yield Label(t(lang, "tui.unfinished.none"), id="unfinished-none")
            else:
                def item(key: str, g: GameSummary) -> str:
                    variant = describe_variant(Variant.from_token(g.variant), lang)
                    return t(lang, key, deal=g.deal, variant=variant, moves=g.moves, score=g.score)

                yield OptionList(*[
                    Option(item("tui.unfinished.item", g)
                           + (t(lang, "tui.unfinished.abandoned") if g.abandoned else ""), id=g.id)
                    for g in self.games
                ], *[Option(item("tui.unfinished.imported", g), id=g.id) for g in self.imported], id="unfinished")
        yield KeyBar((BarKey("Enter", "tui.binding.open"), BarKey("Esc", "cancel")), lang)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class Toggle(Horizontal):
    """A switch with a sentence that says its state in words (``… : on``/``off``),
    since a switch's look alone does not say which way is on."""

    def __init__(self, text: str, value: bool, switch_id: str, lang: str = "en") -> None:
        self._text, self._lang = text, lang
        super().__init__(Switch(value, id=switch_id), Label(self._words(value), id=f"{switch_id}-label"),
                         classes="toggle")

    def _words(self, on: bool) -> str:
        state = t(self._lang, "tui.toggle.on" if on else "tui.toggle.off")
        return t(self._lang, "tui.toggle", text=self._text, state=state)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        self.query_one(Label).update(self._words(event.value))


class VariantDialog(Dialog[Variant]):
    """Choose the rules variant (V1–V3) for new games. Every rule is said the way it
    reads when on (V3 is the privileged last card being *off*)."""

    def __init__(self, current: Variant, lang: str = "en") -> None:
        super().__init__(lang)
        self.current = current

    def compose(self) -> ComposeResult:
        v, lang = self.current, self.lang
        with Vertical(classes="dialog"):
            yield Label(t(lang, "tui.variant.title"))
            yield Label(t(lang, "tui.variant.redeals_range", max=MAX_REDEALS))
            yield Input(value="unlimited" if v.redeals is None else str(v.redeals), id="redeals")
            yield Toggle(t(lang, "tui.variant.waste_toggle"), v.waste_playable, "waste", lang)
            yield Toggle(t(lang, "tui.variant.privileged_toggle"), v.privileged_last, "privileged", lang)
            yield Label("", id="variant-error", classes="error")
            yield self.buttons("tui.button.ok", "tui.button.canonical", "cancel")
        yield KeyBar((BarKey("Enter", "tui.button.ok"), BarKey("Esc", "cancel")), lang)

    def _ok(self) -> None:
        """Answer the variant asked for, checked by the play layer; a refusal is shown."""
        try:
            redeals = parse_redeals(self.query_one("#redeals", Input).value)
            variant = parse_variant({"redeals": redeals, "waste_playable": self.query_one("#waste", Switch).value,
                                     "privileged_last": self.query_one("#privileged", Switch).value})
        except PlayError as e:
            error = t(self.lang, "tui.variant.not_changed", error=e.text(self.lang))
            self.query_one("#variant-error", Label).update(error)
            return
        self.dismiss(variant)

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self._ok()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
        elif event.button.id == "canonical":
            self.dismiss(Variant())
        else:
            self._ok()


class SettingsDialog(Dialog[dict[str, object]]):
    """The player's settings the terminal honours (docs/play.md). OK answers the changes;
    Escape answers ``None``."""

    #: The switches: the setting and the catalog key of its sentence (the page's words).
    SWITCHES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("four_colour", "four_colour"), ("show_playable", "show_playable"), ("wish", "wish.setting"))

    def __init__(self, current: Settings, lang: str = "en") -> None:
        super().__init__(lang)
        self.current = current

    def compose(self) -> ComposeResult:
        s, lang = self.current, self.lang
        with Vertical(classes="dialog", id="settings"):
            yield Label(t(lang, "tui.settings.title"))
            yield Label(t(lang, "board_label"), classes="head")
            with RadioSet(id="felt"):
                for felt in CHOICES["felt"]:
                    yield RadioButton(t(lang, f"felt.{felt}"), value=felt == s.felt, id=f"felt-{felt}")
            yield Label(t(lang, "tui.settings.felt_note"), classes="note")
            for key, words in self.SWITCHES:
                yield Toggle(t(lang, words), bool(getattr(s, key)), key.replace("_", "-"), lang)
            yield self.buttons("tui.button.ok", "cancel")
            yield Label(t(lang, "tui.settings.keys"))
        yield KeyBar((BarKey("Esc", "cancel"),), lang)

    def chosen(self) -> dict[str, object]:
        """The settings as the dialog shows them, where they differ from the current ones."""
        out: dict[str, object] = {key: self.query_one(f"#{key.replace('_', '-')}", Switch).value
                                  for key, _ in self.SWITCHES}
        pressed = self.query_one("#felt", RadioSet).pressed_button
        if pressed is not None and pressed.id is not None:
            out["felt"] = pressed.id.removeprefix("felt-")
        return {k: v for k, v in out.items() if getattr(self.current, k) != v}

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.chosen() if event.button.id == "ok" else None)


class EndDialog(Dialog[str]):
    """The game is over: result, score, deal, and the page's story of the game (docs/story.md)
    in a box that scrolls, once told; play again, next deal, random deal."""

    # The table's own keys mean the same here (n new deal, u undo, q quit, ctrl+r
    # restart = play again), so a key pressed for the table never does something else;
    # the key bar shows these, not the table's: (keys, action, label, as shown, rank).
    _KEYS: ClassVar[tuple[tuple[str, str, str, str, int], ...]] = (
        ("enter,ctrl+r", "dismiss('again')", "tui.end.binding.again", "Enter", 6),
        ("right", "dismiss('next')", "tui.end.binding.next", "→", 5),
        ("n", "dismiss('random')", "tui.end.binding.random", "n", 4),
        ("u,ctrl+z", "dismiss('undo')", "tui.end.binding.undo", "u", 2),
        ("escape,c", "dismiss('close')", "close", "Esc", 3),
        ("q", "dismiss('quit')", "tui.binding.quit", "q", 7),
        ("d", "details", "tui.end.binding.details", "d", 8),
    )
    KEYS: ClassVar[tuple[BarKey, ...]] = tuple(BarKey(shown, label, rank) for _, _, label, shown, rank in _KEYS)
    BINDINGS: ClassVar[list[BindingType]] = [binding(keys, action, label) for keys, action, label, _, _ in _KEYS]

    #: The story once told (or why it could not be), and whether its details in the
    #: rules' terms show under its plain words (d; issue 26: the first view is plain).
    told: reactive[Story | Exception | None] = reactive(None, init=False)
    details: reactive[bool] = reactive(False, init=False)

    def __init__(self, game: Game, lang: str, news: list[str], stories: Kept[StoryKey, Story]) -> None:
        super().__init__(lang)
        self.game = game
        self.news = news  # new records (play.stats.news) and the wish, in words
        self.stories = stories  # the screen's stories told: one kept is shown at once

    def compose(self) -> ComposeResult:
        lang, game, pos = self.lang, self.game, self.game.position
        with Vertical(classes="dialog", id="end"):
            yield Label(t(lang, f"tui.end.{pos.status}"), classes=pos.status)  # won or lost: its sentence and colour
            yield Label(t(lang, "tui.end.deal", deal=game.deal, variant=describe_variant(game.variant, lang)))
            yield Label(plural(lang, "tui.end.score", pos.passes, score=pos.score, passes=pos.passes,
                               moves=len(game)))
            for i, line in enumerate(self.news):
                yield Label(line, classes="won", id=f"end-news-{i}")
            with VerticalScroll(id="end-story-box"):
                yield Static(id="end-story")
            yield self.buttons("tui.end.again", "tui.end.next", "tui.end.random", "tui.end.close")
        yield KeyBar(self.KEYS, lang)

    def on_mount(self) -> None:
        self.told = self.stories.get(story_key(self.game))
        if self.told is None:
            # A copy, made here: the worker reads its positions while the player may undo on the table.
            self._tell(Game(self.game.deal, self.game.variant, self.game.moves))
        self.watch_told()

    @work(exit_on_error=False)
    async def _tell(self, game: Game) -> None:
        """Tell the story (``kept_story``: the page's policy) on a thread, so the
        screen never waits for it; the story is a bonus: its failure is said, and the
        game goes on."""
        try:
            self.told = await asyncio.to_thread(kept_story, self.stories, game)
        except Exception as e:
            self.told = e

    def action_details(self) -> None:
        self.details = not self.details

    def watch_told(self) -> None:
        told, lang = self.told, self.lang
        if told is None:
            text = t(lang, "tui.story.wait")
        elif isinstance(told, Exception):
            text = t(lang, "tui.story.failed", reason=f"{type(told).__name__}: {told}"[:120])
        else:
            text = told.text(lang, STORY_WIDTH, details=self.details)
        for story in self.query("#end-story").results(Static):  # none once the panel is closed
            story.update(text)

    watch_details = watch_told

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "close")


def help_text(lang: str) -> str:
    """The help page as Markdown (``i18n.help_markdown``: rules, variants, the chance
    figure, keys), followed by the book's own Russian text (``i18n.book_text``)."""
    title, body = book_text().rstrip().split("\n\n", 1)
    return help_markdown(lang).rstrip() + f"\n\n## {t(lang, 'tui.help.book')}\n\n### {title}\n\n{body}\n"


class Page(Screen[T]):
    """A page over the whole table (help, statistics, the calendar)."""


class HelpScreen(Page[None]):
    """Rules and keys; ``L`` switches between Russian and English, as on the table
    (where ``l`` opens the unfinished games); the whole terminal follows once the help
    is closed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        binding("L", "language", "tui.binding.language"),
        binding("escape,q,question_mark,comma,f1", "dismiss", "tui.binding.back"),
    ]

    #: The help's language (L switches it); the key bar is bound to it.
    language: reactive[str] = reactive("en")

    def __init__(self, language: str = "en") -> None:
        super().__init__()
        self.set_reactive(HelpScreen.language, language)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-scroll"):
            yield Static(id="help-body", classes="body")
        yield KeyBar((BarKey("L", "tui.binding.language"), BarKey("Esc", "tui.binding.back")),
                     id="help-keys").data_bind(lang=HelpScreen.language)

    def on_mount(self) -> None:
        self.watch_language()

    def watch_language(self) -> None:
        self.query_one("#help-body", Static).update(Markdown(help_text(self.language)))
        self.query_one("#help-scroll", VerticalScroll).scroll_home(animate=False)

    def action_language(self) -> None:
        self.language = other_lang(self.language)


BLOCKS = " ▁▂▃▄▅▆▇█"


def histogram_lines(stats: Stats, rows: int = 4, lang: str = "en") -> list[Text]:
    """Scores of finished games in bins of ``SCORE_BIN`` cards plus a column for won
    games (104), drawn with eighth-block characters, ``rows`` lines high."""
    hist = stats.score_histogram
    starts = range(0, DECK_SIZE, SCORE_BIN)
    bins = [sum(hist[i:i + SCORE_BIN]) for i in starts] + [hist[DECK_SIZE]]
    top = max(bins) or 1
    lines: list[Text] = []
    for r in range(rows - 1, -1, -1):
        line = Text()
        for b, count in enumerate(bins):
            eighths = max(1, round(count / top * rows * 8)) if count else 0  # a non-empty bin never vanishes
            level = max(0, min(8, eighths - r * 8))
            line.append(BLOCKS[level] * 3 + " ", style="#ffd24a" if b == len(bins) - 1 else "#7fd08f")
        lines.append(line)
    return [*lines, Text("".join(f"{i:<4}" for i in starts) + t(lang, "tui.stats.won_column"), style="dim")]


def stats_renderable(play: PlayService, player: str, lang: str = "en") -> Table | Text:
    """The player's statistics per variant."""
    all_stats = play.stats(player)
    if not all_stats:
        return Text(t(lang, "tui.stats.none"))
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    for st in all_stats:
        variant = describe_variant(Variant.from_token(st.variant), lang)
        grid.add_row(Text(f"{variant}  [{st.variant}]", style="bold #ffd24a"))
        if not st.played:
            grid.add_row(Text("  " + t(lang, "tui.stats.none_variant"), style="dim"))
            grid.add_row(Text(""))
            continue
        rate = number(100 * st.win_rate, lang, 1)
        grid.add_row(Text("  " + t(lang, "tui.stats.counts", played=st.played, won=st.won, lost=st.lost,
                                   abandoned=st.abandoned, rate=rate)))
        grid.add_row(Text("  " + t(lang, "tui.stats.streaks", streak=st.current_streak, best=st.best_streak,
                                   passes=number(st.average_passes, lang, 2))))
        none = t(lang, "st_no_value")
        grid.add_row(Text("  " + t(lang, "tui.stats.records", won=st.won, best=st.best_streak,
                                   passes=none if st.fewest_passes is None else st.fewest_passes,
                                   lost=none if st.best_lost_score is None else st.best_lost_score),
                          style="#ffd24a"))
        for line in histogram_lines(st, lang=lang):
            grid.add_row(Text("  ") + line)
        grid.add_row(Text(""))
    return grid


class StatsScreen(Page[None]):
    """Statistics of finished games, per variant, from the shared store."""

    BINDINGS: ClassVar[list[BindingType]] = [binding("escape,q,i", "dismiss", "tui.binding.back")]

    def __init__(self, play: PlayService, player: str, lang: str = "en") -> None:
        super().__init__()
        self.play, self.player, self.lang = play, player, lang

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(t(self.lang, "tui.stats.title"), style="bold"), id="stats-title")
            yield Static(stats_renderable(self.play, self.player, self.lang), id="stats-body", classes="body")
        yield KeyBar((BarKey("Esc", "tui.binding.back"),), self.lang)


class WordsDialog(Dialog[str]):
    """The table in words, for a player who listens (``i18n.table``, the page's words
    too): the summary, then 1–8 read a pile bottom up and w the waste top down. Opened
    without a text, it asks which pile. Answers the last text it said."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *[binding(str(i), f"review('P{i}')", "tui.binding.review") for i in range(1, 9)],
        binding("w", f"review('{WASTE}')", "tui.binding.waste"),
        binding("r", "review('rows')", "review.rows"),
        binding("escape,enter,q", "close", "tui.binding.back"),
    ]

    def __init__(self, pos: Position, lang: str = "en", text: str | None = None) -> None:
        super().__init__(lang)
        self.pos, self.text = pos, text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="words-dialog"):
            yield Label(t(self.lang, "tui.words.prompt"))
            yield Static(self.text or "", id="words")
        yield KeyBar((BarKey("1–8", "tui.binding.review"), BarKey("w", "tui.binding.waste"),
                      BarKey("r", "review.rows"), BarKey("Esc", "tui.binding.back")), self.lang)

    def action_review(self, place: str) -> None:  # one of i18n.table.REVIEW_PLACES, as bound
        _, _, self.text = review_words(self.pos, place, self.lang)
        self.query_one("#words", Static).update(self.text)

    def action_close(self) -> None:
        self.dismiss(self.text)
