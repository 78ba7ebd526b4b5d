"""A game: its deal number, its variant and its move list, with undo and redo; and
``play_out``, a deal's result along the forced line.

The positions are derived from those three things; ``Game`` keeps every position it
passed through so that undo is instant and redo replays the same random stream.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import NamedTuple

from .errors import FirstLastError
from .position import Move, Movement, Position
from .variant import CANONICAL, Variant


class Step(NamedTuple):
    """A move made, with the card movements it caused (for animation and logs)."""

    move: Move
    movements: tuple[Movement, ...]


class Game:
    """``Game(deal, variant, moves, redo)`` replays ``moves`` (``Move`` or text) from the
    deal; ``redo`` is a line of moves taken back that ``redo()`` would make, next first."""

    def __init__(self, deal: int, variant: Variant = CANONICAL, moves: Iterable[Move | str] = (),
                 redo: Iterable[Move | str] = ()) -> None:
        self.deal = deal
        self.variant = variant
        self._positions: list[Position] = [Position.deal(deal, variant)]
        self._steps: list[Step] = []
        self._redo: list[Move] = []
        for m in moves:
            self.push(m)
        # Moves taken back are checked when redone.
        self._redo = [Move.parse(m) if isinstance(m, str) else m for m in reversed(list(redo))]

    def copy(self) -> Game:
        """The same game, not replayed: the positions are immutable and shared."""
        twin = copy.copy(self)
        twin._positions, twin._steps, twin._redo = self._positions.copy(), self._steps.copy(), self._redo.copy()
        return twin

    # --------------------------------------------------------------- reading
    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def initial(self) -> Position:
        return self._positions[0]

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position of the game so far, the deal first and the current one last."""
        return tuple(self._positions)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(s.move for s in self._steps)

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """Moves that ``redo`` would make, next first."""
        return tuple(reversed(self._redo))

    def __len__(self) -> int:
        return len(self._steps)

    # --------------------------------------------------------------- playing
    def push(self, move: Move | str) -> tuple[Movement, ...]:
        """Make ``move`` (nothing changes if it is not legal); the redo line is kept if
        ``move`` is its next move, otherwise cleared."""
        m = Move.parse(move) if isinstance(move, str) else move
        pos, movements = self.position.apply(m)
        self._positions.append(pos)
        self._steps.append(Step(m, movements))
        if self._redo and self._redo[-1] == m:
            self._redo.pop()
        else:
            self._redo.clear()
        return movements

    def undo(self) -> tuple[Movement, ...]:
        """Take back the last move; returns the movements that put the cards back."""
        if not self._steps:
            raise FirstLastError("nothing to undo")
        step = self._steps.pop()
        self._positions.pop()
        self._redo.append(step.move)
        return tuple(mv.reversed() for mv in reversed(step.movements))

    def redo(self) -> tuple[Movement, ...]:
        """Make again the last move taken back."""
        if not self._redo:
            raise FirstLastError("nothing to redo")
        return self.push(self._redo[-1])

    @property
    def can_undo(self) -> bool:
        return bool(self._steps)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def step(self) -> Step | None:
        """Make the forced move (R9: play is forced); ``None`` when the game is over."""
        move = self.position.forced_move()
        if move is None:
            return None
        return Step(move, self.push(move))

    def autoplay(self) -> list[Step]:
        """Play the forced line to the end; returns the steps made."""
        made = []
        while (s := self.step()) is not None:
            made.append(s)
        return made


class Outcome(NamedTuple):
    """A finished forced line (R11)."""

    won: bool
    score: int  # cards on the piles, 104 when won (R11)
    passes: int  # passes through the stock used: 1 + redeals (R11)


def play_out(deal: int, variant: Variant = CANONICAL) -> Outcome:
    """Deal ``deal`` (R2, §4.5) and play the forced line to its end (R9–R11) with
    ``Position.play_forced``: the rules by construction."""
    end = Position.deal(deal, variant).play_forced()
    return Outcome(end.status == "won", end.score, end.passes)
