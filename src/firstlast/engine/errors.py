"""Errors, split python-chess style: bad syntax versus not allowed here."""

from __future__ import annotations


class FirstLastError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidMoveError(FirstLastError):
    """The text is not a move at all (e.g. ``R9``, ``xyz``)."""


class IllegalMoveError(FirstLastError):
    """A well-formed move that the rules forbid in this position; ``rule`` names the rule."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class InvalidPositionError(FirstLastError):
    """Position notation that cannot be read, or describes a position that cannot occur."""


class RecordError(FirstLastError):
    """A game record that is corrupt or tampered with; ``line`` is 1-based when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        self.reason = message
