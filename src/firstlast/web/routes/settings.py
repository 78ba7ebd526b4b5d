"""The player's settings: one schema for every face (``firstlast.play.settings``)."""

from __future__ import annotations

from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from .. import models as m
from .. import shapes
from ..context import Endpoint, WebGame, json_response
from ..inputs import decode


async def get_settings(web: WebGame, request: Request) -> Response:
    settings = await web.run(web.play.settings, await web.player(request))
    return json_response(shapes.settings(settings))


async def put_settings(web: WebGame, request: Request) -> Response:
    body = await decode(request, m.SettingsChange)
    # The declared model checked types and bounds; the play layer checks the whole
    # change (a variant token's range) before anything is stored.
    changes = msgspec.to_builtins(body)  # the keys given (an unset one is left out), a variant's rules as a dict
    if not changes:
        # Nothing to change: answered as a read, so that no player is made for nothing.
        return await get_settings(web, request)
    pid = await web.player_or_place(request)
    saved = await web.run(web.play.update_settings, pid, changes)
    return web.answer(request, pid, saved.player, shapes.settings(saved.settings))


ENDPOINTS: Final = (
    Endpoint("GET", "/api/settings", get_settings, "the player's settings (defaults for a key never set)",
             answers={200: m.Settings}),
    Endpoint("PUT", "/api/settings", put_settings, "change some settings; answers them all", body=m.SettingsChange,
             answers={200: m.Settings}, errors=(429,)),
)
