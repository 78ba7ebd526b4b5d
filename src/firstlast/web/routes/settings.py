"""The player's settings: one schema for every face (``firstlast.play.settings``)."""

from __future__ import annotations

from typing import Final

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
    changes = {name: value for name in m.SettingsChange.__struct_fields__
               if (value := getattr(body, name)) is not m.UNSET}
    changes = {k: v if not isinstance(v, m.VariantSpec) else _variant_dict(v) for k, v in changes.items()}
    if not changes:
        # Nothing to change: answered as a read, so that no player is made for nothing.
        return json_response(shapes.settings(await web.run(web.play.settings, await web.player(request))))
    pid = await web.player_or_place(request)
    saved = await web.run(web.play.update_settings, pid, changes)
    return web.answer(request, pid, saved.player, shapes.settings(saved.settings))


def _variant_dict(spec: m.VariantSpec) -> dict[str, object]:
    return {"redeals": spec.redeals, "waste_playable": spec.waste_playable, "privileged_last": spec.privileged_last}


ENDPOINTS: Final = (
    Endpoint("GET", "/api/settings", get_settings, "the player's settings (defaults for a key never set)",
             answers={200: m.Settings}),
    Endpoint("PUT", "/api/settings", put_settings, "change some settings; answers them all", body=m.SettingsChange,
             answers={200: m.Settings}, errors=(429,)),
)
