"""Position notation: one line of text that *is* the position (like chess FEN).

Eight space-separated fields (documented in docs/notation.md)::

    <first> <reserve> <piles> <stock> <waste> <redeals used> <variant> <rng>

Cards are two characters, rank then suit (``Th``); a lower-case suit is a deck-1 card,
an upper-case suit a deck-2 card, so each of the 104 cards is named exactly once. A gap
is ``--``; an empty stock or waste is ``-``; piles are separated by ``/``. The stock is
listed in turning order, the waste from bottom to top. The rng field is the generator
state (four 64-bit words in hex) that the next redeal continues.
"""

from __future__ import annotations

import re
from collections import Counter

from .cards import DECK_SIZE, Card, clip, next_rank, parse_whole
from .errors import InvalidPositionError
from .places import FIRST
from .places import PILES as PILE_PLACES
from .position import PILE_SIZE, PILES, Position
from .rng import RngState
from .variant import Variant

_HEX_WORD = re.compile(r"[0-9a-fA-F]{16}")


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


def _parse_cards(field: str, name: str, gaps: bool) -> list[Card | None]:
    if field == "-":
        return []
    if len(field) > 2 * DECK_SIZE:
        raise InvalidPositionError(f"{name}: {len(field):,} characters, more than {DECK_SIZE} cards")
    if len(field) % 2:
        raise InvalidPositionError(f"{name}: odd number of characters in {clip(field)!r}")
    out: list[Card | None] = []
    for i in range(0, len(field), 2):
        tok = field[i:i + 2]
        if tok == "--":
            if not gaps:
                raise InvalidPositionError(f"{name}: gaps ('--') are not allowed here")
            out.append(None)
            continue
        try:
            out.append(Card.from_token(tok))
        except ValueError as e:
            raise InvalidPositionError(f"{name}: {e}") from None
    return out


def _solid(cards: list[Card | None]) -> tuple[Card, ...]:
    return tuple(c for c in cards if c is not None)


def position_from_text(text: str) -> Position:
    """Parse and validate position notation; ``InvalidPositionError`` says what is wrong."""
    fields = text.split()
    if len(fields) != 8:
        raise InvalidPositionError(
            "expected 8 space-separated fields (first reserve piles stock waste redeals variant rng),"
            f" got {len(fields)}"
        )
    f_first, f_reserve, f_piles, f_stock, f_waste, f_redeals, f_variant, f_rng = fields
    first = _parse_cards(f_first, "first row", gaps=True)
    reserve = _parse_cards(f_reserve, "reserve", gaps=True)
    if len(first) != PILES or len(reserve) != PILES:
        raise InvalidPositionError("the first row and the reserve must each have 8 places")
    pile_fields = f_piles.split("/")
    if len(pile_fields) != PILES:
        raise InvalidPositionError(f"expected 8 piles separated by '/', got {len(pile_fields)}")
    for i, p in enumerate(pile_fields):
        if len(p) > 2 * PILE_SIZE:  # checked before reading: a pile holds at most 13 cards (R5)
            raise InvalidPositionError(f"{PILE_PLACES[i]}: {len(p):,} characters, but a pile holds at most"
                                       f" {PILE_SIZE} cards (R5)")
    piles = tuple(_solid(_parse_cards(p or "-", f"pile {PILE_PLACES[i]}", gaps=False))
                  for i, p in enumerate(pile_fields))
    stock = _solid(_parse_cards(f_stock, "stock", gaps=False))
    waste = _solid(_parse_cards(f_waste, "waste", gaps=False))
    try:
        variant = Variant.from_token(f_variant)
    except ValueError as e:
        raise InvalidPositionError(str(e)) from None
    try:
        redeals_used = parse_whole(f_redeals)  # the length is bounded before int()
    except ValueError as e:
        raise InvalidPositionError(f"redeals used must be a whole number: {e}") from None
    words = f_rng.split(".")
    # Hex digits only: int(w, 16) would also take '0x…', '_', a sign or other scripts' digits.
    if len(words) != 4 or not all(_HEX_WORD.fullmatch(w) for w in words):
        raise InvalidPositionError("rng: expected four 16-digit hex words separated by '.'")
    rng: RngState = (int(words[0], 16), int(words[1], 16), int(words[2], 16), int(words[3], 16))
    pos = Position(tuple(first), tuple(reserve), stock, waste, piles, redeals_used, rng, variant)
    validate(pos)
    return pos


def validate(pos: Position) -> None:
    """Check that ``pos`` can occur in play; raise ``InvalidPositionError`` if not."""
    every = [c for c in (*pos.first, *pos.reserve, *pos.stock, *pos.waste) if c is not None]
    for pile in pos.piles:
        every.extend(pile)
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
