"""The play layer: a player's games over time, defined once for every face
(docs/play.md). The faces never import the store: what they hold of it comes from here
(tests/test_layering.py), and every read and write is ``PlayService``'s.
"""

from ..engine import MAX_REDEALS  # the engine's limit (V1), which play enforces for new games
from ..store import GameStore, GameSummary, StoredGame, StoreError, UnknownGame  # as faces hold it
from .commands import MAX_STEPS, ActionName, Advance, Command, MakeMove, Redo, Restart, Steps, Undo, command
from .deals import START_KINDS, StartKind, daily_deal, next_deal, parse_deal, winnable_deal
from .errors import CODES, PlayError
from .service import ActionResult, PlayerSettings, PlayService, leaving
from .settings import Settings, parse_variant
from .stats import Stats

__all__ = [
    "CODES", "MAX_REDEALS", "MAX_STEPS", "START_KINDS", "ActionName", "ActionResult", "Advance", "Command",
    "GameStore", "GameSummary", "MakeMove", "PlayError", "PlayService", "PlayerSettings", "Redo", "Restart",
    "Settings", "StartKind", "Stats", "Steps", "StoreError", "StoredGame", "Undo", "UnknownGame", "command",
    "daily_deal", "leaving", "next_deal", "parse_deal", "parse_variant", "winnable_deal",
]
