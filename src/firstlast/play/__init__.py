"""The play layer: a player's games over time, defined once for every face.

``PlayService`` (sessions, actions, statistics policy, settings) over the engine and
the store; ``PlayError`` refusals with codes; the one deal-number parser. The web and
terminal faces call this and hold no rules or session logic of their own
(docs/play.md).
"""

from ..engine import MAX_REDEALS  # the engine's limit (V1), which play enforces for new games
from .deals import START_KINDS, StartKind, daily_deal, next_deal, parse_deal, random_deal, winnable_deal
from .errors import CODES, PlayError
from .service import ActionResult, PlayerSettings, PlayService, leaving
from .settings import Settings, parse_variant
from .stats import Stats

__all__ = [
    "CODES", "MAX_REDEALS", "START_KINDS", "ActionResult", "PlayError", "PlayService", "PlayerSettings",
    "Settings", "StartKind", "Stats", "daily_deal", "leaving", "next_deal", "parse_deal", "parse_variant",
    "random_deal", "winnable_deal",
]
