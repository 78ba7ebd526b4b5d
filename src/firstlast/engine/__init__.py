"""The pure rules engine of First and Last: no I/O, no globals, no UI.

``Position`` is the rules (R1–R11, V1–V3, docs/rules.md); ``Game`` adds undo and redo,
``play_out`` a deal's result along the forced line. Faster implementations elsewhere
(the compiled kernel in ``firstlast.odds``) are derived from it and tested against it.

>>> from firstlast.engine import Game
>>> game = Game(1)
>>> " ".join(str(c) for c in game.position.first)
'Jc 5d As Qh 9h Kc Jc 9s'
"""

from .cards import CARDS, DECK_SIZE, RANK_CHARS, RANK_CHARS_RU, SUIT_CHARS, Card, rank_char
from .errors import (
    FirstLastError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    RecordError,
)
from .fastplay import Outcome, play_out
from .game import Game, Step
from .notation import position_from_text, position_to_text, validate
from .position import REDEAL, TURN, Move, Movement, Position, Status
from .rng import MAX_DEAL
from .variant import CANONICAL, Variant, parse_redeals

__all__ = [
    "CANONICAL", "CARDS", "DECK_SIZE", "MAX_DEAL", "RANK_CHARS", "RANK_CHARS_RU", "REDEAL",
    "SUIT_CHARS", "TURN", "Card", "FirstLastError", "Game", "IllegalMoveError",
    "InvalidMoveError", "InvalidPositionError", "Move", "Movement", "Outcome", "Position",
    "RecordError", "Status", "Step", "Variant", "parse_redeals", "play_out",
    "position_from_text", "position_to_text", "rank_char", "validate",
]
