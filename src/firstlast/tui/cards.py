"""Drawing cards as boxed, coloured text in four sizes. A face carries its own ivory
background, so that it reads on dark and light terminals alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from rich.style import Style
from rich.text import Text

from ..engine import Card
from ..engine.cards import SUIT_CHARS
from ..i18n import SUIT_GLYPHS, t

#: A suit's glyph by the card's suit number (``i18n.SUIT_GLYPHS``).
SUIT_SYMBOLS: Final = tuple(SUIT_GLYPHS[c] for c in SUIT_CHARS)

FACE: Final = "#f4f1e6"
RED: Final = "#c40c2a"
BLACK: Final = "#151515"
EDGE: Final = "#8a8a80"
# The decks differ only in their backs (R1): burgundy for deck 1, dark blue for deck 2,
# as in the browser game.
BACK: Final = "#7b1e2e"
BACK_2: Final = "#1b2f5e"
#: The face of the card(s) the last action moved, so autoplay can be followed.
FACE_MOVED: Final = "#fff0a8"
#: The four-colour deck's inks (settings.four_colour): diamonds blue, clubs green, on
#: the face; and brighter ones for the side bar's dark background.
INK4: Final = {0: "#17702e", 1: "#1747a6"}
INK4_BRIGHT: Final = {0: "#5fd37a", 1: "#7fb0ff"}

class Felt(NamedTuple):
    """A felt's colours: the table's, its labels', the outline of an empty place, and
    the marks' (active, playable, privileged), the same on the dark felts."""

    cloth: str
    label: str
    outline: str
    active: str = "#ffd24a"
    playable: str = "#3fe05a"
    privileged: str = "#ff9f1c"


#: The terminal's felts (settings.felt, the page's four); the marks are darker on the
#: light paper so that they still read there.
FELTS: Final = {
    "green": Felt("#0b4d22", "#cfe8d4", "#3f8f5a"),
    "blue": Felt("#0f3a5e", "#d6e4f2", "#5384b3"),
    "night": Felt("#17191d", "#dcdee2", "#5f6675"),
    "paper": Felt("#efe6cf", "#2a2418", "#8a7650", "#8a4b00", "#17692c", "#a33f00"),
}


@dataclass(slots=True)
class Look:
    """How the terminal draws the table now: the player's felt, deck and marks on the
    cards that can be played (``set_look``); the paper felt is drawn with a light theme."""

    felt: str = "green"
    four_colour: bool = False
    marks: bool = True

    @property
    def colours(self) -> Felt:
        return FELTS[self.felt]

    @property
    def light(self) -> bool:
        return self.felt == "paper"


#: The side bar's and title's tones on the dark felts, and their darker twins on paper.
TONES: Final = {
    "key": ("#9fc7a8", "#4a4232"), "soft": ("#b8d8c0", "#4f4636"), "gold": ("#ffd24a", "#8a4b00"),
    "bad": ("#ff8a8a", "#a3271b"), "info": ("#8fd3ff", "#1a5c8a"), "help": ("#8fb79a", "#4a4232"),
}


def tone(name: str) -> str:
    """A side bar or title colour (``TONES``) for the felt of the moment."""
    dark, light = TONES[name]
    return light if LOOK.light else dark


#: The look of this terminal's table: set from the settings (``set_look``) by the app.
LOOK: Final = Look()


def set_look(felt: str, four_colour: bool, marks: bool = True) -> None:
    """Draw with the player's felt, deck and marks (``show_playable``) from now on."""
    LOOK.felt = felt if felt in FELTS else "green"
    LOOK.four_colour = four_colour
    LOOK.marks = marks


def ink(card: Card, bright: bool = False) -> str:
    """The colour of ``card``'s rank and suit: red or black, or (four-colour deck) blue
    diamonds and green clubs; ``bright`` for a dark background."""
    if LOOK.four_colour and card.suit in (0, 1):
        return (INK4_BRIGHT if bright else INK4)[card.suit]
    if bright:
        return "#ff5a6e" if card.red else ("#1d1a14" if LOOK.light else "#e8e8e8")
    return RED if card.red else BLACK


@dataclass(frozen=True, slots=True)
class CardSize:
    """A card's outer width and height in cells."""

    width: int
    height: int


SMALL: Final = CardSize(5, 3)
MEDIUM: Final = CardSize(7, 5)
LARGE: Final = CardSize(9, 7)
HUGE: Final = CardSize(11, 9)
SIZES: Final = (SMALL, MEDIUM, LARGE, HUGE)
#: Card widths the table may use; a card may be wider than its height's size when the
#: terminal is wide but not tall (at most ``MAX_EXTRA_WIDTH`` wider).
WIDTHS: Final = (5, 7, 9, 11, 13)
MAX_EXTRA_WIDTH: Final = 4

# Box characters by emphasis: plain edge, playable (heavy), active pile (double).
_BOXES: Final = {
    "plain": "┌┐└┘─│",
    "heavy": "┏┓┗┛━┃",
    "double": "╔╗╚╝═║",
    "dashed": "┌┐└┘╌╎",
}


def rank_text(rank: int, lang: str = "en") -> str:
    """Rank ``rank`` as a card's corner says it in ``lang``: ``Q`` in English, ``Д`` in Russian."""
    return t(lang, f"rank.{rank}.short")


