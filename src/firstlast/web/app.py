"""The browser game's HTTP API (docs/web-api.md): Starlette over the play layer.

The server is authoritative and this module decides nothing: every rule is the
engine's, every policy (which game is on the table, statistics, settings, two writers
on one game) is ``firstlast.play``'s, and every accepted move is committed to SQLite
before the answer leaves. Here: requests in, JSON out, and the play layer's coded
refusals mapped to HTTP statuses. Requests on one game are serialized by a per-game
``asyncio.Lock``; blocking work runs in worker threads.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..engine import Card, Move, Movement, Position, Variant, rank_char
from ..engine.errors import FirstLastError, IllegalMoveError
from ..play import START_KINDS, ActionResult, PlayError, PlayService, parse_variant
from ..play.service import MAX_STEPS, ActionName, refusal
from ..play.table import controls
from ..store import GameStore, GameSummary, StoredGame

STATIC_DIR = Path(__file__).parent / "static"
#: The player cookie's name is ``fl_player_<port>``: cookies are not kept apart by port,
#: so two servers on one machine (two databases) would otherwise overwrite each other's.
COOKIE = "fl_player"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600  # a player is meant to last: the cookie is the only key
MAX_BODY = 64 * 1024
MAX_RECORD = 2 * 1024 * 1024  # an import's JSON body: a record of 1 Mi characters, escaped
SAMPLES_DEFAULT, SAMPLES_MIN, SAMPLES_MAX = 10_000, 100, 100_000
SUITS = "cdhs"
# Ids are secrets.token_urlsafe(18) (24 chars); anything that cannot be one is refused
# before it reaches SQLite.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
GAME_STATUSES = ("finished", "unfinished", "playing", "abandoned", "won", "lost")
T = TypeVar("T")


class ApiError(Exception):
    """A refused request: answered as ``{"error": message, ...extra}`` with ``status``."""

    def __init__(self, status: int, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


# ---------------------------------------------------------------------------- JSON shapes
def card_json(card: Card) -> dict[str, object]:
    # Made once per card (a table shows ~70 of them in every answer); each answer gets a copy.
    cached = _CARD_JSON.get(card)
    if cached is None:
        cached = _CARD_JSON[card] = {"id": int(card), "rank": card.rank, "suit": SUITS[card.suit],
                                     "deck": card.deck, "symbol": card.symbol}
    return cached.copy()


_CARD_JSON: dict[Card, dict[str, object]] = {}


def variant_json(v: Variant) -> dict[str, object]:
    return {
        "redeals": v.redeals, "waste_playable": v.waste_playable, "privileged_last": v.privileged_last,
        "token": v.token, "description": v.describe(),
    }


def movement_json(m: Movement) -> dict[str, object]:
    return {"card": card_json(m.card), "from": m.source, "to": m.target, "face_up": m.face_up}


def position_json(pos: Position) -> dict[str, object]:
    """What the table shows of ``pos``: everything but the stock's order."""
    legal = pos.legal_moves()
    need = pos.need
    ctl = controls(pos)
    return {
        # Position.status, from the legal moves already at hand.
        "status": "won" if pos.active is None else "playing" if legal else "lost",
        "score": pos.score,
        "passes": pos.passes,
        "redeals_used": pos.redeals_used,
        "redeals_left": pos.redeals_left,
        "first": [None if c is None else card_json(c) for c in pos.first],
        "reserve": [None if c is None else card_json(c) for c in pos.reserve],
        "piles": [[card_json(c) for c in pile] for pile in pos.piles],
        "stock_count": len(pos.stock),
        # Backs only (the two decks have different backs); the order stays secret.
        "stock_decks": [c.deck for c in pos.stock],
        "waste": [card_json(c) for c in pos.waste],
        "active": pos.active,
        "need": need,
        "need_char": None if need is None else rank_char(need),
        "privileged": "F8" if pos.privileged is not None else None,
        "legal_moves": [str(m) for m in legal],
        # What the page's controls ask for (firstlast.play.table): it knows no rule.
        "stock_move": str(ctl.stock),
        "base_move": None if ctl.base is None else str(ctl.base),
        "drop_target": ctl.target,
        "hint": str(legal[0]) if legal else None,
        "refusals": refusals_json(pos, legal),
    }


