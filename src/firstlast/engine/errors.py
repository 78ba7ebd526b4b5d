"""Errors, split python-chess style: bad syntax versus not allowed here."""

from __future__ import annotations

from typing import Final

from .cards import clip


class FirstLastError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidMoveError(FirstLastError):
    """The text is not a move at all (e.g. ``R9``, ``xyz``). ``code`` and ``params``
    say which syntax was broken, for faces that word it themselves."""

    def __init__(self, message: str, code: str, params: dict[str, str | int]) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def not_a_move(text: str) -> InvalidMoveError:
    """The error for text that is no move word (``Move.parse``, ``record.read_move``)."""
    return InvalidMoveError(f"not a move: {clip(text)!r} (expected turn, redeal, R1–R8, F1–F8 or waste)",
                            "move.syntax", {"text": clip(text)})


#: Every refusal of the rules: code (the rule, a dot, why) -> its parameters. The code and
#: its parameters *are* the refusal; its words are the catalogs' (``refusal.<code>``), so
#: that every face says it alike in its own language. Parameters: ``card`` (notation),
#: ``pile``/``place``/``source``/``base`` (a place's one name) and ``need`` (a rank, 1…13).
REFUSALS: Final[dict[str, tuple[str, ...]]] = {
    "R11.won": (),
    "R11.stuck": (),
    "R9.play_before_turn": (),
    "R9.stock_empty": (),
    "R9.play_before_redeal": (),
    "R10.stock_left": (),
    "R10.waste_empty": (),
    "R10.none_left": (),
    "R6.waste": (),
    "R5.done": ("source", "pile"),
    "R5.early": ("source", "pile"),
    "V3.not_privileged": (),
    "R8.fixed": (),
    "R6.empty": ("place",),
    "R5.base_only": ("pile", "base"),
    "R4.rank": ("card", "pile", "need"),
    "R8.first": ("card",),
}


class IllegalMoveError(FirstLastError):
    """A well-formed move that the rules forbid in this position: ``rule`` names the rule,
    ``code`` (a key of ``REFUSALS``) and ``params`` say exactly why. ``str()`` is
    language-free (``R4.rank (card=8s, pile=P1, need=12)``); the words are ``i18n``'s."""

    def __init__(self, code: str, **params: str | int) -> None:
        names = REFUSALS[code]
        if params.keys() != set(names):
            raise TypeError(f"refusal {code} takes the parameters {names}, not {tuple(params)}")
        shown = ", ".join(f"{name}={params[name]}" for name in names)
        super().__init__(f"{code} ({shown})" if shown else code)
        self.code = code
        self.rule = code.partition(".")[0]
        self.params: dict[str, str | int] = params


class InvalidPositionError(FirstLastError):
    """Position notation that cannot be read, or describes a position that cannot occur."""


class InvalidNotationError(InvalidPositionError):
    """Position notation that cannot be read at all (not the syntax of docs/notation.md)."""


class RecordError(FirstLastError):
    """A game record that is corrupt or tampered with; ``line`` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None, *, move: int | None = None,
                 token: str | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        #: For a move the rules refused or could not read: its number and its text (the
        #: engine's error is the ``__context__``), so that a face can word it itself.
        self.move = move
        self.token = token


class EmptyRecordError(RecordError):
    """A record with nothing in it (no text, or only blanks and line ends), which a face
    may word apart from a damaged one."""
