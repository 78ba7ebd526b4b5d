"""The table page, its static files, the sign-in link, and the API's own description."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Final
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, RedirectResponse, Response

from ...engine import MAX_DEAL
from ...engine.variant import STORED_TOKEN_PATTERN
from .. import models as m
from ..context import Endpoint, WebGame, is_token

STATIC_DIR: Final = Path(__file__).resolve().parent.parent / "static"


#: What the page may be asked to start with (``/?deal=N&variant=TOKEN&lang=ru``, the
#: address ``firstlast --lang ru play --deal N`` opens): kept through the sign-in's
#: redirect when well formed.
START_PARAMS: Final = {"deal": re.compile(f"[0-9]{{1,{len(str(MAX_DEAL))}}}"),
                       "variant": re.compile(STORED_TOKEN_PATTERN), "lang": re.compile("ru|en")}


def start_query(request: Request) -> str:
    """``?deal=…&variant=…`` of the request, the parameters that are well formed, or ``""``."""
    kept = {name: value for name, pattern in START_PARAMS.items()
            if (value := request.query_params.get(name)) is not None and pattern.fullmatch(value)}
    return "?" + urlencode(kept) if kept else ""


async def index(web: WebGame, request: Request) -> Response:
    token = request.query_params.get("player")
    if token is not None:
        # Sign in as an existing player (the link `firstlast play` opens), then drop the
        # token from the address bar (the deal to start, if any, stays). An unknown
        # token changes nothing.
        redirect = RedirectResponse("/" + start_query(request), status_code=303)
        if is_token(token) and await web.run(web.play.known_player, token) is not None:
            web.set_cookie(request, redirect, token)
        return redirect
    page = STATIC_DIR / "index.html"
    if not page.is_file():
        return PlainTextResponse(
            "The browser front end is not installed (firstlast/web/static/index.html is missing).", 404
        )
    # No player is made here: one is made when something of theirs is first stored.
    if web.site_url is None:
        return FileResponse(page, headers={"cache-control": "no-cache"})
    # Where the player's static site is online: the share dialog links there.
    meta = f'<meta name="firstlast-site-url" content="{html.escape(web.site_url, quote=True)}">\n'
    text = page.read_text(encoding="utf-8").replace('<meta charset="utf-8">\n', '<meta charset="utf-8">\n' + meta, 1)
    return HTMLResponse(text, headers={"cache-control": "no-cache"})


@cache
def _schema_bytes() -> bytes:
    from ..schema import openapi_json  # the schema reads every route table, this one too

    return openapi_json()


async def schema(web: WebGame, request: Request) -> Response:
    return Response(_schema_bytes(), media_type="application/json")


ENDPOINTS: Final = (
    Endpoint("GET", "/", index, "the table page (?deal=N&variant=TOKEN: the page starts that deal); "
             "?player=TOKEN signs in as a known player (303 to /, the deal kept)",
             query=m.PageQuery, answers={200: "text/html", 303: None}),
    #: Served by a static-files mount (``app.create_app``), not a handler.
    Endpoint("GET", "/static/{path}", None, "the shipped front-end files (404: no such file)", answers={200: "*/*"},
             errors=(404,)),
    Endpoint("GET", "/api/schema", schema, "this API as an OpenAPI 3.1 document", answers={200: "application/json"}),
)
