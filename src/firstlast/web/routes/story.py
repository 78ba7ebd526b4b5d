"""The story of a game (``firstlast.play.story``, docs/story.md), told in a worker thread
beside the chance estimates by the play layer's policy (``play.chance.tell_story``, the
terminal's too), kept by ``story_key`` (told once whoever asks, one at a time per
player), and worded in each asker's language on the way out."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Final

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ... import runtime
from ...play.chance import story_key, tell_story
from .. import models as m
from ..context import Endpoint, WebGame, json_response
from ..errors import odds_refusals

if TYPE_CHECKING:
    from ...engine import Game
    from ...play.story import Story


def answer(story: Story, lang: m.Lang) -> msgspec.Struct:
    """The declared answer: the play layer's ``Story`` as it is (the deal as text, as
    everywhere in the API) and the story in sentences in ``lang``: all of them, and split
    as a face shows them (the conclusion before the chart)."""
    conclusion, details = story.conclusion(lang), story.details(lang)
    return m.Story(**{**msgspec.structs.asdict(story), "deal": str(story.deal)}, sentences=conclusion + details,
                   conclusion=conclusion, details=details, chart_name=story.chart_name(lang),
                   plain=story.plain(lang), where=story.where(lang))


async def story_of_game(web: WebGame, request: Request) -> Response:
    stored, lang = await web.load_lang(request, web.play.game)  # another player's game: 404, as everywhere
    game = stored.game  # freshly loaded for this request: nobody else changes it
    key = story_key(game)
    story = web.stories.get(key)
    if story is None:
        # One long computation per player at a time: a request that asked for the same
        # story meanwhile waits its turn, then finds it told.
        async with web.cpu_turn(stored.player):
            story = web.stories.get(key)
            if story is None:
                # Shielded: a request cancelled meanwhile (the server stopping) still keeps
                # what the worker goes on to tell, so that nobody tells it again.
                story = await asyncio.shield(_told(web, game))
    return json_response(answer(story, lang))


async def _told(web: WebGame, game: Game) -> Story:
    with odds_refusals():  # here, not in the worker: as in ``odds._estimated``
        story = await runtime.run_cpu(tell_story, game, limiter=web.chance_limiter)
    web.stories.put(story_key(game), story)
    return story


ENDPOINTS: Final = (
    Endpoint("GET", "/api/games/{id}/story", story_of_game,
             "the story of the game: its chance move by move, the moments that moved it, why it stopped",
             answers={200: m.Story}),
)
