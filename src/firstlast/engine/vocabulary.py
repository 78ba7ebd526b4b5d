"""The game's vocabulary, gathered from where the engine declares it: every name a face
says, sends or reads. Nothing is declared here; ``vocabulary()`` is what the page is
given of it (generated into ``static/js/vocabulary.js``), so that no face retypes a name.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import get_args

from .cards import DECK_SIZE, RANK_CHARS, SUIT_CHARS
from .errors import REFUSALS
from .places import FIRST, PILES, PLACE_NAMES, PLACES, RESERVE, SOURCES, STOCK, WASTE, kind
from .position import REDEAL, TABLE_MOVES, TURN, MoveKind
from .rng import MAX_DEAL
from .variant import CANONICAL, MAX_REDEALS, STORED_TOKEN_PATTERN, TOKEN_LETTERS, UNLIMITED_WORDS


def vocabulary() -> dict[str, object]:
    """The engine's vocabulary as plain JSON-able values, by name."""
    return {
        "DECK_SIZE": DECK_SIZE,
        "PLACES": list(PLACE_NAMES),
        "STOCK": STOCK.value,
        "WASTE": WASTE.value,
        "ROWS": {"first": [p.value for p in FIRST], "reserve": [p.value for p in RESERVE],
                 "pile": [p.value for p in PILES]},
        "PLACE_KINDS": {p.value: kind(p) for p in PLACES},
        "SOURCES": [p.value for p in PLACES if p in SOURCES],
        "MOVE_KINDS": list(get_args(MoveKind)),
        "TABLE_MOVES": list(TABLE_MOVES),
        "TURN": str(TURN),
        "REDEAL": str(REDEAL),
        "VARIANT_TOKEN": f"^{STORED_TOKEN_PATTERN}$",
        "TOKEN_LETTERS": dict(TOKEN_LETTERS),
        "UNLIMITED_WORDS": list(UNLIMITED_WORDS),
        "MAX_REDEALS": MAX_REDEALS,
        "CANONICAL": {**asdict(CANONICAL), "token": CANONICAL.token},
        "MAX_DEAL": str(MAX_DEAL),  # text: a JSON number loses digits past 2^53 in a browser
        "DEAL_DIGITS": len(str(MAX_DEAL)),
        "RANK_CHARS": RANK_CHARS,
        "SUIT_CHARS": SUIT_CHARS,
        "REFUSALS": {code: {"rule": code.partition(".")[0], "params": list(params)}
                     for code, params in REFUSALS.items()},
    }
