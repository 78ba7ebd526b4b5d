"""The browser game's HTTP API (docs/web-api.md): Starlette over the engine and the store.

The server is authoritative. Every rule is decided by the engine, every accepted move is
committed to SQLite before the answer leaves, and a refused request changes nothing.
Moves on one game are serialized by a per-game ``asyncio.Lock``; the store's version
check covers writers outside this process (the terminal game, a second server).
Blocking work (SQLite with fsync, replays, the odds estimate) runs in worker threads so
that one slow request never stalls the others.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..engine import CANONICAL, MAX_DEAL, Card, Game, Move, Movement, Position, Variant, rank_char
from ..engine.errors import FirstLastError, IllegalMoveError, InvalidMoveError, RecordError
from ..store import GameStore, StoreConflict, StoredGame, StoreError, UnknownGame

STATIC_DIR = Path(__file__).parent / "static"
COOKIE = "fl_player"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600  # a player is meant to last: the cookie is the only key
MAX_BODY = 64 * 1024
MAX_RECORD = 1024 * 1024
MAX_REDEALS = 1000
SAMPLES_DEFAULT, SAMPLES_MIN, SAMPLES_MAX = 10_000, 100, 100_000
SAVE_ATTEMPTS = 3
SUITS = "cdhs"
# Ids are secrets.token_urlsafe(18) (24 chars); anything that cannot be one is refused
# before it reaches SQLite.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DEAL = re.compile(r"[0-9]{1,20}")
_SETTING_KEY = re.compile(r"[a-z][a-z0-9_]{0,31}")
MAX_SETTINGS = 32
MAX_SETTING_TEXT = 200
GAME_STATUSES = ("finished", "playing", "won", "lost")
CACHED_GAMES = 256
T = TypeVar("T")


class ApiError(Exception):
    """A refused request: answered as ``{"error": message, ...extra}`` with ``status``."""

    def __init__(self, status: int, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def _not_found() -> ApiError:
    # Unknown and foreign games answer alike, so ids cannot be probed.
    return ApiError(404, "no such game")


# ---------------------------------------------------------------------------- JSON shapes
def card_json(card: Card) -> dict[str, object]:
    return {"id": int(card), "rank": card.rank, "suit": SUITS[card.suit], "deck": card.deck, "symbol": card.symbol}


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
    return {
        "status": pos.status,
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
        "hint": str(legal[0]) if legal else None,
        "refusals": refusals_json(pos, legal),
    }


# Every move a player can ask for on the table: the stock, the reserve, the first row, the waste.
TABLE_MOVES = ("turn", "redeal", *(f"R{k}" for k in range(1, 9)), *(f"F{k}" for k in range(1, 9)), "W")


def refusals_json(pos: Position, legal: list[Move] | tuple[Move, ...]) -> dict[str, dict[str, str]]:
    """The engine's refusal of each table move that is not legal now, so that the page
    can explain a refused click or drop at once, without a request answered 409 (which
    the browser reports as a failed load in its console)."""
    allowed = {str(m) for m in legal}
    out: dict[str, dict[str, str]] = {}
    for text in TABLE_MOVES:
        if text in allowed:
            continue
        try:
            pos.check(Move.parse(text))
        except IllegalMoveError as exc:
            out[text] = {"error": str(exc), "rule": exc.rule}
    return out


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


def result_json(stored: StoredGame, move: Move | None, movements: tuple[Movement, ...]) -> dict[str, object]:
    return {
        "state": state_json(stored),
        "move": None if move is None else str(move),
        "movements": [movement_json(m) for m in movements],
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


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object; an empty body reads as ``{}``."""
    body = await read_body(request, MAX_BODY)
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


def parse_deal(value: object) -> int:
    """A deal number 0…2^64−1 given as a JSON integer or a string of digits; ``None``: random."""
    if value is None:
        return secrets.randbelow(MAX_DEAL + 1)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ApiError(422, f"deal must be a whole number 0…{MAX_DEAL} (a string or an integer)")
    if isinstance(value, str):
        if not _DEAL.fullmatch(value):
            raise ApiError(422, f"deal must be a whole number 0…{MAX_DEAL}, not {value[:40]!r}")
        value = int(value)
    if not 0 <= value <= MAX_DEAL:
        raise ApiError(422, f"deal must be 0…{MAX_DEAL}")
    return value