def pretty(card: Card, lang: str = "en") -> str:
    """``10♥`` (``Д♦`` in Russian): the card as a player reads it."""
    return rank_text(card.rank, lang) + SUIT_SYMBOLS[card.suit]


def pretty_text(card: Card | None, lang: str = "en") -> Text:
    """``pretty`` in the card's colour, for side bars and messages; ``--`` for an empty place."""
    if card is None:
        return Text("--", style="dim")
    # The face's inks on the paper felt's light side bar, brighter ones on the dark felts.
    return Text(pretty(card, lang), style=Style(color=ink(card, bright=not LOOK.light), bold=True))


def _frame(width: int, box: str, edge: Style, fill: Style, inner: list[tuple[str, Style]],
           footer: str = "") -> list[Text]:
    """A box ``width`` wide around ``inner``, a styled text a row, padded with ``fill``;
    ``footer`` is written into the bottom edge (cut to fit)."""
    tl, tr, bl, br, hz, vt = tuple(box)
    lines = [Text(tl + hz * (width - 2) + tr, style=edge)]
    for chunk, style in inner:
        pad = " " * max(0, width - 2 - len(chunk))
        lines.append(Text.assemble(vt, (chunk, style), (pad, fill), (vt, edge), style=edge))
    lines.append(Text(bl + footer[:width - 2].center(width - 2, hz) + br, style=edge))
    return lines


def card_lines(card: Card, size: CardSize, emphasis: str = "plain", edge_color: str = EDGE,
               footer: str = "", moved: bool = False, lang: str = "en") -> list[Text]:
    """The face of ``card`` as ``size.height`` lines of ``size.width`` cells;
    ``footer`` goes in the bottom edge (a pile's depth), ``moved`` tints the face;
    ``lang``: the language of the rank letters."""
    w, h = size.width, size.height
    iw = w - 2
    face = FACE_MOVED if moved else FACE
    fill = Style(bgcolor=face)
    ink_ = Style(color=ink(card), bgcolor=face, bold=True)
    edge = Style(color=edge_color, bgcolor=face, bold=emphasis != "plain")
    label = pretty(card, lang)
    suit = SUIT_SYMBOLS[card.suit]
    rows = [("", fill)] * (h - 2)
    if h == 3:
        rows[0] = (label.rjust(iw), ink_)
    else:
        rows[0] = (label, ink_)
        rows[-1] = (label.rjust(iw), ink_)
        mid = (h - 2) // 2
        if size.width >= 11 and h - 2 >= 5:
            # Big cards show the rank large in the middle as well as the pip.
            rows[mid - 1] = (suit.center(iw), ink_)
            rows[mid] = (rank_text(card.rank, lang).center(iw), ink_)
            rows[mid + 1] = (suit.center(iw), ink_)
        else:
            rows[mid] = (suit.center(iw), ink_)
    return _frame(w, _BOXES[emphasis], edge, fill, rows, footer)


def depth_footer(depth: int, size: CardSize) -> str:
    """A pile's depth for its card's bottom edge: ``7/13``, or ``7`` on small cards."""
    full = f"{depth}/13"
    return full if len(full) <= size.width - 2 else str(depth)


def back_lines(size: CardSize, count: int, deck: int = 1) -> list[Text]:
    """A face-down card (the stock) with the back of ``deck`` (1 or 2), and a count."""
    w, h = size.width, size.height
    iw = w - 2
    colour = BACK if deck == 1 else BACK_2
    fill = Style(color="#9fb4e8", bgcolor=colour)
    edge = Style(color="#c8d4f0", bgcolor=colour)
    rows = [("░" * iw, fill)] * (h - 2)
    rows[(h - 2) // 2] = (str(count).center(iw, "░")[:iw], Style(color="white", bgcolor=colour, bold=True))
    return _frame(w, _BOXES["plain"], edge, fill, rows)


def empty_lines(size: CardSize, text: str = "", emphasis: str = "dashed", edge_color: str | None = None) -> list[Text]:
    """An empty place on the table: a faint outline (the felt's), optionally with a word inside."""
    w, h = size.width, size.height
    iw = w - 2
    felt = LOOK.colours.cloth
    edge_color = edge_color or LOOK.colours.outline
    fill = Style(bgcolor=felt)
    edge = Style(color=edge_color, bgcolor=felt, bold=emphasis != "dashed")
    rows = [("", fill)] * (h - 2)
    if text:
        rows[(h - 2) // 2] = (text[:iw].center(iw), Style(color=edge_color, bgcolor=felt, bold=True))
    return _frame(w, _BOXES[emphasis], edge, fill, rows)


def table_width(card_width: int) -> int:
    """Columns the table takes with cards ``card_width`` wide (a gap after each, a margin)."""
    return 8 * (card_width + 1) + 3


def choose_size(width: int, height: int, side_width: int) -> CardSize:
    """The biggest card size whose table (8 columns, 4 rows of cards, each with a label
    line) fits a ``width``×``height`` screen beside a side bar of ``side_width``; on a
    screen wider than that size needs, wider cards (up to ``MAX_EXTRA_WIDTH`` more)."""
    best = next((size for size in reversed(SIZES)
                 if width >= table_width(size.width) + side_width and height >= 4 * (size.height + 1) + 5), SMALL)
    wide = max((w for w in WIDTHS if best.width <= w <= best.width + MAX_EXTRA_WIDTH
                and width >= table_width(w) + side_width), default=best.width)
    return CardSize(wide, best.height)
