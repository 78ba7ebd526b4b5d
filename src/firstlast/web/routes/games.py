"""Games: new, listed, read, reopened, acted on, replayed, in words, and as records
(engine format: export, import) (docs/web-api.md). Every action is a typed command
(``play.commands``) that ``PlayService.act_async`` decides and commits before we answer."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from ...play import Advance, Command, MakeMove, Redo, Restart, Steps, Undo, parse_deal, parse_variant
from .. import models as m
from .. import shapes
from ..context import Endpoint, Handler, WebGame, json_response
from ..errors import WebError
from ..inputs import MAX_RECORD, about, decode, query


async def new_game(web: WebGame, request: Request) -> Response:
    body = await decode(request, m.NewGame)
    how = body.how or ("number" if body.deal is not None else "random")
    if (how == "number") != (body.deal is not None):  # models.RULES, which the schema says
        raise WebError("request.value", field="deal",
                       reason="how=number needs a deal" if how == "number" else f"how={how} takes no deal")
    with about("deal"):
        if body.deal is not None:
            parse_deal(body.deal)  # past 2^64 − 1: the model holds no bound that large
    with about("variant"):  # a token's range is the play layer's; rules as given (a token, a description ignored)
        variant = None if body.variant is None else parse_variant(msgspec.to_builtins(body.variant))
    if body.date is not None and how != "daily":
        raise WebError("request.value", field="date", reason="only how=daily takes a date")
    pid = await web.player_or_place(request)
    stored, lang = await web.run_lang(request, pid, partial(web.play.start, day=body.date, wish=body.wish,
                                                            make_default=body.make_default), pid, how,
                                      body.deal, variant)
    return web.answer(request, pid, stored.player, shapes.state(stored, lang), 201)


async def list_games(web: WebGame, request: Request) -> Response:
    q = query(request, m.GamesQuery)
    games = await web.run(web.play.games, await web.player(request), q.status, q.limit)
    return json_response(m.GameList(games=[m.GameSummary(*msgspec.structs.astuple(g)) for g in games]))


async def current(web: WebGame, request: Request) -> Response:
    pid = await web.player(request)
    stored, lang = await web.run_lang(request, pid, web.play.current, pid)
    if stored is None:
        return Response(status_code=204)  # an empty table: the page deals a new game
    return json_response(shapes.state(stored, lang))


async def get_game(web: WebGame, request: Request) -> Response:
    return json_response(shapes.state(*await web.load_lang(request, web.play.game)))


async def records(web: WebGame, request: Request) -> Response:
    found, lang = await web.load_lang(request, web.play.records)
    return json_response(m.RecordList(records=shapes.records(found, lang)))


async def open_game(web: WebGame, request: Request) -> Response:
    gid = web.game_id(request)
    await decode(request, m.OpenRequest)
    pid = await web.player(request)
    stored, lang = await web.run_lang(request, pid, web.play.open, pid, gid)
    return json_response(shapes.state(stored, lang))


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


def _acting(model: type[m.MoveRequest | m.StepRequest | m.ActionRequest],
            command: Callable[[Any], Command]) -> Handler:
    """The handler of an action: its body as ``model``, then ``command(body)`` acted on."""
    async def handler(web: WebGame, request: Request) -> Response:
        gid = web.game_id(request)  # an id that cannot be one is 404 before the body is read
        body = await decode(request, model)
        act = command(body)
        pid = await web.player(request)
        # The answer is worded in the player's language, read before (never in the action's
        # write job, which is queued to the play layer's writer and awaited: no worker thread).
        lang = await web.lang(request, pid)
        result = await web.play.act_async(pid, gid, act, body.version)
        return json_response(shapes.result(result, lang, undo=act.takes_back))

    return handler


def _action(command: Advance | Undo | Redo | Restart) -> Endpoint:
    summaries = {"advance": "turn until a card fits (docs/play.md)",
                 "undo": "take the last move back (its movements return the cards, last first)",
                 "redo": "make the move last taken back again",
                 "restart": "rewind to the deal; a finished game: a new attempt (new_game)"}
    return Endpoint("POST", f"/api/games/{{id}}/{command.name}", _acting(m.ActionRequest, lambda _: command),
                    summaries[command.name], body=m.ActionRequest, answers={200: m.ActionResult}, errors=(409,))


ENDPOINTS: Final = (
    Endpoint("POST", "/api/games", new_game, "deal a new game and put it on the table", body=m.NewGame,
             answers={201: m.GameState}, errors=(409, 429)),
    Endpoint("GET", "/api/games", list_games, "the player's games, latest first", query=m.GamesQuery,
             answers={200: m.GameList}, errors=(422,)),
    Endpoint("GET", "/api/games/current", current, "the game on the table (204: the table is empty)",
             answers={200: m.GameState, 204: None}),
    Endpoint("GET", "/api/games/{id}", get_game, "one game (reading does not put it on the table)",
             answers={200: m.GameState}),
    Endpoint("GET", "/api/games/{id}/records", records, "the personal records the game set when it ended (none while"
             " it is under way): what the action that ended it answered", answers={200: m.RecordList}),
    Endpoint("POST", "/api/games/{id}/open", open_game, "put the game on the table (reopen)", body=m.OpenRequest,
             answers={200: m.GameState}),
    Endpoint("POST", "/api/games/{id}/moves", _acting(m.MoveRequest, lambda b: MakeMove.parse(b.move)),
             "make a move (409: the rules refuse it, with rule)", body=m.MoveRequest, answers={200: m.ActionResult},
             errors=(409,)),
    Endpoint("POST", "/api/games/{id}/step", _acting(m.StepRequest, lambda b: Steps(b.n)),
             "make up to n forced moves (409 when over)", body=m.StepRequest, answers={200: m.ActionResult},
             errors=(409,)),
    *(_action(c) for c in (Advance(), Undo(), Redo(), Restart())),
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
