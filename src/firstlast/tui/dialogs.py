"""Dialogs and secondary screens: deal number, variant, game over, help, statistics."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import ClassVar

from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..engine import Variant
from ..play import PlayError, PlayService, Stats, parse_deal
from ..play.settings import parse_redeals
from ..recordfile import RecordFileError, read_record_file
from ..store import GameSummary

DIALOG_CSS = """
.dialog { width: 64; max-width: 100%; height: auto; border: thick #ffd24a; background: #10301c;
          padding: 1 2; }
.dialog Label { width: 100%; }
.dialog .error { color: #ff6b6b; }
.dialog .buttons { height: auto; margin-top: 1; }
.dialog Button { margin-right: 1; min-width: 8; width: auto; }
.dialog Checkbox { border: none; padding: 0 1; height: 1; margin-top: 1; }
"""


class DealDialog(ModalScreen[int | None]):
    """Ask for a deal number."""

    DEFAULT_CSS = "DealDialog { align: center middle; }" + DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Deal number (0 … 18446744073709551615):")
            yield Input(placeholder="e.g. 42", id="deal-input")
            yield Label("", id="deal-error", classes="error")
            yield Label("Enter: play it · Escape: cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            n = parse_deal(event.value.strip())
        except PlayError as e:
            self.query_one("#deal-error", Label).update(e.message)
            return
        self.dismiss(n)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ImportDialog(ModalScreen[str | None]):
    """Ask for a record file to import; answers its text (the play layer checks it)."""

    DEFAULT_CSS = "ImportDialog { align: center middle; }" + DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Import a game record (someone's game: kept and replayable, not counted):")
            yield Input(placeholder="path of a record file, e.g. game.txt", id="record-path")
            yield Label("", id="record-error", classes="error")
            yield Label("Enter: import · Escape: cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            text = read_record_file(Path(event.value.strip()).expanduser())
        except RecordFileError as e:
            self.query_one("#record-error", Label).update(str(e))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


class UnfinishedDialog(ModalScreen[str | None]):
    """The player's unfinished games (left for another, or on the table): pick one to
    put back on the table. Answers its id."""

    DEFAULT_CSS = "UnfinishedDialog { align: center middle; }" + DIALOG_CSS + """
    UnfinishedDialog OptionList { height: auto; max-height: 16; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, games: list[GameSummary], current: str) -> None:
        super().__init__()
        self.games = [g for g in games if g.id != current]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Unfinished games — Enter reopens one, Escape cancels:")
            if not self.games:
                yield Label("none but the game on the table", id="unfinished-none")
            else:
                yield OptionList(*[
                    Option(f"deal {g.deal} · {g.variant.describe()} · {g.moves} moves · score {g.score}"
                           f"{' · abandoned' if g.abandoned else ''}", id=g.id)
                    for g in self.games
                ], id="unfinished")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class VariantDialog(ModalScreen[Variant | None]):
    """Choose the rules variant (V1–V3) for new games."""

    DEFAULT_CSS = "VariantDialog { align: center middle; }" + DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: Variant) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        v = self.current
        with Vertical(classes="dialog"):
            yield Label("Variant for new games (the current game keeps its rules)")
            yield Label("V1 redeals — a number, or 'unlimited' (canonical 3):")
            yield Input(value="unlimited" if v.redeals is None else str(v.redeals), id="redeals")
            yield Checkbox("V2 the waste's top card is playable", v.waste_playable, id="waste")
            yield Checkbox("V3 the last first-row card is privileged (R8)", v.privileged_last, id="privileged")
            yield Label("", id="variant-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("OK", variant="primary", id="ok")
                yield Button("Canonical", id="canonical")
                yield Button("Cancel", id="cancel")

    def _chosen(self) -> Variant | None:
        try:
            redeals = parse_redeals(self.query_one("#redeals", Input).value)
        except PlayError as e:
            self.query_one("#variant-error", Label).update(e.message)
            return None
        return Variant(redeals=redeals, waste_playable=self.query_one("#waste", Checkbox).value,
                       privileged_last=self.query_one("#privileged", Checkbox).value)

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        v = self._chosen()
        if v is not None:
            self.dismiss(v)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
        elif event.button.id == "canonical":
            self.dismiss(Variant())
        else:
            v = self._chosen()
            if v is not None:
                self.dismiss(v)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EndDialog(ModalScreen[str]):
    """The game is over: result, score, deal; play again, next deal, random deal."""

    DEFAULT_CSS = "EndDialog { align: center middle; }" + DIALOG_CSS + """
    EndDialog .won { color: #ffd24a; text-style: bold; }
    EndDialog .lost { color: #ff8080; text-style: bold; }
    """
    # The table's own keys mean the same here (n new deal, u undo, q quit, ctrl+r
    # restart = play again), so a key pressed for the table never does something else.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,ctrl+r", "choose('again')", "Play again"),
        Binding("right", "choose('next')", "Next deal"),
        Binding("n", "choose('random')", "New deal"),
        Binding("u,ctrl+z", "choose('undo')", "Undo the last move"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape,c", "choose('close')", "Close"),
    ]

    def __init__(self, won: bool, deal: int, variant: Variant, score: int, passes: int, moves: int) -> None:
        super().__init__()
        self.won, self.deal, self.variant = won, deal, variant
        self.score, self.passes, self.moves = score, passes, moves

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="end"):
            if self.won:
                yield Label("★ The patience came out! — Пасьянс вышел! ★", classes="won")
            else:
                yield Label("The patience did not come out — пасьянс не вышел", classes="lost")
            yield Label(f"Deal {self.deal} · {self.variant.describe()}")
            yield Label(f"Score {self.score} of 104 cards on the piles · "
                        f"{self.passes} pass{'es' if self.passes != 1 else ''} · {self.moves} moves")
            with Horizontal(classes="buttons"):
                yield Button("Again (Enter)", variant="primary", id="again")
                yield Button("Next deal (→)", id="next")
                yield Button("New deal (n)", id="random")
                yield Button("Close (c)", id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "close")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


