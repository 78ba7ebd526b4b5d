"""What a face asks the play layer to do to a game: one typed command per action.

A face makes a command from what the player did (a route's body, a key) and hands it to
``PlayService.act``, which decides it in one place (a ``match`` on the command, in the
write job). Each command checks its own argument when it is made: a bad one is refused
(``move.invalid``) before anything is queued to the writer.

``command(name, argument)`` makes one from an action's name, for a face that holds its
actions by name (a key binding table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from ..engine import InvalidMoveError, Move
from .errors import PlayError

ActionName = Literal["move", "step", "advance", "undo", "redo", "restart"]
ACTION_NAMES: Final[tuple[ActionName, ...]] = ("move", "step", "advance", "undo", "redo", "restart")
#: ``Steps`` makes at most this many forced moves in one call (a whole game is ~1,000).
MAX_STEPS: Final = 100_000


@dataclass(frozen=True, slots=True)
class MakeMove:
    """One move, as the player chose it."""

    move: Move
    name: ClassVar[ActionName] = "move"
    takes_back: ClassVar[bool] = False  # its movements deal cards out, not back

    @classmethod
    def parse(cls, text: object) -> MakeMove:
        """The move written ``text`` in the engine's notation (``turn``, ``redeal``,
        ``R1``…``R8``, ``F1``…``F8``, ``W``); ``move.invalid`` if it is none."""
        if isinstance(text, Move):
            return cls(text)
        if not isinstance(text, str):
            raise PlayError("move.invalid", reason="a move is turn, redeal, R1–R8, F1–F8 or waste")
        try:
            return cls(Move.parse(text))
        except InvalidMoveError as e:
            # The engine's code and parameters travel on, so a face can word it (i18n.invalid_text).
            raise PlayError("move.invalid", reason=str(e), invalid=e.code, **e.params) from None


@dataclass(frozen=True, slots=True)
class Steps:
    """Up to ``n`` forced moves (R9: play is forced)."""

    n: int = 1
    name: ClassVar[ActionName] = "step"
    takes_back: ClassVar[bool] = False

    def __post_init__(self) -> None:
        _whole_steps(self.n)

    @classmethod
    def of(cls, n: object) -> Steps:
        """``Steps(n)`` for any ``n`` a face was given: ``move.invalid`` unless it is a
        whole number 1 … ``MAX_STEPS``."""
        return cls(_whole_steps(n))


def _whole_steps(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_STEPS:
        raise PlayError("move.invalid", reason=f"steps must be a whole number 1…{MAX_STEPS}")
    return n


@dataclass(frozen=True, slots=True)
class Advance:
    """Turn until a card fits (docs/play.md, "Actions")."""

    name: ClassVar[ActionName] = "advance"
    takes_back: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Undo:
    """Take the last move back."""

    name: ClassVar[ActionName] = "undo"
    takes_back: ClassVar[bool] = True  # its movements put the cards back


@dataclass(frozen=True, slots=True)
class Redo:
    """Make the move last taken back again."""

    name: ClassVar[ActionName] = "redo"
    takes_back: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Restart:
    """Back to the deal (a finished game: a new attempt)."""

    name: ClassVar[ActionName] = "restart"
    takes_back: ClassVar[bool] = True  # a rewind's movements put the cards back


Command = MakeMove | Steps | Advance | Undo | Redo | Restart


def command(name: str, argument: str | int | Move | None = None) -> Command:
    """The command of the action called ``name`` (``ActionName``), with its argument: the
    move for ``move``, how many for ``step`` (1 by default)."""
    if name == "move":
        return MakeMove.parse(argument)
    if name == "step":
        return Steps.of(1 if argument is None else argument)
    if name == "advance":
        return Advance()
    if name == "undo":
        return Undo()
    if name == "redo":
        return Redo()
    if name == "restart":
        return Restart()
    raise PlayError("move.invalid", reason=f"not an action: {name!r}")
