"""What a face asks the play layer to do to a game: one typed command per action
(docs/play.md, "Actions"). Each checks its argument when it is made (``move.invalid``,
before anything is queued to the writer); its ``apply`` is what it does to a game, and
nothing else decides that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from ..engine import Game, IllegalMoveError, InvalidMoveError, Move, Step, places
from .errors import PlayError, engine_params

ActionName = Literal["move", "step", "advance", "undo", "redo", "restart"]
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
        if not isinstance(text, str):
            raise PlayError("move.invalid", reason="a move is turn, redeal, R1–R8, F1–F8 or waste")
        try:
            return cls(Move.parse(text))
        except InvalidMoveError as e:
            # The engine's code and parameters travel on, so a face can word it (i18n.invalid_text).
            raise PlayError("move.invalid", reason=str(e), **engine_params(e)) from None

    def apply(self, game: Game) -> tuple[Step, ...]:
        try:
            return (Step(self.move, game.push(self.move)),)
        except IllegalMoveError as e:
            raise refusal(self.move, e) from None


@dataclass(frozen=True, slots=True)
class Steps:
    """Up to ``n`` forced moves (R9: play is forced)."""

    n: int = 1
    name: ClassVar[ActionName] = "step"
    takes_back: ClassVar[bool] = False

    def __post_init__(self) -> None:
        n: object = self.n  # as a face was given it: checked, not trusted
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_STEPS:
            raise PlayError("move.invalid", reason=f"steps must be a whole number 1…{MAX_STEPS}")

    def apply(self, game: Game) -> tuple[Step, ...]:
        """Refused once the game is over."""
        _playing(game)
        made: list[Step] = []
        while len(made) < self.n and (s := game.step()) is not None:
            made.append(s)
        return tuple(made)


@dataclass(frozen=True, slots=True)
class Advance:
    """Turn until a card fits (docs/play.md, "Actions")."""

    name: ClassVar[ActionName] = "advance"
    takes_back: ClassVar[bool] = False

    def apply(self, game: Game) -> tuple[Step, ...]:
        _playing(game)
        made: list[Step] = []
        while (move := game.position.forced_move()) is not None:
            if made and move.kind != "turn":
                break
            made.append(step := Step(move, game.push(move)))
            if move.kind != "turn" or any(places.kind(m.target) == "pile" for m in step.movements):
                break
        return tuple(made)


@dataclass(frozen=True, slots=True)
class Undo:
    """Take the last move back."""

    name: ClassVar[ActionName] = "undo"
    takes_back: ClassVar[bool] = True  # its movements put the cards back

    def apply(self, game: Game) -> tuple[Step, ...]:
        if not game.can_undo:
            raise PlayError("undo.empty")
        return (Step(game.moves[-1], game.undo()),)


@dataclass(frozen=True, slots=True)
class Redo:
    """Make the move last taken back again."""

    name: ClassVar[ActionName] = "redo"
    takes_back: ClassVar[bool] = False

    def apply(self, game: Game) -> tuple[Step, ...]:
        if not game.can_redo:
            raise PlayError("redo.empty")
        move = game.redo_moves[0]
        try:
            return (Step(move, game.redo()),)
        except IllegalMoveError as e:
            raise refusal(move, e) from None


@dataclass(frozen=True, slots=True)
class Restart:
    """Back to the deal (a finished game: a new attempt)."""

    name: ClassVar[ActionName] = "restart"
    takes_back: ClassVar[bool] = True  # a rewind's movements put the cards back

    def apply(self, game: Game) -> tuple[Step, ...]:
        """Rewind an unfinished game (its moves can be redone); a finished one is the
        service's (``PlayService``: a new attempt, so that a result is never erased)."""
        undone: list[Step] = []
        while game.can_undo:
            undone.append(Step(game.moves[-1], game.undo()))
        return tuple(undone)


Command = MakeMove | Steps | Advance | Undo | Redo | Restart


def command(name: str, argument: str | int | None = None) -> Command:
    """The command of the action called ``name`` (``ActionName``), with its argument: the
    move for ``move``, how many for ``step`` (1 by default)."""
    if name == "move":
        return MakeMove.parse(argument)
    if name == "step":
        return Steps(1 if argument is None else argument)  # type: ignore[arg-type]  # checked as made
    for plain in (Advance, Undo, Redo, Restart):
        if plain.name == name:
            return plain()
    raise PlayError("move.invalid", reason=f"not an action: {name!r}")


def refusal(move: Move, error: IllegalMoveError) -> PlayError:
    """The play layer's refusal of ``move``, which the engine refused with ``error``."""
    return PlayError("move.illegal", move=str(move), **engine_params(error))


def _playing(game: Game) -> None:
    if game.position.status != "playing":
        raise PlayError("game.over", rule="R11")