# Every move a player can ask for on the table: the stock, the reserve, the first row, the waste.
TABLE_MOVES = ("turn", "redeal", *(f"R{k}" for k in range(1, 9)), *(f"F{k}" for k in range(1, 9)), "W")


def refusals_json(pos: Position, legal: list[Move] | tuple[Move, ...]) -> dict[str, dict[str, object]]:
    """The engine's refusal of each table move that is not legal now, so that the page
    can explain a refused click or drop at once, without a request answered 409 (which
    the browser reports as a failed load in its console)."""
    key = _refusals_key(pos, legal)
    out = _REFUSALS_BY_TABLE.get(key)
    if out is None:
        out = _refusals(pos, legal)
        if len(_REFUSALS_BY_TABLE) >= _REFUSALS_CACHED:
            _REFUSALS_BY_TABLE.clear()
        _REFUSALS_BY_TABLE[key] = out
    # Each answer gets its own dicts (the values in them are plain: str, int, None).
    copies: dict[str, dict[str, object]] = {}
    for text, body in out.items():
        params = body["params"]
        assert isinstance(params, dict)
        copies[text] = {**body, "params": params.copy()}
    return copies


def _refusals_key(pos: Position, legal: list[Move] | tuple[Move, ...]) -> tuple[object, ...]:
    """Everything ``Position.check_legal`` reads of ``pos`` for a table move, so that
    positions with the same key refuse the same moves alike: a run of turns keeps it."""
    k = pos.active
    if k is None or not legal:
        return (k, bool(legal))  # won, or stuck: every move is refused for that alone
    top = pos.waste[-1] if pos.variant.waste_playable and pos.waste else None  # W is read only in V2
    return (tuple(legal), k, len(pos.piles[k]), pos.need, pos.first, pos.reserve, bool(pos.stock), bool(pos.waste),
            top, pos.variant)


def _refusals(pos: Position, legal: list[Move] | tuple[Move, ...]) -> dict[str, dict[str, object]]:
    allowed = {str(m) for m in legal}
    out: dict[str, dict[str, object]] = {}
    for text, move in _TABLE_MOVES:
        if text in allowed:
            continue
        try:
            pos.check_legal(move, legal)  # the legal moves are worked out once, not per move
        except IllegalMoveError as exc:
            # The same refusal recurs from answer to answer: its JSON is made once.
            out[text] = error_json(refusal(move, exc))
    return out


_TABLE_MOVES: Final = tuple((text, Move.parse(text)) for text in TABLE_MOVES)
#: A table's refusals by ``_refusals_key``: made once, copied into each answer.
_REFUSALS_BY_TABLE: dict[tuple[object, ...], dict[str, dict[str, object]]] = {}
_REFUSALS_CACHED: Final = 4096


def state_json(stored: StoredGame) -> dict[str, object]:
    g = stored.game
    return {
        "id": stored.id,
        "deal": str(g.deal),
        "variant": variant_json(g.variant),
        **position_json(g.position),
        "can_undo": g.can_undo,
        "can_redo": g.can_redo,
        "moves": len(g),
        "created": stored.created,
        "updated": stored.updated,
        "finished": stored.finished,
        "version": stored.version,
        "origin": stored.origin,
        "result": stored.result,
        "abandoned": stored.abandoned is not None,
    }


def summary_json(g: GameSummary) -> dict[str, object]:
    return {
        "id": g.id, "deal": str(g.deal), "variant": g.variant.token, "description": g.variant.describe(),
        "status": g.status, "score": g.score, "passes": g.passes, "moves": g.moves, "created": g.created,
        "updated": g.updated, "finished": g.finished, "origin": g.origin, "result": g.result,
        "abandoned": g.abandoned is not None,
    }


