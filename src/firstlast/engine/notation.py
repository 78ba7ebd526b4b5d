"""Position notation: one line of text that *is* the position (like chess FEN), eight
space-separated fields (``_FIELDS``, docs/notation.md). The reader takes exactly what
``position_to_text`` writes, nothing looser: each position has one text, so notation
can be compared, cached and pasted as it is.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from .cards import DECK_SIZE, Card, clip, next_rank, parse_whole
from .errors import InvalidNotationError, InvalidPositionError
from .places import FIRST
from .places import PILES as PILE_PLACES
from .position import PILE_SIZE, PILES, Position
from .rng import RngState
from .variant import Variant

#: Lower-case hex, as written: int(w, 16) would also take '0x…', '_', a sign, other
#: scripts' digits and upper case, and the same state would have several texts.
_HEX_WORD = re.compile(r"[0-9a-f]{16}")
#: A count as written: no sign, no leading zero.
_COUNT = re.compile(r"0|[1-9][0-9]*")
#: Everything notation is made of; anything else (a tab, NBSP, U+2003, a line end) is
#: named in the refusal rather than read as a separator.
_CHARS = re.compile(r"[0-9A-Za-z./ -]*")
_FIELDS: Final = "first reserve piles stock waste redeals variant rng"


def _cards(cards: tuple[Card | None, ...]) -> str:
    return "".join("--" if c is None else c.token for c in cards)


def position_to_text(pos: Position) -> str:
    return " ".join([
        _cards(pos.first),
        _cards(pos.reserve),
        "/".join(_cards(p) for p in pos.piles),
        _cards(pos.stock) or "-",
        _cards(pos.waste) or "-",
        str(pos.redeals_used),
        pos.variant.token,
        ".".join(f"{w:016x}" for w in pos.rng),
    ])


def _parse_cards(field: str, name: str, gaps: bool, empty: str = "-") -> list[Card | None]:
    """The cards of one field; ``empty``: how the field writes no cards (``-`` for the
    stock and the waste, nothing for a pile)."""
    if field == empty:
        return []
    if len(field) > 2 * DECK_SIZE:
        raise InvalidNotationError(f"{name}: {len(field):,} characters, more than {DECK_SIZE} cards")
    if len(field) % 2:
        raise InvalidNotationError(f"{name}: odd number of characters in {clip(field)!r}")
    out: list[Card | None] = []
    for i in range(0, len(field), 2):
        tok = field[i:i + 2]
        if tok == "--":
            if not gaps:
                raise InvalidNotationError(f"{name}: gaps ('--') are not allowed here")
            out.append(None)
            continue
        try:
            out.append(Card.from_token(tok))
        except ValueError as e:
            raise InvalidNotationError(f"{name}: {e}") from None
    return out


def _solid(cards: list[Card | None]) -> tuple[Card, ...]:
    return tuple(c for c in cards if c is not None)


def position_from_text(text: str) -> Position:
    """Parse and validate position notation: ``InvalidNotationError`` for text that is
    not notation (docs/notation.md), ``InvalidPositionError`` for a position that cannot
    occur."""
    if _CHARS.fullmatch(text) is None:
        c = next(ch for ch in text if _CHARS.fullmatch(ch) is None)
        raise InvalidNotationError(f"character U+{ord(c):04X} is not part of position notation"
                                   " (letters, digits, '-', '/', '.', and single spaces between the fields)")
    fields = text.split(" ") if text else []
    if "" in fields:
        raise InvalidNotationError("the fields are separated by single spaces, with none at the start or the end")
    if len(fields) != 8:
        raise InvalidNotationError(f"expected 8 space-separated fields ({_FIELDS}), got {len(fields)}")
    f_first, f_reserve, f_piles, f_stock, f_waste, f_redeals, f_variant, f_rng = fields
    first = _parse_cards(f_first, "first row", gaps=True)
    reserve = _parse_cards(f_reserve, "reserve", gaps=True)
    if len(first) != PILES or len(reserve) != PILES:
        raise InvalidNotationError("the first row and the reserve must each have 8 places")
    pile_fields = f_piles.split("/")
    if len(pile_fields) != PILES:
        raise InvalidNotationError(f"expected 8 piles separated by '/', got {len(pile_fields)}")
    for i, p in enumerate(pile_fields):
        if p == "-":
            raise InvalidNotationError(f"{PILE_PLACES[i]}: an empty pile is written as nothing between the '/'"
                                       " ('-' is an empty stock or waste)")
        if len(p) > 2 * PILE_SIZE:  # checked before reading: a pile holds at most 13 cards (R5)
            raise InvalidPositionError(f"{PILE_PLACES[i]}: {len(p):,} characters, but a pile holds at most"
                                       f" {PILE_SIZE} cards (R5)")
    piles = tuple(_solid(_parse_cards(p, f"pile {PILE_PLACES[i]}", gaps=False, empty=""))
                  for i, p in enumerate(pile_fields))
    stock = _solid(_parse_cards(f_stock, "stock", gaps=False))
    waste = _solid(_parse_cards(f_waste, "waste", gaps=False))
    try:
        variant = Variant.from_token(f_variant)
    except ValueError as e:
        raise InvalidNotationError(str(e)) from None
    if variant.token != f_variant:  # 'r03': the same variant as 'r3', written otherwise
        raise InvalidNotationError(f"variant: {clip(f_variant)!r} is written {variant.token!r}")
    if not _COUNT.fullmatch(f_redeals):
        raise InvalidNotationError(f"redeals used must be a whole number in digits 0-9, no leading zero,"
                                   f" not {clip(f_redeals)!r}")
    try:
        redeals_used = parse_whole(f_redeals)  # the length is bounded before int()
    except ValueError as e:
        raise InvalidNotationError(f"redeals used must be a whole number: {e}") from None
    words = f_rng.split(".")
    if len(words) != 4 or not all(_HEX_WORD.fullmatch(w) for w in words):
        raise InvalidNotationError("rng: expected four 16-digit lower-case hex words separated by '.'")
    rng: RngState = (int(words[0], 16), int(words[1], 16), int(words[2], 16), int(words[3], 16))
    pos = Position(tuple(first), tuple(reserve), stock, waste, piles, redeals_used, rng, variant)
    validate(pos)
    return pos


def validate(pos: Position) -> None:
    """Check that ``pos`` can occur in play; raise ``InvalidPositionError`` if not."""
    every = [c for row in (pos.first, pos.reserve, pos.stock, pos.waste, *pos.piles) for c in row if c is not None]
    if len(every) != DECK_SIZE or len(set(every)) != DECK_SIZE:  # E6
        twice = sorted(c.token for c, n in Counter(every).items() if n > 1)
        detail = f"; named twice: {', '.join(twice)}" if twice else ""
        raise InvalidPositionError(
            f"the position must hold each of the 104 cards once, it holds {len(every)}{detail} (E6)"
        )
    if not any(pos.rng):
        raise InvalidPositionError("rng: the all-zero state is not a generator state")
    if pos.variant.redeals is not None and pos.redeals_used > pos.variant.redeals:
        raise InvalidPositionError(f"{pos.redeals_used} redeals used but the variant allows {pos.variant.redeals} (V1)")
    if len(pos.first) != PILES or len(pos.reserve) != PILES or len(pos.piles) != PILES:
        raise InvalidPositionError("the first row, the reserve and the piles must each have 8 places")
    active = pos.active
    for i, pile in enumerate(pos.piles):
        name = PILE_PLACES[i]
        if len(pile) > PILE_SIZE:
            raise InvalidPositionError(f"{name} holds {len(pile)} cards, but a pile holds at most {PILE_SIZE} (R5)")
        if active is not None and i > active and pile:
            raise InvalidPositionError(f"{name} has cards but {PILE_PLACES[active]} is not complete (R3)")
        complete = len(pile) == PILE_SIZE
        base = pile[-1] if complete else pos.first[i]
        if complete and pos.first[i] is not None:
            raise InvalidPositionError(f"{name} is complete, so {FIRST[i]} must be empty (R5)")
        if not complete and base is None:
            if i == PILES - 1 and i != active and not pos.stock and not pos.waste:
                continue  # F8 may be a gap once stock and waste are empty (R7)
            raise InvalidPositionError(f"{FIRST[i]} is empty but {name} is not complete (R5)")
        assert base is not None
        rank = base.rank
        for j, card in enumerate(pile[:PILE_SIZE - 1]):
            rank = next_rank(rank)
            if card.rank != rank:
                raise InvalidPositionError(f"{name}: card {j + 1} is {card} but R4 wants rank {rank} there")
    if (None in pos.reserve) and (pos.stock or pos.waste):
        raise InvalidPositionError("a reserve gap with cards in stock or waste: R7 would have filled it (E5)")