def _data(name: str) -> str:
    return resources.files("firstlast.tui").joinpath("data", name).read_text(encoding="utf-8")


def help_text(language: str) -> str:
    """The help page as Markdown: rules and keys, in ``en`` or ``ru``; the Russian page
    ends with the book's own text."""
    if language == "ru":
        book = _data("seed-ru.txt").strip()
        # The reprint's first line is the site's section name, not part of the text.
        lines = [ln.strip() for ln in book.splitlines() if ln.strip()]
        if lines and lines[0] == "Библиотека":
            lines = lines[1:]
        title, body = lines[0], "\n\n".join(lines[1:])
        return _data("help-ru.md") + f"\n\n## Текст книги\n\n### {title}\n\n{body}\n"
    return _data("help-en.md")


class HelpScreen(Screen[None]):
    """Rules and keys; ``l`` switches between Russian and English."""

    DEFAULT_CSS = """
    HelpScreen { background: #0e2416; }
    HelpScreen #help-body { padding: 0 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "language", "Русский / English"),
        Binding("escape,q,h,question_mark", "close", "Back to the game"),
    ]

    def __init__(self, language: str = "en") -> None:
        super().__init__()
        self.language = language

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-scroll"):
            yield Static(id="help-body")
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        self.query_one("#help-body", Static).update(Markdown(help_text(self.language)))
        self.query_one("#help-scroll", VerticalScroll).scroll_home(animate=False)

    def action_language(self) -> None:
        self.language = "en" if self.language == "ru" else "ru"
        self._show()

    def action_close(self) -> None:
        self.dismiss(None)


BLOCKS = " ▁▂▃▄▅▆▇█"


def histogram_lines(stats: Stats, rows: int = 4) -> list[Text]:
    """Scores of finished games in bins of 8 cards (0–7 … 96–103) plus a column for
    won games (104), drawn with eighth-block characters, ``rows`` lines high."""
    hist = stats.score_histogram()
    bins = [sum(hist[i:i + 8]) for i in range(0, 104, 8)] + [hist[104]]
    top = max(bins) or 1
    lines: list[Text] = []
    for r in range(rows - 1, -1, -1):
        line = Text()
        for b, count in enumerate(bins):
            eighths = round(count / top * rows * 8)
            level = max(0, min(8, eighths - r * 8))
            ch = BLOCKS[level] if count else " "
            if r == 0 and count and level == 0:
                ch = BLOCKS[1]  # never let a non-empty bin vanish
            line.append(ch * 3 + " ", style="#ffd24a" if b == len(bins) - 1 else "#7fd08f")
        lines.append(line)
    axis = Text("0   8   16  24  32  40  48  56  64  72  80  88  96  won", style="dim")
    lines.append(axis)
    return lines


def stats_renderable(play: PlayService, player: str) -> Table | Text:
    """The player's statistics per variant (the play layer's policy: docs/play.md)."""
    all_stats = play.stats(player)
    if not all_stats:
        return Text("No games yet.")
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    for st in all_stats:
        v = st.variant
        grid.add_row(Text(f"{v.describe()}  [{v.token}]", style="bold #ffd24a"))
        if not st.played:
            grid.add_row(Text("  no finished games yet", style="dim"))
            grid.add_row(Text(""))
            continue
        grid.add_row(Text(f"  played {st.played} · won {st.won} · lost {st.lost} · abandoned {st.abandoned}"
                          f" · win {100 * st.win_rate:.1f} %"))
        grid.add_row(Text(f"  streak {st.current_streak} (best {st.best_streak}) · "
                          f"average passes {st.average_passes:.2f}"))
        for line in histogram_lines(st):
            grid.add_row(Text("  ") + line)
        grid.add_row(Text(""))
    return grid


class StatsScreen(Screen[None]):
    """Statistics of finished games, per variant, from the shared store."""

    DEFAULT_CSS = """
    StatsScreen { background: #0e2416; }
    StatsScreen #stats-body { padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,i", "close", "Back to the game")]

    def __init__(self, play: PlayService, player: str) -> None:
        super().__init__()
        self.play, self.player = play, player

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("Statistics — finished games, per variant", style="bold"), id="stats-title")
            yield Static(stats_renderable(self.play, self.player), id="stats-body")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
