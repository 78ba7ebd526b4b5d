"""The play layer: a player's games over time, defined once for every face.

``PlayService`` (sessions, actions, statistics policy, settings) over the engine and
the store; typed commands (``commands``); ``PlayError`` refusals with codes; the one
deal-number parser. The web and terminal faces call this and hold no rules or session
logic of their own (docs/play.md). They never import the store: what they hold of it
comes from here — the handle they open and pass on (``GameStore``, ``default_db_path``),
the games ``PlayService`` answers with (``StoredGame``, ``GameSummary``) and the store's
errors (``StoreError``, ``UnknownGame``) — and every read and write is the service's
(tests/test_layering.py).
"""

from ..engine import MAX_REDEALS  # the engine's limit (V1), which play enforces for new games
from ..store import GameStore, GameSummary, StoredGame, StoreError, UnknownGame, default_db_path  # as faces hold it
from .commands import (
    ACTION_NAMES,
    MAX_STEPS,
    ActionName,
    Advance,
    Command,
    MakeMove,
    Redo,
    Restart,
    Steps,
    Undo,
    command,
)
from .deals import START_KINDS, StartKind, daily_deal, next_deal, parse_deal, random_deal, winnable_deal
from .errors import CODES, PlayError
from .service import ActionResult, PlayerSettings, PlayService, leaving
from .settings import Settings, Verbosity, parse_variant
from .stats import Stats

__all__ = [
    "ACTION_NAMES", "CODES", "MAX_REDEALS", "MAX_STEPS", "START_KINDS", "ActionName", "ActionResult", "Advance",
    "Command", "GameStore", "GameSummary", "MakeMove", "PlayError", "PlayService", "PlayerSettings", "Redo",
    "Restart", "Settings", "StartKind", "Stats", "Steps", "StoreError", "StoredGame", "Undo", "UnknownGame",
    "Verbosity",
    "command", "daily_deal", "default_db_path", "leaving", "next_deal", "parse_deal", "parse_variant", "random_deal",
    "winnable_deal",
]