def parse_variant(value: object) -> Variant:
    """A ``Variant`` object (missing fields take the canonical values), a token such as
    ``"r3"``/``"ruw"``, or ``None`` for the canonical rules."""
    if value is None:
        return CANONICAL
    if isinstance(value, str):
        try:
            v = Variant.from_token(value)
        except ValueError:
            raise ApiError(422, f"not a variant token: {value[:40]!r} (expected e.g. r3, ru, r0w, r3n)") from None
        if v.redeals is not None and v.redeals > MAX_REDEALS:
            raise ApiError(422, f"variant.redeals must be null (unlimited) or 0…{MAX_REDEALS}")
        return v
    if not isinstance(value, dict):
        raise ApiError(422, "variant must be an object {redeals, waste_playable, privileged_last}")
    # "token" and "description" are answer-only fields, tolerated so that a State's
    # variant can be sent back as it came.
    check_fields(value, ("redeals", "waste_playable", "privileged_last", "token", "description"), "variant")
    redeals = value.get("redeals", CANONICAL.redeals)
    if redeals is not None and (
        isinstance(redeals, bool) or not isinstance(redeals, int) or not 0 <= redeals <= MAX_REDEALS
    ):
        raise ApiError(422, f"variant.redeals must be null (unlimited) or a whole number 0…{MAX_REDEALS}")
    flags = {}
    for name in ("waste_playable", "privileged_last"):
        flag = value.get(name, getattr(CANONICAL, name))
        if not isinstance(flag, bool):
            raise ApiError(422, f"variant.{name} must be true or false")
        flags[name] = flag
    return Variant(redeals=redeals, **flags)


def _is_text(value: str) -> bool:
    """False for strings JSON can carry but UTF-8 cannot (lone surrogates such as \\ud800)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_settings(body: dict[str, Any]) -> dict[str, object]:
    """Validate a settings update. ``lang`` and ``speed`` are checked for meaning; any
    other key is the front end's to define, but must be a short name with a small scalar
    value, so that a player's settings cannot grow without bound."""
    out: dict[str, object] = {}
    for key, value in body.items():
        if not isinstance(key, str) or not _SETTING_KEY.fullmatch(key):
            raise ApiError(422, f"bad setting name {str(key)[:40]!r} (lower-case letters, digits, _; 32 at most)")
        if value is None:
            out[key] = None  # null removes the setting
        elif key == "lang":
            if value not in ("ru", "en"):
                raise ApiError(422, "lang must be \"ru\" or \"en\"")
            out[key] = value
        elif key == "speed":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
                raise ApiError(422, "speed must be a whole number 0…3")
            out[key] = value
        elif isinstance(value, bool | str | int | float):
            if isinstance(value, str) and len(value) > MAX_SETTING_TEXT:
                raise ApiError(422, f"setting {key!r} is too long (at most {MAX_SETTING_TEXT} characters)")
            if isinstance(value, str) and not _is_text(value):
                raise ApiError(422, f"setting {key!r} is not valid Unicode text")
            if isinstance(value, float) and not math.isfinite(value):
                raise ApiError(422, f"setting {key!r} must be a finite number")
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
                raise ApiError(422, f"setting {key!r} is out of range")
            out[key] = value
        else:
            raise ApiError(422, f"setting {key!r} must be a string, number, true/false or null")
    return out


# ---------------------------------------------------------------------------- game actions
@dataclass
class Outcome:
    move: Move | None
    movements: tuple[Movement, ...]
    changed: bool = True


def _play(text: str) -> Callable[[Game], Outcome]:
    move = Move.parse(text)  # InvalidMoveError (422) before the game is even loaded

    def act(game: Game) -> Outcome:
        return Outcome(move, game.push(move))

    return act


def _step(game: Game) -> Outcome:
    step = game.step()
    if step is None:
        raise ApiError(409, "the game is over: there is no move to make (R11)", rule="R11")
    return Outcome(step.move, step.movements)


def _undo(game: Game) -> Outcome:
    if not game.can_undo:
        raise ApiError(409, "nothing to undo: no move has been made")
    move = game.moves[-1]
    return Outcome(move, game.undo())


def _redo(game: Game) -> Outcome:
    if not game.can_redo:
        raise ApiError(409, "nothing to redo")
    move = game.redo_moves[0]
    return Outcome(move, game.redo())


