"""The game screen's parts: the title, the table, the side bar, the status line. The
screen binds its reactive state to them (``data_bind``): each redraws itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget

from ..engine import CANONICAL, Card, Game, Move, Movement, Step, Variant
from ..engine.cards import DECK_SIZE
from ..engine.places import FIRST, PILES, RESERVE, STOCK, WASTE
from ..i18n import describe_variant, plural, t
from ..play import view as V
from . import cards as C
from .autoplay import SPEEDS
from .chance import Answer, describe_answer
from .keys import side_keys
from .table import Slot, WasteFan, paint_slot


def compact_variant(variant: Variant, lang: str = "en") -> str:
    """A variant in fewer words than ``describe_variant``, as the page labels it (i18n.js
    ``variantLabel``, the same keys): ``Canonical rules``, ``∞ redeals, V2, no R8``."""
    if variant == CANONICAL:
        return t(lang, "canonical")
    parts = [t(lang, "variant_label.unlimited") if variant.redeals is None
             else plural(lang, "variant_label.redeals", variant.redeals)]
    return ", ".join([*parts, *(["V2"] if variant.waste_playable else []),
                      *([] if variant.privileged_last else [t(lang, "variant_label.no_r8")])])


def one_line(text: str, width: int) -> str:
    """``text`` on one line of ``width`` cells: cut with "…" when it is longer."""
    line = Text(" ".join(text.split()))
    line.truncate(width, overflow="ellipsis")
    return line.plain


class TitleBar(Widget):
    """The game's name as room allows, and always the deal and its rules (in fewer words,
    or as the variant's token, on narrow terminals, so the variant is never cut off)."""

    lang: reactive[str] = reactive("en")
    version: reactive[int] = reactive(0)

    def __init__(self, game: Callable[[], Game], id: str | None = None) -> None:
        super().__init__(id=id)
        self._game = game

    def render(self) -> Text:
        game, lang = self._game(), self.lang
        deal_part = t(lang, "tui.title.deal", deal=game.deal)
        names = (t(lang, "tui.title"), t(lang, "title"), "")
        rules = (describe_variant(game.variant, lang), compact_variant(game.variant, lang), game.variant.token)
        name, rule = next(((name, rule) for rule in rules for name in names
                           if cell_len(" · ".join(x for x in (name, deal_part, rule) if x)) <= self.size.width),
                          (names[-1], rules[-1]))
        title = Text()
        if name:
            title.append(name, style="bold")
            title.append(" · ", style=C.tone("soft"))
        title.append(deal_part, style=f"bold {C.tone('gold')}")
        title.append(f" · {rule}", style=C.tone("soft"))
        return title


class StatusLine(Widget):
    """What the last action did, or why it was refused (marked ✗): one line, cut with
    "…" when longer (the whole sentence stays in ``message``)."""

    message: reactive[str] = reactive("")
    error: reactive[bool] = reactive(False)

    def watch_error(self, error: bool) -> None:
        self.set_class(error, "error")

    def render(self) -> Text:
        text = ("✗ " if self.error else "") + self.message
        return Text(one_line(text, max(1, self.size.width)))


class FeltScreen(Screen[None]):
    """A screen with the table on it, on the player's felt (settings.felt, as on the page):
    its cloth (``cards.FELTS``) behind the places, as behind their labels; on paper, light
    bars with dark ink (firstlast.tcss)."""

    def show_felt(self) -> None:
        """The felt of the moment (``C.LOOK``): its cloth, its class on the screen, and
        Textual's theme for the dialogs and the help: light on the paper felt, else dark."""
        self.styles.background = C.LOOK.colours.cloth
        for felt in C.FELTS:
            self.set_class(felt == C.LOOK.felt, f"felt-{felt}")
        self.app.theme = "textual-light" if C.LOOK.light else "textual-dark"


