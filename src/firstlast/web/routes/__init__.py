"""The route table: every endpoint the app serves, in the order Starlette tries them
(``/api/games/current`` before ``/api/games/{id}``). ``app.create_app`` serves it and
``schema`` declares it, so the two cannot drift apart."""

from __future__ import annotations

from typing import Final

from ..context import Endpoint
from . import games, odds, pages, player, story, texts

ENDPOINTS: Final[tuple[Endpoint, ...]] = (
    *pages.ENDPOINTS, *texts.ENDPOINTS, *games.ENDPOINTS, *odds.ENDPOINTS, *story.ENDPOINTS, *player.ENDPOINTS,
)
