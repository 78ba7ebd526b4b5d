"""What a web page the player visits must not be able to do (docs/web-api.md,
"Security model"), and the headers every answer carries: pure ASGI middleware, ahead of
any route.
"""

from __future__ import annotations

import ipaddress
from typing import Final
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .context import browser_lang, json_response
from .errors import WebError, error_body

#: The page's Content-Security-Policy: its own files only (no inline script or style, no
#: other origin), never framed.
CSP: Final = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self';"
              " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
              " frame-ancestors 'none'")
SAFETY_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # the sign-in link carries the player token: never in a Referer
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CSP.encode()),
)
LOOPBACK_NAMES: Final = frozenset({"127.0.0.1", "localhost", "::1"})
#: Largest request head (request line and headers, as sent), docs/web-api.md: 16 KiB,
#: h11's own default. Cookies are per host, not per port, so other local servers'
#: cookies come along: keep room.
MAX_HEAD_BYTES: Final = 16 * 1024
#: Methods that change something: they must come from the page itself.
WRITES: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``name`` and ``port`` of a Host header (``[::1]:8000`` too); ``None`` if malformed."""
    value = value.strip()
    try:
        url = urlsplit("//" + value)
        port = url.port
    except ValueError:  # a port that is no number, an unclosed [
        return None
    return (url.hostname, port) if url.hostname and url.netloc == value and "@" not in value else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """The one middleware: the Host and Origin checks and the body's media type as
    docs/web-api.md ("Security model") tells them, answered before any route; safety
    headers on every answer (refusals too), ``no-store`` on the API's."""

    def __init__(self, app: ASGIApp, bind_host: str) -> None:
        self.app = app
        self.names = set(LOOPBACK_NAMES) | {bind_host.strip("[]").lower()}
        self.any_ip = bind_host in ("0.0.0.0", "::", "")

    def host_ok(self, scope: Scope, host: str | None) -> bool:
        parsed = _split_host(host) if host is not None else None
        if parsed is None:
            return False
        name, port = parsed
        if name not in self.names and not (self.any_ip and _is_ip(name)):
            return False
        server = scope.get("server")
        return port is None or server is None or server[1] is None or port == server[1]

    def refusal(self, scope: Scope) -> WebError | None:
        raw = scope.get("headers", [])
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in raw}
        host = headers.get("host")
        if head_size(scope) > MAX_HEAD_BYTES:
            # h11 bounds only a head still incomplete; one that came whole in a read
            # (64 KiB passed) is refused here, before anything else reads it.
            return WebError("request.head_too_large", limit=MAX_HEAD_BYTES // 1024)
        if not self.host_ok(scope, host):
            return WebError("request.host")
        if scope.get("method") not in WRITES:
            return None
        origin = headers.get("origin")
        scheme = str(scope.get("scheme", "http"))
        # Two Origin headers are no origin at all (else the last one would speak).
        origins = sum(1 for k, _ in raw if k.lower() == b"origin")
        foreign = origins > 1 or (origin is not None and origin.lower() != f"{scheme}://{host}".lower())
        if foreign or headers.get("sec-fetch-site") == "cross-site":
            return WebError("request.origin")
        if (_has_body(scope) or "content-type" in headers) and not _json_or_sign_in(scope, headers):
            # A form or text/plain POST (what a cross-site page may send without
            # asking) is out, with a body or without one.
            return WebError("request.content_type")
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")
        body_unread = _has_body(scope)

        async def receive_body() -> Message:
            nonlocal body_unread
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_unread = False  # read through, or the client is gone
            return message

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if body_unread and not any(k.lower() == b"connection" for k, _ in headers):
                    # Else the client may go on sending a body of any size, and the
                    # server must read it all to reach the next request.
                    headers.append((b"connection", b"close"))
                headers += SAFETY_HEADERS
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            body = error_body(refusal, browser_lang(Request(scope)))
            await json_response(body, refusal.status)(scope, receive, send_with_headers)
            return
        await self.app(scope, receive_body if body_unread else receive, send_with_headers)


def head_size(scope: Scope) -> int:
    """The request head's size as it was sent: ``METHOD target HTTP/1.1``, each header
    as ``name: value``, each line with its CRLF, and the blank line."""
    target = len(scope.get("raw_path") or b"") + (len(scope.get("query_string") or b"") + 1
                                                  if scope.get("query_string") else 0)
    line = len(str(scope.get("method", ""))) + 1 + target + len(" HTTP/1.1\r\n")
    return line + sum(len(k) + 2 + len(v) + 2 for k, v in scope.get("headers", [])) + 2


def _has_body(scope: Scope) -> bool:
    """The request says it has a body (ASGI header names are lower case)."""
    return any(k == b"transfer-encoding" or (k == b"content-length" and v.strip() != b"0")
               for k, v in scope.get("headers", []))


def _json_or_sign_in(scope: Scope, headers: dict[str, str]) -> bool:
    """A JSON request, or the sign-in question's button (``routes.pages.sign_in``): an
    empty form posted to ``/`` from this very origin (checked before), which stores
    nothing but the cookie."""
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    return media == "application/json" or (
        media == "application/x-www-form-urlencoded" and scope.get("path") == "/" and not _has_body(scope))