def replay_json(stored: StoredGame) -> dict[str, object]:
    """The deal as dealt and every move made since, with its movements: enough for a
    page to replay the game without asking again. Only what was seen is told: a turned
    card's identity is known once turned, and a redeal's movements list the waste."""
    g = stored.game
    initial = {
        **state_json(stored), **position_json(g.initial),
        "can_undo": False, "can_redo": False, "moves": 0,
    }
    # The facts after each step come from the engine, so the page decides no rule.
    facts = []
    for pos in g.positions[1:]:
        need = pos.need
        facts.append({
            "status": pos.status, "score": pos.score, "passes": pos.passes,
            "redeals_used": pos.redeals_used, "redeals_left": pos.redeals_left,
            "active": pos.active, "need": need, "need_char": None if need is None else rank_char(need),
            "privileged": "F8" if pos.privileged is not None else None,
        })
    return {
        "initial": initial,
        "steps": [
            {"move": str(step.move), "movements": [movement_json(m) for m in step.movements], "facts": f}
            for step, f in zip(g.steps, facts, strict=True)
        ],
    }


def result_json(result: ActionResult) -> dict[str, object]:
    """An action's answer: the state as stored, the last move, every card movement in
    order, each move made (``steps``), and whether a new game went on the table."""
    move = result.move
    return {
        "state": state_json(result.stored),
        "move": None if move is None else str(move),
        "movements": [movement_json(m) for m in result.movements],
        "steps": [str(s.move) for s in result.steps],
        "new_game": result.new_game,
    }


# ---------------------------------------------------------------------------- input
async def read_body(request: Request, limit: int) -> bytes:
    """The body, refused with 413 past ``limit`` bytes (checked while streaming, so a
    lying or missing Content-Length cannot make the server buffer more)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise ApiError(413, f"the body is too large (at most {limit // 1024} KiB)")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"the body is too large (at most {limit // 1024} KiB)")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The body as a JSON object; an empty body reads as ``{}``."""
    body = await read_body(request, limit)
    if not body.strip():
        return {}
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested past the parser's limit
        raise ApiError(400, "the body is not valid JSON") from None
    if not isinstance(value, dict):
        raise ApiError(400, "the body must be a JSON object")
    return value


