"""The pure rules engine of First and Last: no I/O, no globals, no UI.

``Position`` is the rules (R1–R11, V1–V3, docs/rules.md); ``Game`` adds undo and redo,
``play_out`` a deal's result along the forced line; ``places`` names the table's places
(docs/notation.md, "Places"). An example, run as a test: README.md, "From Python".
"""

from . import places
from .cards import CARDS, DECK_SIZE, RANK_CHARS, SUIT_CHARS, Card, rank_char
from .errors import (
    FirstLastError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidNotationError,
    InvalidPositionError,
    RecordError,
)
from .game import Game, Outcome, Step, play_out
from .notation import position_from_text, position_to_text, validate
from .places import PLACE_NAMES, PLACES, SOURCES, Place, PlaceKind
from .position import REDEAL, TURN, Move, Movement, Position, Status
from .rng import MAX_DEAL
from .variant import CANONICAL, MAX_REDEALS, Variant, parse_redeals

__all__ = [
    "CANONICAL", "CARDS", "DECK_SIZE", "MAX_DEAL", "MAX_REDEALS", "PLACES", "PLACE_NAMES", "RANK_CHARS",
    "REDEAL", "SOURCES", "SUIT_CHARS", "TURN", "Card", "FirstLastError",
    "Game", "IllegalMoveError", "InvalidMoveError", "InvalidNotationError", "InvalidPositionError",
    "Move", "Movement", "Outcome", "Place", "PlaceKind", "Position", "RecordError", "Status",
    "Step", "Variant", "parse_redeals", "places", "play_out",
    "position_from_text", "position_to_text", "rank_char", "validate",
]
