"""First and Last in the terminal (Textual): ``firstlast tui``."""

from .app import FirstLastApp, GameScreen

__all__ = ["FirstLastApp", "GameScreen"]
