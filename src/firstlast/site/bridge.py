"""The static site's server: the very web app ``firstlast play`` serves (``web.app``),
called in-process, one ASGI call per request of the page, instead of over HTTP
(docs/site.md, "The transport"). It adds what a browser would send: the cookie of the
site's one player (a worker never sees HttpOnly cookies) and the site's own ``Host`` and
``Origin``, which the app's guard checks as on the server. ``commits`` tells the worker
when to sync the database to the browser's storage, before it answers ("Storage").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import unquote, urlsplit

import msgspec
from starlette.types import Message

from ..play import GameStore, PlayService
from ..web.app import create_app
from ..web.context import COOKIE
from ..web.errors import WebError, error_body
from ..web.models import encode

#: Request headers the page may set (the rest are the bridge's to say).
PAGE_HEADERS: Final = frozenset({"content-type", "accept", "if-none-match"})
#: The largest body the bridge hands on: the app bounds each route's own, below this
#: (the largest, a backup to restore, is ``web.inputs.MAX_RESTORE_BODY``).
MAX_BODY: Final = 48 * 1024 * 1024


@dataclass(frozen=True)
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


class Bridge:
    """The web app over ``db_path``, answering requests from the site at ``origin``
    (``https://example.org``, the page's ``location.origin``)."""

    def __init__(self, db_path: str, origin: str) -> None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not a site origin: {origin!r}")
        self.scheme = parts.scheme
        self.host = parts.netloc
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.store = GameStore(db_path)
        self._play = PlayService(self.store)
        self.player = self._play.local_player()
        self.app = create_app(self._play, bind_host=parts.hostname)
        # Signed with this database's key, as the app signs the cookies it sets.
        self._cookie = f"{COOKIE}_{self.port}={self.app.state.web.seal(self.player)}"

    @property
    def commits(self) -> int:
        """Batches committed so far (the worker syncs storage when this moves)."""
        return int(self._play.commits)

    async def request(self, method: str, target: str, headers: Mapping[str, str], body: bytes = b"") -> Answer:
        """One request of the page (``target``: path and query, as the page fetched it)."""
        if len(body) > MAX_BODY:
            return _refusal("request.too_large", limit=MAX_BODY // 1024)
        if not target.startswith("/"):
            return _refusal("request.not_found")
        path, _, query = target.partition("?")
        said = {"host": self.host, "cookie": self._cookie, "content-length": str(len(body))}
        if method not in ("GET", "HEAD"):
            said["origin"] = self.origin
        said |= {name.lower(): value for name, value in headers.items() if name.lower() in PAGE_HEADERS}
        raw = [(name.encode("latin-1"), value.encode("latin-1", "replace")) for name, value in said.items()]
        scope = {
            "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
            "method": method.upper(), "scheme": self.scheme, "path": unquote(path),
            "raw_path": path.encode("latin-1", "replace"), "query_string": query.encode("latin-1", "replace"),
            "root_path": "", "headers": raw, "server": (self.host.rsplit(":", 1)[0], self.port),
            "client": ("127.0.0.1", 0), "state": {},
        }
        sent = False
        status = 500
        out_headers: list[tuple[str, str]] = []
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                out_headers.extend((k.decode("latin-1"), v.decode("latin-1")) for k, v in message.get("headers", []))
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))

        await self.app(scope, receive, send)
        return Answer(status, out_headers, b"".join(chunks))

    async def call(self, method: str, target: str, body: object = None) -> tuple[int, Any]:
        """A request as the page's JSON calls make it (``body``: JSON; ``None``: no body),
        its answer read as JSON (``None`` when it is not JSON): the build's own calls."""
        data, head = (b"", {}) if body is None else (json.dumps(body).encode(), {"content-type": "application/json"})
        answer = await self.request(method, target, head, data)
        try:
            return answer.status, json.loads(answer.body)
        except ValueError:
            return answer.status, None

    async def request_js(self, method: str, target: str, headers_json: str, body: str) -> tuple[int, str, str]:
        """``request`` with plain values in and out, for the worker's JavaScript: strings
        only (the page sends JSON text and every answer is text), so that no JS object
        is converted (``null`` and the like never reach Python)."""
        try:
            headers = msgspec.json.decode(headers_json or "{}", type=dict[str, str])
        except ValueError:  # not one flat object of strings: no headers of the page's
            headers = {}
        answer = await self.request(str(method), str(target), headers, str(body).encode("utf-8", "surrogateescape"))
        return answer.status, json.dumps(answer.headers), answer.body.decode("utf-8", "replace")


def _refusal(code: str, **params: str | int | None) -> Answer:
    """A refusal the bridge makes itself, in the app's declared shape."""
    exc = WebError(code, **params)
    return Answer(exc.status, [("content-type", "application/json")], encode(error_body(exc)))
