"""Game records (engine format): export, import, and a game's replay."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from .. import models as m
from .. import shapes
from ..context import Endpoint, WebGame, json_response
from ..errors import WebError
from ..inputs import MAX_RECORD, decode, query


async def record(web: WebGame, request: Request) -> Response:
    gid = web.game_id(request)
    stored, text = await web.run(web.play.record, await web.player(request), gid)
    return PlainTextResponse(text, headers={
        "content-disposition": f'attachment; filename="firstlast-{stored.game.deal}.txt"',
    })


async def import_record(web: WebGame, request: Request) -> Response:
    # JSON with the record as a string: a cross-site form cannot send that (middleware.Guard).
    body = await decode(request, m.ImportRequest, MAX_RECORD)
    pid = await web.player_or_place(request)
    # As it came: the record reader ignores one byte-order mark and refuses two, for every face.
    (stored, _), lang = await web.run_lang(request, pid, web.play.import_record, pid, body.record)
    return web.answer(request, pid, stored.player, shapes.state(stored, lang), 201)


async def replay(web: WebGame, request: Request) -> Response:
    return json_response(shapes.replay(*await web.load_lang(request, web.play.game)))


async def words(web: WebGame, request: Request) -> Response:
    q = query(request, m.WordsQuery)
    stored, lang = await web.load_lang(request, web.play.game)
    if q.step is None:
        return json_response(shapes.table_words(stored.game.position, lang))
    positions = stored.game.positions
    if q.step >= len(positions):
        raise WebError("words.step", step=q.step, moves=len(positions) - 1)
    return json_response(shapes.table_words(positions[q.step], lang, replay=True))


ENDPOINTS: Final = (
    Endpoint("POST", "/api/games/import", import_record,
             "store someone's game from its record (kept, not counted, not put on the table)",
             body=m.ImportRequest, answers={201: m.GameState}, errors=(429,)),
    Endpoint("GET", "/api/games/{id}/record", record, "the game's record, as a download",
             answers={200: "text/plain"}),
    Endpoint("GET", "/api/games/{id}/replay", replay, "the deal as dealt and every move since, with movements",
             answers={200: m.Replay}),
    Endpoint("GET", "/api/games/{id}/words", words,
             "the table in words (hint, summary, each place's review) in the player's language; the page shows"
             " and says these (422: a step that is not a count of moves; 404 too: past the game's moves)",
             query=m.WordsQuery, answers={200: m.TableWords}, errors=(422,)),
)
