"""The table's places, drawn the way the book lays them out from the play layer's view
model (``play.view.TableView``, the web's too): nothing here decides what is legal.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..engine import Card
from ..engine.places import FIRST, PILES, RESERVE, STOCK, WASTE
from ..i18n import t
from ..play.view import TableView
from . import cards as C
from .cards import CardSize


def label_style(color: str | None = None, bold: bool | None = None, reverse: bool | None = None) -> Style:
    """A label's style on the felt of the moment (``C.LOOK``): its colour, or the felt's."""
    return Style(color=color or C.LOOK.colours.label, bgcolor=C.LOOK.colours.cloth, bold=bold, reverse=reverse)


def marks() -> dict[str, tuple[str, str, Style]]:
    """Each mark a place can have, on the felt of the moment: its card's frame (box and
    colour) and its label's style. The active pile's label is drawn in reverse video (and
    bold): it stays visible when colours are off (NO_COLOR), where a colour alone would vanish."""
    colours = C.LOOK.colours
    return {"plain": ("plain", C.EDGE, label_style()),
            "playable": ("heavy", colours.playable, label_style(colours.playable, bold=True)),
            "active": ("double", colours.active, label_style(colours.active, bold=True, reverse=True)),
            "privileged": ("heavy", colours.privileged, label_style(colours.privileged, bold=True))}


#: Marks the label of a place whose top card the last action moved.
MOVED_MARK = "•"
#: Points at the pile the next card goes to (where the label has room).
ACTIVE_MARK = "▶"

class Slot(Widget):
    """One place on the table: a label line above a card. Clicking it asks the game
    screen to play from that place (the engine decides whether that is legal)."""

    #: What the place shows (``paint_slot``): its label and its card's lines. A move
    #: changes a handful of places, and only those redraw, which keeps autoplay smooth.
    shown: reactive[tuple[Text, list[Text]]] = reactive(lambda: (Text(), []))

    class Clicked(Message):
        def __init__(self, place: str) -> None:
            super().__init__()
            self.place = place

    def __init__(self, place: str) -> None:
        super().__init__(id=f"slot-{place}")
        self.place = place

    def render(self) -> Text:
        label, lines = self.shown
        label = label.copy()
        label.truncate(self.size.width or 1, pad=True)
        label.stylize(Style(bgcolor=C.LOOK.colours.cloth))
        return Text("\n").join([label, *lines])

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.place))


class WasteFan(Widget):
    """The top cards of the waste, spread out in a line (top card last), so the player
    sees what the refills (R7) will bring."""

    waste: reactive[tuple[Card, ...]] = reactive(tuple)
    lang: reactive[str] = reactive("en")

    def render(self) -> Text:
        LABEL = label_style()
        out = Text(t(self.lang, "tui.table.waste_fan") + "\n", style=LABEL)
        if not self.waste:
            out.append(t(self.lang, "tui.table.empty"), style="dim")
            return out
        shown = self.waste[-max(1, (max(4, self.size.width) - 2) // 4):]  # a card and a space: 4 cells
        if len(self.waste) > len(shown):
            out.append("… ", style=LABEL)
            shown = shown[1:]
        for i, card in enumerate(shown):
            text = C.pretty_text(card, self.lang)
            if i == len(shown) - 1:
                text.stylize("reverse")
            out.append_text(text)
            out.append(" ")
        return out


def _label(text: str, style: Style | None = None, moved: bool = False) -> Text:
    """A place's label; ``moved`` adds the mark of the last action's cards (visible
    without colour, e.g. under ``NO_COLOR``). Its style is a span, not the Text's base
    style, which rich's Text equality leaves out: ``Slot.shown`` would keep a stale one."""
    label = Text.assemble((text, style or label_style()))
    if moved:
        label.append(MOVED_MARK, style=label_style(C.FACE_MOVED if not C.LOOK.light else "#8a4b00", bold=True))
    return label


def paint_slot(place: str, view: TableView, size: CardSize,
               moved: frozenset[Card] = frozenset(), lang: str = "en",
               marked: frozenset[str] | None = None) -> tuple[Text, list[Text]]:
    """Label and card lines for ``place``; ``moved``: the cards the last action moved,
    marked where they lie on top; ``marked``: the places framed as playable (``None``:
    every one that can; with the marks off, only the hint's card)."""
    mark = marks()
    sources = view.playable if marked is None else marked
    active = view.active

    def on_top(text: str, card: Card | None, kind: str, empty: str = "") -> tuple[Text, list[Text]]:
        """A place showing ``card`` (a first-row card, the reserve's, the waste's top),
        framed as ``kind`` (a ``marks`` key); ``empty``: the word inside it once empty."""
        emphasis, edge, style = mark[kind]
        if card is None:
            return _label(text, style), C.empty_lines(size, empty)
        hit = card in moved
        return _label(text, style, hit), C.card_lines(card, size, emphasis, edge, moved=hit, lang=lang)

    if place in FIRST:
        i = FIRST.index(place)
        privileged = i == len(FIRST) - 1 and view.privileged is not None
        kind = "playable" if place in sources else "active" if i == active else "privileged" if privileged else "plain"
        return on_top(place + ("▼" if i == active else "★" if privileged else ""), view.first[i], kind,
                      "↓" if i != active else "")
    if place in PILES:
        i = PILES.index(place)
        pile = view.piles[i]
        need = view.need
        top = pile[-1] if pile else None
        hit = top is not None and top in moved
        depth = C.depth_footer(len(pile), size)
        if i == active and need is not None:
            # The pile the next card goes to: reversed and pointed at, so it shows
            # without colour too (NO_COLOR).
            rank = C.rank_text(need, lang)
            text = f"{place}→{rank}" if size.width < 7 else f"{ACTIVE_MARK}{place} →{rank}"
            emphasis, edge, style = mark["active"]
            label = _label(text, style, hit)
            if top is None:
                return label, C.empty_lines(size, "→" + rank, emphasis, edge)
            return label, C.card_lines(top, size, emphasis, edge, depth, hit, lang=lang)
        label = _label(place + (" ✓" if view.pile_complete(i) else ""), moved=hit)
        if top is None:
            return label, C.empty_lines(size)
        return label, C.card_lines(top, size, footer=depth, moved=hit, lang=lang)
    if place in RESERVE:
        return on_top(place, view.reserve[RESERVE.index(place)], "playable" if place in sources else "plain")
    if place == STOCK:
        emphasis, edge, style = mark["playable" if view.stock_live else "plain"]  # live: turn (R9)
        label = _label(t(lang, "tui.table.stock", n=view.stock_count), style)
        if view.stock_count:
            # The back of the card to be turned next, as at a real table: the decks
            # differ only in their backs (R1), which lie face up on the stock.
            return label, C.back_lines(size, view.stock_count, view.stock_decks[0])
        if view.stock_live:  # redeal (R10)
            return _label(t(lang, "tui.table.redeal"), style), C.empty_lines(size, "↻", emphasis, edge)
        return label, C.empty_lines(size)
    if place == WASTE:
        return on_top(t(lang, "tui.table.waste", n=len(view.waste)), view.waste[-1] if view.waste else None,
                      "playable" if WASTE in sources else "plain")
    raise ValueError(f"unknown place {place!r}")
