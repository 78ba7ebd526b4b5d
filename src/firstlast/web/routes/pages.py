"""The table page, its static files, the sign-in link, and the API's own description."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Final
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from ...engine import MAX_DEAL
from ...engine.variant import STORED_TOKEN_PATTERN
from ...i18n import LANGS, t
from .. import models as m
from ..context import Endpoint, WebGame, browser_lang, is_token
from ..errors import WebError

STATIC_DIR: Final = Path(__file__).resolve().parent.parent / "static"


#: What the page may be asked to start with, kept through the sign-in's redirect when
#: well formed (docs/web-api.md, "Opening on a deal"; ``firstlast --lang ru play --deal N``).
START_PARAMS: Final = {"deal": re.compile(f"[0-9]{{1,{len(str(MAX_DEAL))}}}"),
                       "variant": re.compile(STORED_TOKEN_PATTERN), "lang": re.compile("|".join(LANGS))}


def start_query(request: Request) -> str:
    """``?deal=…&variant=…`` of the request, the parameters that are well formed, or ``""``."""
    kept = {name: value for name, pattern in START_PARAMS.items()
            if (value := request.query_params.get(name)) is not None and pattern.fullmatch(value)}
    return "?" + urlencode(kept) if kept else ""


#: Navigations typed or made on this very page (``Sec-Fetch-Site``): the sign-in link
#: signs in at once; any other asks first (docs/web-api.md, "Players and games").
OWN_NAVIGATION: Final = frozenset({"none", "same-origin"})


async def index(web: WebGame, request: Request) -> Response:
    token = request.query_params.get("player")
    if token is not None:
        return await _signed_in(web, request, token, request.headers.get("sec-fetch-site") in OWN_NAVIGATION)
    page = STATIC_DIR / "index.html"
    # No player is made here: one is made when something of theirs is first stored.
    if web.site_url is None:
        return FileResponse(page, headers={"cache-control": "no-cache"})
    # Where the player's static site is online: the share dialog links there.
    meta = f'<meta name="firstlast-site-url" content="{html.escape(web.site_url, quote=True)}">\n'
    text = page.read_text(encoding="utf-8").replace('<meta charset="utf-8">\n', '<meta charset="utf-8">\n' + meta, 1)
    return HTMLResponse(text, headers={"cache-control": "no-cache"})


async def _signed_in(web: WebGame, request: Request, token: str, own: bool) -> Response:
    """Sign in as an existing player (the link `firstlast play` opens), then drop the
    token from the address bar (the deal to start, if any, stays): at once when the
    player asked (``own``) or is that player already, else after the question
    (``_ask_sign_in``). An unknown token changes nothing."""
    redirect = RedirectResponse("/" + start_query(request), status_code=303)
    if not is_token(token) or await web.run(web.play.known_player, token) is None:
        return redirect
    if own or await web.player(request) == token:
        web.set_cookie(request, redirect, token)
        return redirect
    return _ask_sign_in(request, token)


def _ask_sign_in(request: Request, token: str) -> Response:
    """The question a sign-in link from elsewhere answers with: this server's own small
    page, whose button posts the link back (``sign_in``), so only the player's own press
    switches the browser to another player."""
    lang = request.query_params.get("lang")
    if lang not in LANGS:
        lang = browser_lang(request)
    shown = token[:6] + "…"
    action = "/?" + urlencode({"player": token}) + start_query(request).replace("?", "&", 1)

    def say(key: str) -> str:
        return html.escape(t(lang, key, player=shown))

    body = (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{say("signin.title")}</title>\n'
            '<link rel="stylesheet" href="/static/css/signin.css">\n</head>\n<body>\n<main>\n'
            f'<h1>{say("signin.title")}</h1>\n<p>{say("signin.text")}</p>\n'
            f'<form method="post" action="{html.escape(action, quote=True)}">'
            f'<button type="submit">{say("signin.open")}</button></form>\n'
            f'<p><a href="/">{say("signin.stay")}</a></p>\n</main>\n</body>\n</html>\n')
    return HTMLResponse(body, headers={"cache-control": "no-store"})


async def sign_in(web: WebGame, request: Request) -> Response:
    """The press on ``_ask_sign_in``'s button: a form posted from this very origin (the
    guard has refused any other ``Origin``; one that names none is refused here), signs
    the browser in as a known player, then 303 to the page (the deal kept)."""
    if "origin" not in request.headers and request.headers.get("sec-fetch-site") != "same-origin":
        raise WebError("request.origin")
    return await _signed_in(web, request, request.query_params.get("player", ""), own=True)


async def schema(web: WebGame, request: Request) -> Response:
    from ..schema import openapi_json  # the schema reads every route table, this one too

    return Response(openapi_json(), media_type="application/json")


ENDPOINTS: Final = (
    Endpoint("GET", "/", index, "the table page (?deal=N&variant=TOKEN: the page starts that deal); "
             "?player=TOKEN signs in as a known player (303 to /, the deal kept) when typed or opened from this "
             "page (Sec-Fetch-Site none or same-origin), else answers a page that asks first (200)",
             query=m.PageQuery, answers={200: "text/html", 303: None}),
    Endpoint("POST", "/", sign_in, "the sign-in page's button: sign in as the known player of ?player=TOKEN "
             "(303 to /, the deal kept); an empty form from this page's own origin",
             query=m.PageQuery, answers={303: None}),
    #: Served by a static-files mount (``app.create_app``), not a handler.
    Endpoint("GET", "/static/{path}", None, "the shipped front-end files (404: no such file)", answers={200: "*/*"},
             errors=(404,)),
    Endpoint("GET", "/api/schema", schema, "this API as an OpenAPI 3.1 document", answers={200: "application/json"}),
)
