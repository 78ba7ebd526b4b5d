"""The player's statistics, per variant (the policy is ``firstlast.play.stats``)."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from .. import models as m
from ..context import Endpoint, WebGame, json_response
from ..inputs import query


async def stats(web: WebGame, request: Request) -> Response:
    rows = await web.run(web.play.stats, await web.player(request))
    return json_response(m.StatsList(variants=rows))


async def calendar(web: WebGame, request: Request) -> Response:
    q = query(request, m.CalendarQuery)
    found = await web.run(web.play.calendar, await web.player(request), q.month)
    return json_response(found)


ENDPOINTS: Final = (
    Endpoint("GET", "/api/stats", stats, "the player's statistics, one entry per variant played",
             answers={200: m.StatsList}),
    Endpoint("GET", "/api/calendar", calendar, "a month of deals of the day: played and won days, today, the daily"
             " streaks (docs/play.md)", query=m.CalendarQuery, answers={200: m.Calendar},
             errors=(409, 422)),  # 409: a month before the first daily deal, or after today
)