class TableView(Vertical):
    """The table as the book lays it out: the first row, the piles, the reserve, the
    stock and the waste (with its top cards fanned)."""

    def compose(self) -> ComposeResult:
        for row, places in (("first", FIRST), ("piles", PILES), ("reserve", RESERVE)):
            with Horizontal(classes="row", id=f"row-{row}"):
                for p in places:
                    yield Slot(p)
        with Horizontal(classes="row", id="row-stock"):
            yield Slot(STOCK)
            yield Slot(WASTE)
            yield WasteFan(id="waste-fan")

    def lay_out(self, size: C.CardSize, lang: str) -> None:
        """Size the places for cards of ``size``; the stock's and the waste's places are
        as wide as their labels in ``lang`` ("Сборная 104"), so no count is cut."""
        wide = max(size.width, 9, *(cell_len(t(lang, k, n=DECK_SIZE)) for k in ("tui.table.stock", "tui.table.waste")),
                   cell_len(t(lang, "tui.table.redeal")))
        for slot in self.query(Slot):
            slot.styles.width = wide if slot.place in (STOCK, WASTE) else size.width
            slot.styles.height = size.height + 1
        self.query_one(WasteFan).styles.height = size.height + 1
        # The stock row's fan spans the rows above it, not the whole screen.
        self.query_one("#row-stock").styles.width = C.table_width(size.width) - 3

    def show(self, view: V.TableView, size: C.CardSize, moved: frozenset[Card], lang: str,
             marked: frozenset[str] | None = None) -> None:
        """Draw the play layer's view of the table; ``marked``: as in ``paint_slot``."""
        for slot in self.query(Slot):
            slot.shown = paint_slot(slot.place, view, size, moved, lang, marked)
        fan = self.query_one(WasteFan)
        fan.waste, fan.lang = view.waste, lang


class SideBar(Widget):
    """The active pile and what it needs, the privileged card, passes, redeals, stock
    and waste, score, the chance to come out, autoplay, the legal moves, the keys and
    (when tall) the latest moves."""

    lang: reactive[str] = reactive("en")
    version: reactive[int] = reactive(0)
    chance_answer: reactive[Answer] = reactive(None)
    auto: reactive[bool] = reactive(False)
    speed: reactive[int] = reactive(0)

    def __init__(self, view: Callable[[], V.TableView], game: Callable[[], Game], id: str | None = None) -> None:
        super().__init__(id=id)
        self._view = view
        self._game = game  # for the log of the latest moves only

    def render(self) -> Text:
        return side_text(self._view(), self._game().steps, self.lang, describe_answer(self.chance_answer, self.lang),
                         self.auto, SPEEDS[self.speed], side_keys(self.lang), self.size.height, self.size.width)


