"""Refusals over HTTP, every one a ``models.ErrorBody`` (docs/web-api.md): a play-layer
``PlayError``'s kind maps to a status here (``KIND_STATUS``); the web layer's own
refusals are ``WebError``, a code of ``WEB_CODES`` that fixes the status (its
parameters are its sentence's). Every sentence is the catalogs' (``i18n.error_text``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..engine.errors import IllegalMoveError, InvalidMoveError
from ..i18n import catalog, error_text, placeholders
from ..play import PlayError, StoreError, UnknownGame
from ..play.errors import engine_params
from .context import WebGame, browser_lang, json_response
from .models import UNSET, ErrorBody, Lang, UnsetType

#: HTTP status of each kind of play-layer refusal.
KIND_STATUS: Final[dict[str, int]] = {"invalid": 422, "illegal": 409, "not_found": 404, "conflict": 409,
                                      "busy": 429, "unavailable": 503}
#: Where storage failures are logged (``server`` shows them while serving).
STORAGE_LOGGER: Final = "firstlast.storage"
_storage_log = logging.getLogger(STORAGE_LOGGER)

#: The web layer's own refusals: code → status (their words: ``error.<code>``).
WEB_CODES: Final[dict[str, int]] = {
    "request.host": 421, "request.origin": 403, "request.content_type": 415, "request.too_large": 413,
    "request.head_too_large": 431, "request.json": 400, "request.gone": 400, "request.object": 400,
    "request.field": 422, "request.value": 422, "request.not_found": 404, "request.lang": 404,
    "request.method": 405, "chance.missing": 503, "chance.unavailable": 503, "words.step": 404,
    "player.limit": 429,
}


class WebError(Exception):
    """A request the web layer refuses before the play layer sees it."""

    def __init__(self, code: str, **params: str | int | None) -> None:
        self.status = WEB_CODES[code]
        names = placeholders(catalog("en")[f"error.{code}"])
        if set(params) != names:
            raise TypeError(f"{code} takes the parameters {sorted(names)}, not {tuple(params)}")
        self.code = code
        self.params = params
        super().__init__(error_text(code, params, "en"))


@contextmanager
def odds_refusals() -> Iterator[None]:
    """The odds' failures (a chance, a story) as the API's refusals: no odds module (a
    server without it still serves the game), or no estimate to be made."""
    try:
        yield
    except ImportError:
        raise WebError("chance.missing") from None
    except (ValueError, OverflowError, MemoryError):
        raise WebError("chance.unavailable") from None


def error_body(exc: PlayError | WebError, lang: Lang = "en") -> ErrorBody:
    """A refusal's body, ``text`` in ``lang``; a play-layer refusal's ``rule``/``line`` at
    the top, so that the page reads them without knowing the code."""
    params = exc.to_json()["params"] if isinstance(exc, PlayError) else dict(exc.params)
    assert isinstance(params, dict)
    rule, line = params.get("rule", UNSET), params.get("line", UNSET)
    return ErrorBody(error=str(exc), code=exc.code, params=params, rule=rule if rule is UNSET else str(rule),
                     line=line if isinstance(line, int | None | UnsetType) else None,
                     text=str(exc) if lang == "en" else error_text(exc.code, exc.params, lang))


async def on_web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    retry = exc.params.get("retry_after")
    return json_response(error_body(exc, browser_lang(request)), exc.status,
                          {"retry-after": str(retry)} if retry is not None else None)


async def on_play_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PlayError)
    if exc.code == "storage":
        _storage_log.warning("storage failure (answered 503) on %s %s: %s", request.method, request.url.path,
                             exc.params.get("reason"))
    lang = browser_lang(request)
    if exc.kind not in ("busy", "unavailable"):  # else the store is the trouble, or too busy
        web: WebGame = request.app.state.web
        with contextlib.suppress(PlayError):  # the store cannot be read now: the refusal still goes out
            lang = await web.lang(request, await web.player(request))  # the player's
    status = KIND_STATUS[exc.kind]
    # 429: the same long work is under way (a search for a deal that comes out); ask again.
    return json_response(error_body(exc, lang), status, {"retry-after": "1"} if status == 429 else None)


async def on_http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 and 405 (unknown path, wrong method), in the declared shape."""
    assert isinstance(exc, HTTPException)
    code = {404: "request.not_found", 405: "request.method"}.get(exc.status_code)
    if code is None:
        body = ErrorBody(error=str(exc.detail), code="request.http", params={},
                         text=error_text("request.http", {}, browser_lang(request)))
    else:
        body = error_body(WebError(code), browser_lang(request))
    # A 405's Allow (every method served at the path: ``app.PathRoute``) in one order:
    # Starlette joins a set.
    headers = {k: ", ".join(sorted(v.split(", "))) if k.lower() == "allow" else v
               for k, v in (exc.headers or {}).items()}
    return json_response(body, exc.status_code, headers)


async def on_slipped_error(request: Request, exc: Exception) -> Response:
    """Last resort: an engine or storage error the play layer did not turn into a
    ``PlayError`` is answered as it would have been: bad input, or a JSON 503 for a
    storage fault (not a plain 500)."""
    if isinstance(exc, IllegalMoveError):
        refusal = PlayError("move.illegal", **engine_params(exc))
    elif isinstance(exc, UnknownGame):
        refusal = PlayError("game.unknown")
    elif isinstance(exc, StoreError):
        refusal = PlayError("storage", reason=str(exc) or type(exc).__name__)
    else:
        said = engine_params(exc) if isinstance(exc, InvalidMoveError) else {}
        refusal = PlayError("move.invalid", reason=str(exc), **said)
    return await on_play_error(request, refusal)
