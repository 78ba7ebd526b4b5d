"""The words of the page: the message catalogs and the help, in each language, shared
with the terminal and the command line (``firstlast.i18n``, docs/i18n.md); the
package's own files, unchanged while the server runs, so served with an ``ETag``."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from ... import i18n
from ...play import actions
from ..context import Endpoint, WebGame
from ..errors import WebError

#: Browsers keep these and ask again each time whether they changed (cheap: a 304).
CACHE_CONTROL: Final = "no-cache"


def _lang(request: Request) -> str:
    lang = str(request.path_params["lang"])
    if lang not in i18n.LANGS:
        raise WebError("request.lang", lang=lang[:40], expected=" or ".join(i18n.LANGS))
    return lang


@cache
def catalog_bytes(lang: str) -> bytes:
    """The catalog file of ``lang`` as shipped (the very bytes ``i18n.catalog`` reads)."""
    i18n.catalog(lang)  # checks it is a flat map of strings before it is served
    return resources.files(i18n.__name__).joinpath(f"{lang}.json").read_bytes()


@cache
def help_bytes(lang: str) -> bytes:
    return actions.help_html(lang).encode("utf-8")  # with the one table of keys


def cached(request: Request, body: bytes, media_type: str) -> Response:
    """``body`` with its validator; 304 (no body) when the browser has it already."""
    tag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    headers = {"etag": tag, "cache-control": CACHE_CONTROL}
    wanted = request.headers.get("if-none-match", "")
    if tag in (t.strip().removeprefix("W/") for t in wanted.split(",")) or wanted.strip() == "*":
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


async def catalog(web: WebGame, request: Request) -> Response:
    return cached(request, catalog_bytes(_lang(request)), "application/json")


async def help_page(web: WebGame, request: Request) -> Response:
    return cached(request, help_bytes(_lang(request)), "text/html")


async def book(web: WebGame, request: Request) -> Response:
    return cached(request, i18n.book_text().encode("utf-8"), "text/plain; charset=utf-8")


ENDPOINTS: Final = (
    Endpoint("GET", "/i18n/{lang}.json", catalog,
             "the message catalog of a language (ru, en): key → template with {name} placeholders (docs/i18n.md)",
             answers={200: "application/json", 304: None}, errors=(404,)),
    Endpoint("GET", "/help/{lang}", help_page,
             "the help (rules, variants, keys) as an HTML fragment to insert: no script, no style",
             answers={200: "text/html", 304: None}, errors=(404,)),
    Endpoint("GET", "/book.txt", book, "the book's original Russian text of the patience (plain text)",
             answers={200: "text/plain", 304: None}),
)