def check_fields(obj: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in obj:
        if key not in allowed:
            raise ApiError(422, f"unknown field {key!r} in {where} (expected {', '.join(allowed)})")


def parse_count(text: str | None, default: int, low: int, high: int, name: str) -> int:
    """A whole number from a query string: ASCII digits only, bounded before ``int()``."""
    if text is None:
        return default
    if not (0 < len(text) <= len(str(high)) and text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ApiError(422, f"{name} must be a whole number {low}…{high}")
    return int(text)


def parse_version(body: dict[str, Any]) -> int | None:
    """The game version the page acted on (docs/play.md, conflict policy), if sent."""
    version = body.get("version")
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version < 2**53:
        raise ApiError(422, "version must be the whole number the game's state carried")
    return version


# ---------------------------------------------------------------------------- the app
class _Headers:
    """Pure ASGI middleware: safety headers everywhere; API answers are never cached."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-content-type-options", b"nosniff"))
                # The sign-in link carries the player token: never leak it in a Referer.
                headers.append((b"referrer-policy", b"no-referrer"))
                headers.append((b"x-frame-options", b"DENY"))
                headers.append((b"content-security-policy", CSP.encode()))
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: The page's Content-Security-Policy: its own files only (no inline script or style, no
#: other origin), never framed.
CSP: Final = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self';"
              " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
              " frame-ancestors 'none'")
LOOPBACK_NAMES: Final = frozenset({"127.0.0.1", "localhost", "::1"})
#: Methods that change something: they must come from the page itself.
_WRITES: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``name`` and ``port`` of a Host header (``[::1]:8000`` too); ``None`` if malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1:]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else ""
    else:
        name, _, port_text = value.partition(":")
    if not name or (port_text and not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5)):
        return None
    return name, int(port_text) if port_text else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _Guard:
    """Pure ASGI middleware: what a web page the player visits must not be able to do.

    * ``Host`` must name this server: a loopback name, or the host it was started on
      (bound to every address, any IP literal: DNS rebinding needs a DNS name), with its
      port. Anything else is 421 — a rebinding page cannot talk to the API.
    * A state-changing request that carries ``Origin`` must come from this very origin
      (403), and one with a body must say ``application/json`` (415): the "simple"
      cross-site POSTs a page can send without asking (forms, ``text/plain``) are out.
    See docs/web-api.md, "Security model"."""

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

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host")
        refusal: tuple[int, str, str] | None = None
        if not self.host_ok(scope, host):
            refusal = (421, "request.host", "this server answers only to its own address (the Host header names "
                                            "another)")
        elif scope.get("method") in _WRITES:
            origin = headers.get("origin")
            scheme = str(scope.get("scheme", "http"))
            foreign = origin is not None and origin.lower() != f"{scheme}://{host}".lower()
            if foreign or headers.get("sec-fetch-site") == "cross-site":
                refusal = (403, "request.origin", "requests that change something must come from this page")
            elif _has_body(headers) and not _is_json(headers.get("content-type", "")):
                refusal = (415, "request.content_type", "the body must be JSON (Content-Type: application/json)")
        if refusal is not None:
            status, code, message = refusal
            await JSONResponse({"error": message, "code": code, "params": {}}, status_code=status)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _has_body(headers: dict[str, str]) -> bool:
    length = headers.get("content-length")
    return "chunked" in headers.get("transfer-encoding", "").lower() or (length is not None and length.strip() != "0")


def _is_json(content_type: str) -> bool:
    return content_type.split(";")[0].strip().lower() == "application/json"


class _Static(StaticFiles):
    """The front end's files; a plain 404 (not a 500) while the folder does not exist."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.directory is None or not Path(self.directory).is_dir():
            await JSONResponse({"error": "not found"}, status_code=404)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def cookie_name(request: Request) -> str:
    """``fl_player_<port>``, the port this server answers on."""
    server = request.scope.get("server")
    port = server[1] if server and server[1] is not None else (443 if request.url.scheme == "https" else 80)
    return f"{COOKIE}_{port}"


class WebGame:
    """The endpoints: HTTP in and out over ``PlayService``, which decides everything.
    Holds the per-game locks (one request at a time per game in this process) and the
    chance cache."""

    def __init__(self, store: GameStore, local_player: str | None) -> None:
        self.play = PlayService(store)
        self.local_player = local_player
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._chance_cache: OrderedDict[tuple[str, int], dict[str, object]] = OrderedDict()
        # The odds estimate is CPU-bound: at most two at a time, so that they cannot
        # starve the threads that serve moves.
        self._chance_limiter = anyio.CapacityLimiter(2)
        # The play layer does one thing at a time (PlayService's lock): its calls take
        # turns for one worker thread here, in the event loop, rather than each holding
        # a thread of their own that waits for the lock (dozens of threads contending
        # for the lock and the GIL cost more CPU than the moves themselves).
        self._play_limiter = anyio.CapacityLimiter(1)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (play-layer work: SQLite with fsync, replays) in a worker
        thread, so one slow request never stalls the others."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._play_limiter)

    # ------------------------------------------------------------ players
    async def player(self, request: Request) -> str | None:
        """The player of the request's cookie, if the store knows it."""
        token = request.cookies.get(cookie_name(request))
        if token is None or not _TOKEN.fullmatch(token):
            return None
        if self.play.is_known(token):
            return token  # known already: no worker thread needed to say so
        return await self.run(self.play.known_player, token)

    @staticmethod
    def set_cookie(request: Request, response: Response, pid: str) -> None:
        response.set_cookie(
            cookie_name(request), pid, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="strict",
            secure=request.url.scheme == "https",
        )

    def answer(self, request: Request, pid: str | None, player: str, body: object, status: int = 200) -> Response:
        """A JSON answer; sets the cookie when the play layer made ``player`` new."""
        response = JSONResponse(body, status_code=status)
        if player != pid:
            self.set_cookie(request, response, player)
        return response

    def lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    @staticmethod
    def game_id(request: Request) -> str:
        gid = str(request.path_params["id"])
        if not _TOKEN.fullmatch(gid):
            raise PlayError("game.unknown")  # unknown and foreign games answer alike
        return gid

    async def load(self, request: Request) -> StoredGame:
        gid = self.game_id(request)
        return await self.run(self.play.game, await self.player(request), gid)

    # ------------------------------------------------------------ pages
    async def index(self, request: Request) -> Response:
        token = request.query_params.get("player")
        if token is not None:
            # Sign in as an existing player (the link `firstlast play` opens), then drop
            # the token from the address bar. An unknown token changes nothing.
            redirect = RedirectResponse("/", status_code=303)
            if _TOKEN.fullmatch(token) and await self.run(self.play.known_player, token) is not None:
                self.set_cookie(request, redirect, token)
            return redirect
        index = STATIC_DIR / "index.html"
        if not index.is_file():
            return PlainTextResponse(
                "The browser front end is not installed (firstlast/web/static/index.html is missing).", 404
            )
        # No player is made here: one is made when something of theirs is first stored.
        return FileResponse(index, headers={"cache-control": "no-cache"})

    # ------------------------------------------------------------ games
    async def new_game(self, request: Request) -> Response:
        body = await read_json(request)
        check_fields(body, ("deal", "variant", "how"), "the new game")
        how = body.get("how", "number" if body.get("deal") is not None else "random")
        if how not in START_KINDS:
            raise ApiError(422, f"how must be one of {', '.join(START_KINDS)}")
        if how == "number" and body.get("deal") is None:
            raise ApiError(422, "how=number needs a deal")
        if how != "number" and body.get("deal") is not None:
            raise ApiError(422, f"how={how} takes no deal")
        variant = None if body.get("variant") is None else parse_variant(body["variant"])
        pid = await self.player(request)
        stored = await self.run(self.play.start, pid, how, body.get("deal"), variant)
        return self.answer(request, pid, stored.player, state_json(stored), 201)

    async def list_games(self, request: Request) -> Response:
        status = request.query_params.get("status")
        if status is not None and status not in GAME_STATUSES:
            raise ApiError(422, f"status must be one of {', '.join(GAME_STATUSES)}")
        limit = parse_count(request.query_params.get("limit"), 100, 1, 1000, "limit")
        games = await self.run(self.play.games, await self.player(request), status, limit)
        return JSONResponse({"games": [summary_json(g) for g in games]})

    async def current(self, request: Request) -> Response:
        stored = await self.run(self.play.current, await self.player(request))
        if stored is None:
            return Response(status_code=204)  # an empty table: the page deals a new game
        return JSONResponse(state_json(stored))

    async def get_game(self, request: Request) -> Response:
        return JSONResponse(state_json(await self.load(request)))

    async def open_game(self, request: Request) -> Response:
        gid = self.game_id(request)
        check_fields(await read_json(request), (), "the request")
        async with self.lock(gid):
            stored = await self.run(self.play.open, await self.player(request), gid)
        return JSONResponse(state_json(stored))

    async def act(self, request: Request, action: ActionName, fields: tuple[str, ...] = ()) -> Response:
        """Do ``action`` through the play layer, which commits it before we answer."""
        gid = self.game_id(request)
        body = await read_json(request)
        check_fields(body, ("version", *fields), f"the {action}")
        version = parse_version(body)
        argument: str | int | None = None
        if action == "move":
            text = body.get("move")
            if not isinstance(text, str) or len(text) > 16:
                raise ApiError(422, 'move must be a string: "turn", "redeal", "R1"…"R8", "F1"…"F8" or "W"')
            argument = text
        elif action == "step" and "n" in body:
            n = body["n"]
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_STEPS:
                raise ApiError(422, f"n must be a whole number 1…{MAX_STEPS}")
            argument = n
        pid = await self.player(request)
        async with self.lock(gid):
            result = await self.run(self.play.act, pid, gid, action, argument, version)
            answer = result_json(result)
        return JSONResponse(answer)

    async def move(self, request: Request) -> Response:
        return await self.act(request, "move", ("move",))

    async def step(self, request: Request) -> Response:
        return await self.act(request, "step", ("n",))

    async def advance(self, request: Request) -> Response:
        return await self.act(request, "advance")

    async def undo(self, request: Request) -> Response:
        return await self.act(request, "undo")

    async def redo(self, request: Request) -> Response:
        return await self.act(request, "redo")

    async def restart(self, request: Request) -> Response:
        return await self.act(request, "restart")

    # ------------------------------------------------------------ records
    async def record(self, request: Request) -> Response:
        gid = self.game_id(request)
        pid = await self.player(request)
        stored = await self.run(self.play.game, pid, gid)
        text = await self.run(self.play.record, pid, gid)
        return PlainTextResponse(text, headers={
            "content-disposition": f'attachment; filename="firstlast-{stored.game.deal}.txt"',
        })

    async def import_record(self, request: Request) -> Response:
        # JSON with the record as a string: a cross-site form cannot send that (_Guard).
        body = await read_json(request, MAX_RECORD)
        check_fields(body, ("record",), "the import")
        text = body.get("record")
        if not isinstance(text, str):
            raise ApiError(422, "record must be the record's text, as a string", code="record.invalid", params={})
        text = text.removeprefix("\ufeff")  # a byte-order mark read from a file
        pid = await self.player(request)
        stored = await self.run(self.play.import_record, pid, text)
        return self.answer(request, pid, stored.player, state_json(stored), 201)

    async def replay(self, request: Request) -> Response:
        return JSONResponse(replay_json(await self.load(request)))

    # ------------------------------------------------------------ odds
    async def chance(self, request: Request) -> Response:
        samples = parse_count(request.query_params.get("samples"), SAMPLES_DEFAULT, SAMPLES_MIN, SAMPLES_MAX,
                              "samples")
        stored = await self.load(request)
        pos = stored.game.position
        status = pos.status
        if status != "playing":
            # Decided: no sampling needed (and the kernel need not handle ended games).
            p = 1.0 if status == "won" else 0.0
            return JSONResponse({"probability": p, "low": p, "high": p, "samples": 0})
        key = (str(pos), samples)  # the notation includes the redeal stream: same key, same odds
        cached = self._chance_cache.get(key)
        if cached is None:
            def estimate() -> dict[str, object]:
                try:
                    # Imported here: numba compiles on first use, and a server without
                    # the odds module still serves the game.
                    from ..odds.live import chance_to_come_out
                except ImportError:
                    raise ApiError(503, "the odds estimate is not available in this installation") from None
                try:
                    est = chance_to_come_out(pos, samples=samples, seed=0)
                except (ValueError, OverflowError, MemoryError):
                    raise ApiError(503, "the odds estimate is not available for this game",
                                   code="chance.unavailable", params={}) from None
                return {"probability": float(est.probability), "low": float(est.low), "high": float(est.high),
                        "samples": int(est.samples)}

            cached = await anyio.to_thread.run_sync(estimate, limiter=self._chance_limiter)
            self._chance_cache[key] = cached
            while len(self._chance_cache) > 256:
                self._chance_cache.popitem(last=False)
        return JSONResponse(cached)

    # ------------------------------------------------------------ stats and settings
    async def stats(self, request: Request) -> Response:
        stats = await self.run(self.play.stats, await self.player(request))
        return JSONResponse({"variants": [s.to_json() for s in stats]})

    async def get_settings(self, request: Request) -> Response:
        settings = await self.run(self.play.settings, await self.player(request))
        return JSONResponse(settings.to_json())

    async def put_settings(self, request: Request) -> Response:
        body = await read_json(request)
        pid = await self.player(request)
        saved = await self.run(self.play.update_settings, pid, body)
        return self.answer(request, pid, saved.player, saved.settings.to_json())


#: HTTP status of each kind of play-layer refusal.
_STATUS: Final[dict[str, int]] = {"invalid": 422, "illegal": 409, "not_found": 404, "conflict": 409,
                                  "unavailable": 503}


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {404: "not found", 405: "method not allowed"}
    message = messages.get(exc.status_code, str(exc.detail))
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


def error_json(exc: PlayError) -> dict[str, object]:
    """A refusal's body: ``error`` (the English sentence), ``code`` and ``params`` (for
    the page to say it in its language), and ``rule``/``line`` when there is one."""
    body = exc.to_json()
    for key in ("rule", "line"):
        if key in exc.params:
            body[key] = exc.params[key]
    return body


async def _play_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PlayError)
    return JSONResponse(error_json(exc), status_code=_STATUS[exc.kind])


async def _engine_error(request: Request, exc: Exception) -> Response:
    # Engine errors that reach here were not turned into PlayErrors: bad input all the same.
    if isinstance(exc, IllegalMoveError):
        return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=409)
    return JSONResponse({"error": str(exc)}, status_code=422)


