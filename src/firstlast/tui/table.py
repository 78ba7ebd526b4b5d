"""The table: the widgets that show a position the way the book lays it out.

Everything shown is read from the engine's ``Position`` (``active``, ``need``,
``privileged``, ``legal_moves()``…); nothing here decides what is legal.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..engine import Card, Move, Position
from . import cards as C
from .cards import CardSize

FIRST = tuple(f"F{i}" for i in range(1, 9))
PILES = tuple(f"P{i}" for i in range(1, 9))
RESERVE = tuple(f"R{i}" for i in range(1, 9))
LABEL = Style(color="#cfe8d4", bgcolor=C.FELT)
LABEL_ACTIVE = Style(color=C.ACTIVE, bgcolor=C.FELT, bold=True)
LABEL_PLAYABLE = Style(color=C.PLAYABLE, bgcolor=C.FELT, bold=True)
LABEL_PRIVILEGED = Style(color=C.PRIVILEGED, bgcolor=C.FELT, bold=True)


class Slot(Widget):
    """One place on the table: a label line above a card. Clicking it asks the game
    screen to play from that place (the engine decides whether that is legal)."""

    DEFAULT_CSS = """
    Slot { width: 5; height: 4; margin-right: 1; background: #0b4d22; }
    """

    class Clicked(Message):
        def __init__(self, place: str) -> None:
            super().__init__()
            self.place = place

    def __init__(self, place: str) -> None:
        super().__init__(id=f"slot-{place}")
        self.place = place
        self.label = Text("")
        self.lines: list[Text] = []

    def show(self, label: Text, lines: list[Text]) -> None:
        # A move changes a handful of places; redrawing only those keeps autoplay smooth.
        if label == self.label and lines == self.lines:
            return
        self.label = label
        self.lines = lines
        self.refresh()

    def render(self) -> Text:
        out = Text()
        label = self.label.copy()
        label.truncate(self.size.width or 1, pad=True)
        label.stylize(Style(bgcolor=C.FELT))
        out.append_text(label)
        for line in self.lines:
            out.append("\n")
            out.append_text(line)
        return out

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.place))


class WasteFan(Widget):
    """The top cards of the waste, spread out in a line (top card last), so the player
    sees what the refills (R7) will bring."""

    DEFAULT_CSS = """
    WasteFan { width: 1fr; height: 4; background: #0b4d22; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__(id="waste-fan")
        self.waste: tuple[Card, ...] = ()

    def show(self, waste: tuple[Card, ...]) -> None:
        if waste != self.waste:
            self.waste = waste
            self.refresh()

    def render(self) -> Text:
        out = Text("Waste, top last:", style=LABEL)
        width = max(4, self.size.width)
        line = Text()
        cards = list(self.waste)
        fits = max(1, (width - 2) // 4)
        shown = cards[-fits:]
        if len(cards) > len(shown):
            line.append("… ", style=LABEL)
            shown = shown[1:]
        for i, card in enumerate(shown):
            text = C.pretty_text(card)
            if i == len(shown) - 1:
                text.stylize("reverse")
            line.append_text(text)
            line.append(" ")
        out.append("\n")
        out.append_text(line if cards else Text("empty", style="dim"))
        return out


def _label(text: str, style: Style = LABEL) -> Text:
    return Text(text, style=style)


def paint_slot(place: str, pos: Position, size: CardSize, legal: list[Move]) -> tuple[Text, list[Text]]:
    """Label and card lines for ``place`` in ``pos``."""
    sources = {m.source for m in legal if m.kind == "play"}
    active = pos.active
    if place.startswith("F"):
        i = int(place[1]) - 1
        card = pos.first[i]
        privileged = i == 7 and pos.privileged is not None
        label_text = place + ("★" if privileged else "")
        if place in sources:
            emphasis, edge, style = "heavy", C.PLAYABLE, LABEL_PLAYABLE
        elif i == active:
            emphasis, edge, style = "double", C.ACTIVE, LABEL_ACTIVE
        elif privileged:
            emphasis, edge, style = "heavy", C.PRIVILEGED, LABEL_PRIVILEGED
        else:
            emphasis, edge, style = "plain", C.EDGE, LABEL
        if i == active:
            label_text = place + "▼"
        if card is None:
            return _label(label_text, style), C.empty_lines(size, "↓" if i != active else "")
        return _label(label_text, style), C.card_lines(card, size, emphasis, edge)
    if place.startswith("P"):
        i = int(place[1]) - 1
        pile = pos.piles[i]
        need = pos.need
        if i == active and need is not None:
            text = f"{place}→{C.RANK_LABELS[need - 1]}"
            if size.width >= 7:
                text = f"{place} →{C.RANK_LABELS[need - 1]}"
            if len(text) + 6 <= size.width:
                text += f" {len(pile)}/13"  # room for the count on big cards
            label = _label(text, LABEL_ACTIVE)
            if not pile:
                return label, C.empty_lines(size, "→" + C.RANK_LABELS[need - 1], "double", C.ACTIVE)
            return label, C.card_lines(pile[-1], size, "double", C.ACTIVE)
        done = len(pile) == 13
        label = _label(place + (" ✓" if done else ""), LABEL)
        if not pile:
            return label, C.empty_lines(size)
        return label, C.card_lines(pile[-1], size)
    if place.startswith("R"):
        i = int(place[1]) - 1
        card = pos.reserve[i]
        if card is None:
            return _label(place), C.empty_lines(size)
        if place in sources:
            return _label(place, LABEL_PLAYABLE), C.card_lines(card, size, "heavy", C.PLAYABLE)
        return _label(place), C.card_lines(card, size)
    if place == "stock":
        label = _label(f"Stock {len(pos.stock)}")
        redeal = any(m.kind == "redeal" for m in legal)
        turn = any(m.kind == "turn" for m in legal)
        if pos.stock:
            if turn:
                label = _label(f"Stock {len(pos.stock)}", LABEL_PLAYABLE)
            return label, C.back_lines(size, len(pos.stock))
        if redeal:
            return _label("Redeal", LABEL_PLAYABLE), C.empty_lines(size, "↻", "heavy", C.PLAYABLE)
        return label, C.empty_lines(size)
    if place == "waste":
        label = _label(f"Waste {len(pos.waste)}")
        if not pos.waste:
            return label, C.empty_lines(size)
        top = pos.waste[-1]
        if "W" in sources:
            return _label(f"Waste {len(pos.waste)}", LABEL_PLAYABLE), C.card_lines(top, size, "heavy", C.PLAYABLE)
        return label, C.card_lines(top, size)
    raise ValueError(f"unknown place {place!r}")
