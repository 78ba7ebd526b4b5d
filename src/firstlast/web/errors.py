"""Refusals over HTTP: every error answer is one declared shape, ``models.ErrorBody``.

The play layer's ``PlayError`` carries a code, its params and a kind; its kind maps to
a status here. The web layer's own refusals (a foreign Host, a body that is not JSON, a
field the declared models do not know) are ``WebError``: a code of ``WEB_CODES``, which
fixes the status and the English sentence, so that every answer the page reads has
``error``, ``code`` and ``params`` (docs/web-api.md).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..engine.errors import REFUSALS, FirstLastError, IllegalMoveError
from ..i18n import refusal_text
from ..play import PlayError
from .models import UNSET, ErrorBody, Lang, encode

#: HTTP status of each kind of play-layer refusal.
KIND_STATUS: Final[dict[str, int]] = {"invalid": 422, "illegal": 409, "not_found": 404, "conflict": 409,
                                      "busy": 429, "unavailable": 503}
#: Where storage failures are logged (``server`` shows them while serving).
STORAGE_LOGGER: Final = "firstlast.storage"
_storage_log = logging.getLogger(STORAGE_LOGGER)

#: The web layer's own refusals: code → (status, English template over the params).
WEB_CODES: Final[dict[str, tuple[int, str]]] = {
    "request.host": (421, "this server answers only to its own address (the Host header names another)"),
    "request.origin": (403, "requests that change something must come from this page"),
    "request.content_type": (415, "the body must be JSON (Content-Type: application/json)"),
    "request.too_large": (413, "the body is too large (at most {limit} KiB)"),
    "request.json": (400, "the body is not valid JSON"),
    "request.gone": (400, "the connection closed before the request's body was whole: nothing was done"),
    "request.object": (400, "the body must be a JSON object"),
    "request.field": (422, "unknown field {field!r} in {where} (expected {expected})"),
    "request.value": (422, "{field}: {reason}"),
    "request.not_found": (404, "not found"),
    "request.lang": (404, "there is no language {lang!r} here (expected {expected})"),
    "request.method": (405, "method not allowed"),
    "chance.missing": (503, "the odds estimate is not available in this installation"),
    "chance.unavailable": (503, "the odds estimate is not available for this game"),
}


class WebError(Exception):
    """A request the web layer refuses before the play layer sees it."""

    def __init__(self, code: str, **params: str | int | None) -> None:
        self.status, template = WEB_CODES[code]
        self.code = code
        self.params = params
        super().__init__(template.format(**params))


def web_error(exc: WebError) -> ErrorBody:
    return ErrorBody(error=str(exc), code=exc.code, params=dict(exc.params))


def refusal_code(exc: PlayError) -> str | None:
    """The engine's refusal code (``engine.errors.REFUSALS``) behind ``exc``, if any."""
    code = exc.params.get("refusal") if exc.code == "move.illegal" else None
    return code if isinstance(code, str) and code in REFUSALS else None


def play_error(exc: PlayError, lang: Lang | None = None) -> ErrorBody:
    """A play-layer refusal's body: the sentence, code and params, and ``rule``/``line``
    at the top when there is one (the page reads them without knowing the code). An
    engine refusal also gets ``text``, in ``lang`` (``i18n.refusal_text``)."""
    body = exc.to_json()
    params = body["params"]
    assert isinstance(params, dict)
    rule = exc.params.get("rule", UNSET)
    line = exc.params.get("line", UNSET)
    code = refusal_code(exc)
    text = UNSET if code is None or lang is None else refusal_text(code, exc.params, lang)
    return ErrorBody(error=exc.message, code=exc.code, params=params,
                     rule=rule if rule is UNSET or isinstance(rule, str) else str(rule),
                     line=line if line is UNSET or line is None or isinstance(line, int) else None, text=text)


def error_response(body: ErrorBody, status: int, headers: Mapping[str, str] | None = None) -> Response:
    return Response(encode(body), status, headers, media_type="application/json")


async def on_web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    return error_response(web_error(exc), exc.status)


async def on_play_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PlayError)
    if exc.code == "storage":
        _storage_log.warning("storage failure (answered 503) on %s %s: %s", request.method, request.url.path,
                             exc.params.get("reason"))
    lang: Lang | None = None
    if refusal_code(exc) is not None:
        # Only an engine refusal is told in words: the player's language, read now (a
        # refusal is rare enough for one more read of the settings).
        from .context import WebGame, browser_lang

        web = getattr(request.app.state, "web", None)
        try:
            lang = await web.lang(request, await web.player(request)) if isinstance(web, WebGame) else None
        except PlayError:  # the store cannot be read now: the refusal still goes out
            lang = None
        lang = lang or browser_lang(request)
    status = KIND_STATUS[exc.kind]
    # 429: the same long work is under way (a search for a deal that comes out); ask again.
    return error_response(play_error(exc, lang), status, {"retry-after": "1"} if status == 429 else None)


async def on_http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 and 405 (unknown path, wrong method), in the declared shape."""
    assert isinstance(exc, HTTPException)
    code = {404: "request.not_found", 405: "request.method"}.get(exc.status_code)
    if code is None:
        body = ErrorBody(error=str(exc.detail), code="request.http", params={})
    else:
        body = web_error(WebError(code))
    headers = exc.headers
    if exc.status_code == 405:
        # Every method some route answers at this path (Starlette names only the first
        # route whose path matched: "POST" for /api/games, which GET serves too).
        kept = {k: v for k, v in (headers or {}).items() if k.lower() != "allow"}
        headers = {**kept, "allow": ", ".join(_allowed(request))}
    return error_response(body, exc.status_code, headers)


def _allowed(request: Request) -> list[str]:
    from starlette.routing import Match, Mount, Route

    # Matched from the top, as the router did (a mount, the static files, has made its
    # own path the root_path by now).
    scope = request.scope
    probe = {**scope, "method": "", "root_path": scope.get("app_root_path", scope.get("root_path", ""))}
    methods: set[str] = set()
    for route in request.app.routes:
        if isinstance(route, Route) and route.methods and route.matches(probe)[0] is not Match.NONE:
            methods |= route.methods
        elif isinstance(route, Mount) and route.matches(probe)[0] is not Match.NONE:
            methods |= {"GET", "HEAD"}  # the static files: StaticFiles answers these two
    return sorted(methods)


async def on_engine_error(request: Request, exc: Exception) -> Response:
    # Engine errors that reach here were not turned into PlayErrors: bad input all the same.
    if isinstance(exc, IllegalMoveError):
        return await on_play_error(request, PlayError("move.illegal", reason=str(exc), rule=exc.rule,
                                                      refusal=exc.code, **{k: v for k, v in exc.params.items()
                                                                           if k not in ("need_phrase", "where")}))
    assert isinstance(exc, FirstLastError)
    return error_response(play_error(PlayError("move.invalid", reason=str(exc))), 422)


async def on_storage_error(request: Request, exc: Exception) -> Response:
    """Last resort: PlayService turns storage failures into ``PlayError('storage')``; one
    that slips past it is still a JSON 503 (not a plain 500, nor the engine handler's
    422 that ``StoreError``, a ``FirstLastError``, would otherwise get)."""
    from ..store import UnknownGame

    if isinstance(exc, UnknownGame):
        return await on_play_error(request, PlayError("game.unknown"))
    return await on_play_error(request, PlayError("storage", reason=str(exc) or type(exc).__name__))
