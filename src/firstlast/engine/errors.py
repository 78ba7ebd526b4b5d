"""Errors, split python-chess style: bad syntax versus not allowed here."""

from __future__ import annotations

from typing import Final

from .cards import clip


class FirstLastError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidMoveError(FirstLastError):
    """The text is not a move at all (e.g. ``R9``, ``xyz``). ``code`` and ``params``
    say which syntax was broken, for faces that word it themselves."""

    def __init__(self, message: str, code: str = "move.syntax",
                 params: dict[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, str | int] = params or {}


class InvalidPlaceError(InvalidMoveError):
    """Text that names no place of the table (``places.parse_place``): code
    ``place.unknown``, parameter ``text`` (the text, cut to one short line)."""

    def __init__(self, text: str) -> None:
        shown = clip(text)
        super().__init__(
            f"not a place: {shown!r} (expected stock, waste, F1–F8, R1–R8 or P1–P8)",
            "place.unknown", {"text": shown},
        )


#: Every refusal of the rules: code -> (rule, English template). The code and its
#: parameters are the refusal; the sentence is one rendering of it, so faces can say it
#: in their own language without reading it. Parameters: ``card`` (notation, e.g.
#: ``Qh``), ``pile``/``place``/``source``/``base`` (a place's one name, ``places.PLACE_NAMES``:
#: ``P1``, ``R3``, ``F8``, ``waste``), ``where`` (English only: the place, or "the waste"),
#: ``need`` (rank 1…13) and ``need_phrase`` (English only).
REFUSALS: Final[dict[str, tuple[str, str]]] = {
    "R11.won": ("R11", "the game is over: all piles are complete (R11)"),
    "R11.stuck": ("R11", "the game is over: nothing fits and nothing is left to turn (R11)"),
    "R9.play_before_turn": ("R9", "a card that fits must be played before turning (R9)"),
    "R9.stock_empty": ("R9", "the stock is empty: nothing to turn (R9); redeal instead (R10)"),
    "R9.play_before_redeal": ("R9", "a card that fits must be played before redealing (R9)"),
    "R10.stock_left": ("R10", "redeal only when the stock is empty (R10)"),
    "R10.waste_empty": ("R10", "nothing to redeal: the waste is empty (R10)"),
    "R10.none_left": ("R10", "no redeals left (R10, V1)"),
    "R6.waste": ("R6", "the waste's top card is not a source in these rules (R6; variant V2 allows it)"),
    "R5.done": ("R5", "{source} is already on its pile {pile} (R5)"),
    "R5.early": ("R5", "{source} goes onto {pile} only as its 13th card, when the pile holds 12 (R5)"),
    "V3.not_privileged": ("V3", "the last first-row card is not privileged in this variant (V3)"),
    "R8.fixed": ("R8", "first-row cards never move, except the privileged last card (R8) and a full pile's own "
                       "base (R5)"),
    "R6.empty": ("R6", "{where} is empty"),
    "R5.base_only": ("R5", "{pile} holds 12 cards: its 13th card is {base} itself, never another card of that rank"
                           " (R5)"),
    "R4.rank": ("R4", "{card} does not fit {pile}, which needs {need_phrase} (R4)"),
    "R8.first": ("R8", "the privileged card {card} at F8 must go first (R8)"),
}


class IllegalMoveError(FirstLastError):
    """A well-formed move that the rules forbid in this position: ``rule`` names the rule,
    ``code`` (a key of ``REFUSALS``) and ``params`` say exactly why."""

    def __init__(self, message: str, rule: str, code: str | None = None,
                 params: dict[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.code = code or rule
        self.params: dict[str, str | int] = params or {}

    @classmethod
    def of(cls, code: str, **params: str | int) -> IllegalMoveError:
        """The refusal ``code`` with its parameters, its sentence made from them."""
        rule, template = REFUSALS[code]
        return cls(template.format(**params), rule, code, params)


class InvalidPositionError(FirstLastError):
    """Position notation that cannot be read, or describes a position that cannot occur."""


class InvalidNotationError(InvalidPositionError):
    """Position notation that cannot be read at all: not the syntax of docs/notation.md
    (fields, separators, card letters, numbers, hex). A position that reads but cannot
    occur is a plain ``InvalidPositionError``."""


class RecordError(FirstLastError):
    """A game record that is corrupt or tampered with; ``line`` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None, *, move: int | None = None,
                 token: str | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        self.reason = message
        #: For a move the rules refused or could not read: its number and its text (the
        #: engine's error is the ``__context__``), so that a face can word it itself.
        self.move = move
        self.token = token


class EmptyRecordError(RecordError):
    """A record with nothing in it (no text, or only blanks and line ends), which a face
    may word apart from a damaged one."""

    def __init__(self) -> None:
        super().__init__("the record is empty")