def create_app(store: GameStore, *, local_player: str | None = None, bind_host: str = "127.0.0.1") -> Starlette:
    """The browser game over ``store``. ``local_player`` is the player the terminal game
    uses (``store.local_player()``); it is kept as ``app.state.local_player`` so that
    ``firstlast play`` can open the browser signed in as it (``/?player=…``).
    ``bind_host``: the address the server listens on; with the loopback names, the only
    names the ``Host`` header may carry."""
    if local_player is not None and not store.has_player(local_player):
        raise ValueError("local_player is not a player of this store")
    web = WebGame(store, local_player)
    routes = [
        Route("/", web.index, methods=["GET"]),
        Route("/api/games", web.new_game, methods=["POST"]),
        Route("/api/games", web.list_games, methods=["GET"]),
        Route("/api/games/current", web.current, methods=["GET"]),
        Route("/api/games/import", web.import_record, methods=["POST"]),
        Route("/api/games/{id}", web.get_game, methods=["GET"]),
        Route("/api/games/{id}/moves", web.move, methods=["POST"]),
        Route("/api/games/{id}/step", web.step, methods=["POST"]),
        Route("/api/games/{id}/advance", web.advance, methods=["POST"]),
        Route("/api/games/{id}/open", web.open_game, methods=["POST"]),
        Route("/api/games/{id}/undo", web.undo, methods=["POST"]),
        Route("/api/games/{id}/redo", web.redo, methods=["POST"]),
        Route("/api/games/{id}/restart", web.restart, methods=["POST"]),
        Route("/api/games/{id}/record", web.record, methods=["GET"]),
        Route("/api/games/{id}/replay", web.replay, methods=["GET"]),
        Route("/api/games/{id}/chance", web.chance, methods=["GET"]),
        Route("/api/stats", web.stats, methods=["GET"]),
        Route("/api/settings", web.get_settings, methods=["GET"]),
        Route("/api/settings", web.put_settings, methods=["PUT"]),
        Mount("/static", app=_Static(directory=STATIC_DIR, check_dir=False), name="static"),
    ]
    import sqlite3

    from ..store import StoreError, UnknownGame

    async def _storage_error(request: Request, exc: Exception) -> Response:
        # Last resort: PlayService turns storage failures into PlayError('storage'); one
        # that slips past it is still a JSON 503 (not a plain 500, nor the engine
        # handler's 422 that StoreError, a FirstLastError, would otherwise get).
        if isinstance(exc, UnknownGame):
            return await _play_error(request, PlayError("game.unknown"))
        return await _play_error(request, PlayError("storage", reason=str(exc) or type(exc).__name__))

    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, PlayError: _play_error,
                            FirstLastError: _engine_error, StoreError: _storage_error,
                            sqlite3.Error: _storage_error},
    )
    app.add_middleware(_Guard, bind_host=bind_host)
    app.add_middleware(_Headers)  # outermost: refusals carry the safety headers too
    app.state.store = store
    app.state.play = web.play
    app.state.local_player = local_player
    app.state.web = web
    return app