def side_text(view: V.TableView, steps: Sequence[Step], lang: str, chance_text: str | None, auto: bool,
              speed: int, keys: str, height: int, width: int) -> Text:
    """The side bar's text, from the play layer's view of the table (``play.view``);
    ``steps``: the moves made, the latest of which are listed when there is room."""
    key = C.tone("key")
    # The side's labels; those the page's say the same take the page's keys (issue 25.4).
    keys_of = {k: k if k in ("stock", "score", "auto") else f"tui.side.{k}"
               for k in ("active", "needs", "privileged", "pass", "redeals", "stock", "score", "auto", "next")}
    pad = max(len(t(lang, k)) for k in keys_of.values()) + 1

    def label(name: str) -> None:
        out.append(t(lang, keys_of[name]).ljust(pad), style=key)

    out = Text()
    status = view.status
    if status == "won":
        out.append(t(lang, "tui.side.won") + "\n", style=f"bold {C.tone('gold')}")
    elif status == "lost":
        out.append(t(lang, "tui.side.lost") + "\n", style=f"bold {C.tone('bad')}")
    k = view.active
    if k is not None and view.need is not None:
        label("active")
        out.append(f"P{k + 1}", style=f"bold {C.LOOK.colours.active}")
        out.append(f" {t(lang, 'tui.side.under')} ")
        out.append_text(C.pretty_text(view.first[k], lang))
        out.append("\n")
        label("needs")
        out.append(C.rank_text(view.need, lang), style=f"bold {C.LOOK.colours.active}")
        out.append("   " + t(lang, "tui.side.on_pile", n=len(view.piles[k]), pile=f"P{k + 1}") + "\n")
    label("privileged")
    if view.privileged is not None:
        out.append_text(C.pretty_text(view.first[-1], lang))
        out.append(" " + t(lang, "tui.side.privileged_at") + "\n", style=C.LOOK.colours.privileged)
    else:  # V3 has no privileged card; else it is not on P8 now
        none = "tui.side.no_privileged_p8" if view.variant.privileged_last else "tui.side.no_privileged_v3"
        out.append(t(lang, none) + "\n", style="dim")
    total = "∞" if view.passes_allowed is None else str(view.passes_allowed)
    left = view.redeals_left
    label("pass")
    out.append(t(lang, "tui.side.pass_of", total=total, **{"pass": view.passes}) + "\n", style="bold")
    label("redeals")
    out.append(t(lang, "tui.side.redeals_left", left="∞" if left is None else left) + "\n")
    label("stock")
    out.append(t(lang, "tui.side.stock_waste", stock=view.stock_count, waste=len(view.waste)) + "\n")
    label("score")
    out.append(f"{view.score}/{DECK_SIZE}", style="bold")
    out.append(" · " + t(lang, "tui.side.moves", n=view.moves) + "\n")
    chance = t(lang, "chance.comes_out") if view.comes_out else chance_text  # a forced win: said, not estimated
    if chance:
        out.append(chance + "\n", style=f"bold {C.tone('info')}")
    label("auto")
    out.append(t(lang, "tui.side.auto_on" if auto else "tui.toggle.off"),
               style=f"bold {C.LOOK.colours.playable}" if auto else "")
    out.append(" · " + t(lang, "tui.side.speed", speed=speed) + "\n")
    if view.legal_moves:
        label("next")
        out.append(", ".join(move_name(m, lang) for m in view.legal_moves) + "\n")
    # The keys, as many lines as the side bar has room for (the key bar has the rest).
    room = height - len(out.plain.splitlines()) - 1
    if room >= 2:
        out.append("\n" + "\n".join(keys.splitlines()[:room - 1]), style=C.tone("help"))
    # Tall terminals: the rest of the side bar lists the latest moves.
    room = height - len(out.plain.splitlines()) - 2
    if room >= 3 and steps:
        out.append("\n\n" + t(lang, "tui.side.latest") + "\n", style=key)
        latest = steps[-room + 1:]
        first = len(steps) - len(latest) + 1
        cut = max(10, width - 2)
        lines = [f"{first + i:4}. {step_text(step.move, step.movements, lang)}"[:cut]
                 for i, step in enumerate(latest)]
        out.append("\n".join(reversed(lines)), style=C.tone("soft"))
    return out


def step_text(move: Move, movements: tuple[Movement, ...], lang: str = "en") -> str:
    """One line of the move log: ``R3 7♥→P1 2♣→R3`` (the stock and the waste in words)."""
    if move.kind == "redeal":
        return t(lang, "tui.log.redeal", n=len(movements))
    words = {STOCK: t(lang, "story.map.stock"), WASTE: t(lang, "story.map.waste")}
    moved = " ".join(f"{C.pretty(m.card, lang)}→{words.get(m.target, m.target)}" for m in movements)
    return f"{move_name(move, lang)} {moved}"


def move_name(move: Move, lang: str = "en") -> str:
    """A move as the table names it: its place (``R3``, ``F8``), or ``turn``,
    ``redeal`` and ``waste`` in words."""
    if move.kind == "turn":
        return t(lang, "tui.move.turn")
    if move.kind == "redeal":
        return t(lang, "tui.move.redeal")
    if move.kind == "play" and move.source == WASTE:
        return t(lang, "story.map.waste")
    return str(move)