def _restart(game: Game) -> Outcome:
    if not game.can_undo:
        return Outcome(None, (), changed=False)
    game.restart()
    return Outcome(None, ())


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
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _Static(StaticFiles):
    """The front end's files; a plain 404 (not a 500) while the folder does not exist."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.directory is None or not Path(self.directory).is_dir():
            await JSONResponse({"error": "not found"}, status_code=404)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


class WebGame:
    """The endpoints, over one store. Holds the per-game locks and the known players."""

    def __init__(self, store: GameStore, local_player: str | None) -> None:
        self.store = store
        self.local_player = local_player
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._known: set[str] = set()  # players are never deleted, so a yes can be cached
        # One store call at a time in this process: SQLite lets one writer in anyway, and
        # threads queued on a Python lock wake at once, where SQLite's busy handler would
        # sleep and poll (tens of ms of tail latency under load).
        self._db_lock = threading.Lock()
        # Games as last committed by this process, so that a move needs no replay. Only
        # a hint: the store's version check catches any write made elsewhere (see change).
        self._games: OrderedDict[str, StoredGame] = OrderedDict()
        self._games_lock = threading.Lock()
        self._chance_cache: OrderedDict[tuple[str, int], dict[str, object]] = OrderedDict()
        # The odds estimate is CPU-bound: at most two at a time, so that they cannot
        # starve the threads that serve moves.
        self._chance_limiter = anyio.CapacityLimiter(2)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (store work) in a worker thread, holding the store lock."""

        def locked() -> T:
            with self._db_lock:
                return fn(*args)

        return await run_in_threadpool(locked)

    def _take_cached(self, gid: str) -> StoredGame | None:
        with self._games_lock:
            return self._games.pop(gid, None)

    def _put_cached(self, stored: StoredGame) -> None:
        with self._games_lock:
            self._games[stored.id] = stored
            while len(self._games) > CACHED_GAMES:
                self._games.popitem(last=False)

    # ------------------------------------------------------------ players
    async def known(self, token: str | None) -> str | None:
        if token is None or not _TOKEN.fullmatch(token):
            return None
        if token in self._known:
            return token
        if await self.db(self.store.has_player, token):
            self._known.add(token)
            return token
        return None

    async def player(self, request: Request) -> str | None:
        """The player of the request's cookie, if the store knows it."""
        return await self.known(request.cookies.get(COOKIE))

    async def player_or_new(self, request: Request) -> tuple[str, bool]:
        """The request's player, creating one (cookie to be set) when it has none."""
        pid = await self.player(request)
        if pid is not None:
            return pid, False
        pid = await self.db(self.store.new_player)
        self._known.add(pid)
        return pid, True

    @staticmethod
    def set_cookie(request: Request, response: Response, pid: str) -> None:
        response.set_cookie(
            COOKIE, pid, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="strict",
            secure=request.url.scheme == "https",
        )

    def lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def load(self, request: Request) -> StoredGame:
        pid = await self.player(request)
        gid = request.path_params["id"]
        if pid is None or not _TOKEN.fullmatch(gid):
            raise _not_found()
        try:
            return await self.db(self.store.load, gid, pid)
        except UnknownGame:
            raise _not_found() from None

    # ------------------------------------------------------------ pages
    async def index(self, request: Request) -> Response:
        token = request.query_params.get("player")
        if token is not None:
            # Sign in as an existing player (the link `firstlast play` opens), then drop
            # the token from the address bar. An unknown token changes nothing.
            redirect = RedirectResponse("/", status_code=303)
            if await self.known(token) is not None:
                self.set_cookie(request, redirect, token)
            return redirect
        index = STATIC_DIR / "index.html"
        if not index.is_file():
            return PlainTextResponse(
                "The browser front end is not installed (firstlast/web/static/index.html is missing).", 404
            )
        pid, new = await self.player_or_new(request)
        response = FileResponse(index, headers={"cache-control": "no-cache"})
        if new:
            self.set_cookie(request, response, pid)
        return response

    # ------------------------------------------------------------ games
    async def new_game(self, request: Request) -> Response:
        body = await read_json(request)
        check_fields(body, ("deal", "variant"), "the new game")
        deal = parse_deal(body.get("deal"))
        variant = parse_variant(body.get("variant"))
        pid, new = await self.player_or_new(request)
        stored = await self.db(self.store.create, pid, deal, variant)
        response = JSONResponse(state_json(stored), status_code=201)
        if new:
            self.set_cookie(request, response, pid)
        return response

    async def list_games(self, request: Request) -> Response:
        status = request.query_params.get("status")
        if status is not None and status not in GAME_STATUSES:
            raise ApiError(422, f"status must be one of {', '.join(GAME_STATUSES)}")
        limit_text = request.query_params.get("limit", "100")
        if not limit_text.isdigit() or not 1 <= int(limit_text) <= 1000:
            raise ApiError(422, "limit must be a whole number 1…1000")
        pid = await self.player(request)
        if pid is None:
            return JSONResponse({"games": []})
        games = await self.db(lambda: self.store.games(pid, status=status, limit=int(limit_text)))
        return JSONResponse({"games": [{**g.to_json(), "description": g.variant.describe()} for g in games]})

    async def current(self, request: Request) -> Response:
        pid = await self.player(request)
        if pid is not None:
            games = await self.db(lambda: self.store.games(pid, status="playing", limit=1))
            if games:
                try:
                    stored = await self.db(self.store.load, games[0].id, pid)
                except UnknownGame:
                    pass  # deleted in between: as if there were none
                else:
                    return JSONResponse(state_json(stored))
        raise ApiError(404, "no unfinished game")

    async def get_game(self, request: Request) -> Response:
        return JSONResponse(state_json(await self.load(request)))

    async def change(self, request: Request, action: Callable[[Game], Outcome]) -> Response:
        """Act on a game and commit it before answering, under the game's lock.

        The game comes from this process's cache when it has it (no replay), else from
        the store. Either way ``save`` commits only over the version it was read at: if
        another process wrote in between (the terminal game, a second server), the save
        is refused, and the action is done again on the game freshly loaded. A refusal
        decided on a cached game is likewise checked again on the stored one, so a stale
        cache can cost a reload but never a wrong answer.
        """
        pid = await self.player(request)
        gid = request.path_params["id"]
        if pid is None or not _TOKEN.fullmatch(gid):
            raise _not_found()

        def work() -> tuple[StoredGame, Outcome]:
            for attempt in range(SAVE_ATTEMPTS):
                stored = self._take_cached(gid) if attempt == 0 else None
                cached = stored is not None
                if stored is None:
                    try:
                        stored = self.store.load(gid, pid)
                    except UnknownGame:
                        raise _not_found() from None
                if stored.player != pid:
                    self._put_cached(stored)
                    raise _not_found()
                try:
                    outcome = action(stored.game)
                except (FirstLastError, ApiError):
                    # Refused: the engine changed nothing. Decide again on the stored game
                    # if this one came from the cache; a fresh refusal stands.
                    if cached:
                        continue
                    self._put_cached(stored)
                    raise
                if not outcome.changed and cached:
                    continue  # "nothing to do" is a decision too: make it on the stored game
                if outcome.changed:
                    try:
                        self.store.save(stored)
                    except StoreConflict:
                        continue  # the changed game is dropped; reload and act again
                self._put_cached(stored)
                return stored, outcome
            raise ApiError(409, "the game was changed elsewhere at the same moment; reload it")

        async with self.lock(gid):
            stored, outcome = await self.db(work)
        return JSONResponse(result_json(stored, outcome.move, outcome.movements))

    async def move(self, request: Request) -> Response:
        body = await read_json(request)
        check_fields(body, ("move",), "the move")
        text = body.get("move")
        if not isinstance(text, str) or len(text) > 16:
            raise ApiError(422, 'move must be a string: "turn", "redeal", "R1"…"R8", "F1"…"F8" or "W"')
        return await self.change(request, _play(text))

    async def step(self, request: Request) -> Response:
        return await self.change(request, _step)

    async def undo(self, request: Request) -> Response:
        return await self.change(request, _undo)

    async def redo(self, request: Request) -> Response:
        return await self.change(request, _redo)

    async def restart(self, request: Request) -> Response:
        return await self.change(request, _restart)

    # ------------------------------------------------------------ records
    async def record(self, request: Request) -> Response:
        stored = await self.load(request)
        from ..engine.record import record_to_text

        text = record_to_text(stored.game, date=stored.created[:10])
        return PlainTextResponse(text, headers={
            "content-disposition": f'attachment; filename="firstlast-{stored.game.deal}.txt"',
        })

    async def import_record(self, request: Request) -> Response:
        body = await read_body(request, MAX_RECORD)
        try:
            text = body.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ApiError(422, "the record is not UTF-8 text") from None
        if not text.strip():
            raise ApiError(422, "the record is empty")
        pid, new = await self.player_or_new(request)
        try:
            stored = await self.db(self.store.import_record, pid, text)
        except RecordError as e:
            raise ApiError(422, f"bad record: {e}", line=e.line) from None
        except (FirstLastError, ValueError) as e:  # e.g. odd digits int() refuses
            raise ApiError(422, f"bad record: {e}", line=None) from None
        response = JSONResponse(state_json(stored), status_code=201)
        if new:
            self.set_cookie(request, response, pid)
        return response

    async def replay(self, request: Request) -> Response:
        return JSONResponse(replay_json(await self.load(request)))

    # ------------------------------------------------------------ odds
    async def chance(self, request: Request) -> Response:
        text = request.query_params.get("samples", str(SAMPLES_DEFAULT))
        if not text.isdigit() or not SAMPLES_MIN <= int(text) <= SAMPLES_MAX:
            raise ApiError(422, f"samples must be a whole number {SAMPLES_MIN}…{SAMPLES_MAX}")
        samples = int(text)
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
                est = chance_to_come_out(pos, samples=samples, seed=0)
                return {"probability": float(est.probability), "low": float(est.low), "high": float(est.high),
                        "samples": int(est.samples)}

            cached = await anyio.to_thread.run_sync(estimate, limiter=self._chance_limiter)
            self._chance_cache[key] = cached
            while len(self._chance_cache) > 256:
                self._chance_cache.popitem(last=False)
        return JSONResponse(cached)

    # ------------------------------------------------------------ stats and settings
    async def stats(self, request: Request) -> Response:
        pid = await self.player(request)
        if pid is None:
            return JSONResponse({"variants": []})

        def collect() -> list[dict[str, object]]:
            variants = sorted(self.store.variants_played(pid), key=lambda v: v != CANONICAL)
            return [self.store.stats(v, pid).to_json() for v in variants]

        return JSONResponse({"variants": await self.db(collect)})

    async def get_settings(self, request: Request) -> Response:
        pid = await self.player(request)
        if pid is None:
            return JSONResponse({})
        return JSONResponse(await self.db(self.store.settings, pid))

    async def put_settings(self, request: Request) -> Response:
        update = parse_settings(await read_json(request))
        pid, new = await self.player_or_new(request)

        def merge() -> dict[str, object]:
            settings = self.store.settings(pid)
            for key, value in update.items():
                if value is None:
                    settings.pop(key, None)
                else:
                    settings[key] = value
            if len(settings) > MAX_SETTINGS:
                raise ApiError(422, f"too many settings (at most {MAX_SETTINGS})")
            self.store.save_settings(pid, settings)
            return settings

        response = JSONResponse(await self.db(merge))
        if new:
            self.set_cookie(request, response, pid)
        return response


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {404: "not found", 405: "method not allowed"}
    message = messages.get(exc.status_code, str(exc.detail))
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def _engine_error(request: Request, exc: Exception) -> Response:
    if isinstance(exc, IllegalMoveError):
        return JSONResponse({"error": str(exc), "rule": exc.rule}, status_code=409)
    if isinstance(exc, InvalidMoveError):
        return JSONResponse({"error": str(exc)}, status_code=422)
    if isinstance(exc, UnknownGame):
        return JSONResponse({"error": "no such game"}, status_code=404)
    if isinstance(exc, StoreError):
        # A corrupt or unreadable database is the server's fault, not the request's.
        return JSONResponse({"error": f"storage error: {exc}"}, status_code=500)
    return JSONResponse({"error": str(exc)}, status_code=409)


def create_app(store: GameStore, *, local_player: str | None = None) -> Starlette:
    """The browser game over ``store``. ``local_player`` is the player the terminal game
    uses (``store.local_player()``); it is kept as ``app.state.local_player`` so that
    ``firstlast play`` can open the browser signed in as it (``/?player=…``)."""
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
    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, FirstLastError: _engine_error},
    )
    app.add_middleware(_Headers)
    app.state.store = store
    app.state.local_player = local_player
    app.state.web = web
    return app
