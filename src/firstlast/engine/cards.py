"""Cards of the 104-card double deck (R1) and their notation.

A card is an integer 0…103: its index in the unshuffled order of docs/rules.md §4.4
(deck 1 then deck 2; clubs, diamonds, hearts, spades; A, 2, …, K). ``Card`` is an
``int`` subclass so that cards are cheap, hashable and sort in that order.
"""

from __future__ import annotations

from typing import Final

RANK_CHARS: Final = "A23456789TJQK"
SUIT_CHARS: Final = "cdhs"
DECK_SIZE: Final = 104


class Card(int):
    """One physical card. ``rank`` is 1 (ace) … 13 (king); ``suit`` 0…3 (c d h s);
    ``deck`` 1 or 2 (decks matter only for the colour of the back)."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < DECK_SIZE:
            raise ValueError(f"card index out of range 0…103: {index}")
        return super().__new__(cls, index)

    @property
    def rank(self) -> int:
        return int(self) % 13 + 1

    @property
    def suit(self) -> int:
        return (int(self) % 52) // 13

    @property
    def deck(self) -> int:
        return int(self) // 52 + 1

    @property
    def red(self) -> bool:
        return self.suit in (1, 2)

    @property
    def symbol(self) -> str:
        """Plain notation, ``Th``: rank char then suit char. Both decks look alike."""
        return RANK_CHARS[self.rank - 1] + SUIT_CHARS[self.suit]

    @property
    def token(self) -> str:
        """Notation that also names the deck: suit lower-case for deck 1, upper for deck 2."""
        s = SUIT_CHARS[self.suit]
        return RANK_CHARS[self.rank - 1] + (s if self.deck == 1 else s.upper())

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Card({self.token!r})"

    @classmethod
    def from_token(cls, token: str) -> Card:
        """Parse ``5h`` (deck 1), ``5H`` (deck 2): the rank exactly as ``RANK_CHARS``
        writes it (``t5`` is not ten-five), then the suit, whose case names the deck."""
        rank = RANK_CHARS.find(token[:1]) if len(token) == 2 else -1
        suit = SUIT_CHARS.find(token[1:].lower()) if token[1:].isascii() else -1
        if rank < 0 or suit < 0:
            raise ValueError(f"not a card: {clip(token)!r} (expected rank A23456789TJQK then suit cdhs or CDHS)")
        deck = 1 if token[1].islower() else 2
        return CARDS[(deck - 1) * 52 + suit * 13 + rank]


#: Every card, by index: ``CARDS[i]`` is the canonical instance of ``Card(i)``.
CARDS: Final[tuple[Card, ...]] = tuple(Card.__new__(Card, i) for i in range(DECK_SIZE))


def rank_char(rank: int) -> str:
    """``rank_char(10) == 'T'``."""
    return RANK_CHARS[rank - 1]


def next_rank(rank: int) -> int:
    """The rank after ``rank``, wrapping from King to Ace (R4)."""
    return rank % 13 + 1


def is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts '²' and other scripts' digits."""
    return text.isascii() and text.isdigit()


#: Most significant digits a whole number read from text may have. Python's ``int()``
#: refuses more than 4,300 (a plain ``ValueError``); the readers check this first.
MAX_DIGITS: Final = 4000


def clip(text: str, width: int = 40) -> str:
    """``text`` cut for an error message: long input stays one short line, as ``repr``
    writes it too (a control character or a rare letter is an escape of up to ten)."""
    cut = text[:width]
    while len(repr(cut)) > width + 2:
        cut = cut[:-1]
    return text if cut == text else f"{cut}… ({len(text):,} characters)"


def parse_whole(text: str, max_value: int | None = None) -> int:
    """``text`` as a whole number: ASCII digits only (leading zeros allowed), at most
    ``MAX_DIGITS`` significant digits (checked *before* ``int()``) and at most
    ``max_value`` when given. ``ValueError`` with a one-line message otherwise."""
    if not is_number(text):
        raise ValueError(f"not a whole number in digits 0-9: {clip(text)!r}")
    digits = text.lstrip("0") or "0"
    limit = MAX_DIGITS if max_value is None else min(MAX_DIGITS, len(str(max_value)))
    if len(digits) > limit:
        raise ValueError(f"number too large: {clip(text)} ({len(digits):,} digits)"
                         + ("" if max_value is None else f", at most {max_value}"))
    value = int(digits)
    if max_value is not None and value > max_value:
        raise ValueError(f"number too large: {clip(text)}, at most {max_value}")
    return value
