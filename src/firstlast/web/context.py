"""What every route shares: the play layer, the player of a request (its cookie), the
worker threads, and ``Endpoint``, one row of the route table that
both serves a route (``app.create_app``) and declares it (``schema``)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import math
import os
import re
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import anyio
import msgspec
from starlette.requests import Request
from starlette.responses import Response

from .. import runtime
from ..i18n import lang_of_tag
from ..play import PlayError, PlayService, Settings
from ..play.chance import ChanceBook, story_book
from ..play.fields import ID_PATTERN
from .models import Lang, encode

T = TypeVar("T")
#: The player cookie's name, ``fl_player_<port>`` (docs/web-api.md, "Security model": why the port).
COOKIE: Final = "fl_player"
COOKIE_MAX_AGE: Final = 10 * 365 * 24 * 3600  # a player is meant to last: the cookie is the only key
_TOKEN: Final = re.compile(ID_PATTERN)  # what cannot be an id is refused before it reaches SQLite


#: New players a server makes at most, and again that many each window (issue 29.6;
#: docs/web-api.md, "Players and games"); a bench raises the bound with ``NEW_PLAYERS_ENV``.
NEW_PLAYERS: Final = 100
NEW_PLAYERS_WINDOW_S: Final = 3600.0
NEW_PLAYERS_ENV: Final = "FIRSTLAST_NEW_PLAYERS"
#: The MAC of the cookie's ``TOKEN.MAC``, 128 bits in base64url (docs/web-api.md, "Players and games").
MAC_CHARS: Final = 22


def cookie_name(request: Request) -> str:
    server = request.scope.get("server")
    port = server[1] if server and server[1] is not None else (443 if request.url.scheme == "https" else 80)
    return f"{COOKIE}_{port}"


def is_token(text: str) -> bool:
    return _TOKEN.fullmatch(text) is not None


class PlayerBudget:
    """A bucket of ``size`` new players that fills again at ``size`` per ``window_s``
    seconds. Taken only on the event loop: no lock."""

    def __init__(self, size: int | None = None, window_s: float = NEW_PLAYERS_WINDOW_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        text = os.environ.get(NEW_PLAYERS_ENV, "")
        bound = int(text) if text.isascii() and text.isdigit() and 0 < int(text) < 10**9 else NEW_PLAYERS
        self.size = size if size is not None else bound
        self.window_s = window_s
        self._clock = clock
        self._left = float(self.size)
        self._at = clock()

    def take(self) -> int | None:
        """``None`` if a place was taken, else the whole seconds until one is free."""
        now = self._clock()
        rate = self.size / self.window_s
        self._left = min(float(self.size), self._left + max(0.0, now - self._at) * rate)
        self._at = now
        if self._left >= 1:
            self._left -= 1
            return None
        return max(1, math.ceil((1 - self._left) / rate))


def json_response(body: msgspec.Struct, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    return Response(encode(body), status, headers, media_type="application/json")


def browser_lang(request: Request) -> Lang:
    """The language the browser prefers (``Accept-Language``): Russian when its most
    preferred tag names it (``i18n.lang_of_tag``, as the page reads
    ``navigator.languages``), else English."""
    best_q, best = 0.0, ""
    for item in request.headers.get("accept-language", "").split(",")[:32]:
        tag, *params = item.split(";")
        q = 1.0
        for name, _, value in (p.partition("=") for p in params):
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag.strip() and q > best_q:  # the first of equals wins
            best_q, best = q, tag.strip()
    return "ru" if lang_of_tag(best) == "ru" else "en"


#: How many play-layer calls may run at once (worker threads); see ``WebGame``.
PLAY_THREADS: Final = 32


class WebGame:
    """The state the routes share over ``PlayService``, which decides everything."""

    def __init__(self, play: PlayService, *, site_url: str | None = None, new_players: PlayerBudget | None = None
                 ) -> None:
        self.play = play
        # The cookie is signed with this database's key; where none can be stored (a
        # read-only database that has none yet, where every write answers 503 anyway),
        # with one of this process's own.
        try:
            self._key = play.secret("cookie").encode("ascii")
        except PlayError:
            self._key = secrets.token_urlsafe(32).encode("ascii")
        self.new_players = new_players or PlayerBudget()
        #: The player's static site online, if any: shared links point there.
        self.site_url = site_url
        # Round estimates by position (the play layer's one policy and cache), told in
        # each player's language on the way out.
        self.chances = ChanceBook()
        # Stories by game (the play layer's one cache).
        self.stories = story_book()
        # The odds estimates (chance, stories) are CPU-bound: at most two at a time, so
        # that they cannot starve the threads that serve moves, and one player's at most
        # one at a time (``cpu_turn``), so that one player cannot hold both.
        self.chance_limiter = anyio.CapacityLimiter(2)
        self._cpu_turns: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # Play-layer calls (SQLite) run in worker threads, up to PLAY_THREADS at once: the
        # play layer is thread-safe, and its writer commits what is queued together in
        # one transaction, so the wider this is, the fewer fsyncs per write (docs/play.md).
        self._play_limiter = anyio.CapacityLimiter(PLAY_THREADS)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (SQLite with fsync, replays) in a worker thread, so one slow
        request never stalls the others (inline where there are no threads: ``runtime``)."""
        return await runtime.run_blocking(fn, *args, limiter=self._play_limiter)

    async def lang(self, request: Request, player: str | None) -> Lang:
        """The player's language: their ``lang`` setting (read in a worker thread unless
        the play layer knows it already), else the browser's."""
        settings = self.play.known_settings(player)
        if settings is None:
            settings = await self.run(self.play.settings, player)
        return settings.lang or browser_lang(request)

    async def run_lang(self, request: Request, player: str | None, fn: Callable[..., T], *args: Any
                       ) -> tuple[T, Lang]:
        """``fn(*args)``, then ``player``'s language, in one worker-thread call (a
        player made by ``fn`` has the default settings: the browser's language)."""
        def job() -> tuple[T, Settings]:
            return fn(*args), self.play.settings(player)

        result, settings = await self.run(job)
        return result, settings.lang or browser_lang(request)

    def _mac(self, player: str) -> str:
        digest = hmac.new(self._key, b"fl_player:" + player.encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii")[:MAC_CHARS]

    def seal(self, player: str) -> str:
        """The cookie value for ``player``."""
        return f"{player}.{self._mac(player)}"

    async def player(self, request: Request) -> str | None:
        """The player of the request's cookie, if this database signed it and knows them."""
        token, dot, mac = request.cookies.get(cookie_name(request), "").rpartition(".")
        if not dot or not is_token(token) or not mac.isascii() or not hmac.compare_digest(mac, self._mac(token)):
            return None
        if self.play.is_known(token):
            return token  # known already: no worker thread needed to say so
        return await self.run(self.play.known_player, token)

    async def player_or_place(self, request: Request) -> str | None:
        """``player``, for a request that stores something: with no player, one will be
        made, so a new player's place is taken first (``new_players``); none left is
        429 ``player.limit`` and nothing is stored."""
        pid = await self.player(request)
        if pid is None:
            wait = self.new_players.take()
            if wait is not None:
                from .errors import WebError  # errors imports this module

                raise WebError("player.limit", limit=self.new_players.size, retry_after=wait)
        return pid

    def set_cookie(self, request: Request, response: Response, pid: str) -> None:
        response.set_cookie(
            cookie_name(request), self.seal(pid), max_age=COOKIE_MAX_AGE, path="/", httponly=True,
            samesite="strict", secure=request.url.scheme == "https",
        )

    def answer(self, request: Request, pid: str | None, player: str, body: msgspec.Struct,
               status: int = 200) -> Response:
        """A JSON answer, with the cookie when the play layer made ``player`` new."""
        response = json_response(body, status)
        if player != pid:
            self.set_cookie(request, response, player)
        return response

    def cpu_turn(self, player: str) -> asyncio.Lock:
        """The lock a player's long computations (chance, stories) take turns under: a
        player's requests queue behind each other (holding no thread) and never hold
        more than one of ``chance_limiter``'s slots."""
        lock = self._cpu_turns.get(player)
        if lock is None:
            self._cpu_turns[player] = lock = asyncio.Lock()  # gone again once nobody holds it (weak)
        return lock

    @staticmethod
    def game_id(request: Request) -> str:
        gid = str(request.path_params["id"])
        if not is_token(gid):
            raise PlayError("game.unknown")  # unknown and foreign games answer alike
        return gid

    async def load_lang(self, request: Request, read: Callable[[str | None, str], T]) -> tuple[T, Lang]:
        """``read(player, game id)`` of the request's game, and the player's language."""
        gid = self.game_id(request)
        pid = await self.player(request)
        return await self.run_lang(request, pid, read, pid, gid)


Handler = Callable[[WebGame, Request], Awaitable[Response]]
#: An answer's content: a model (JSON), a media type (``"text/plain"``), or ``None`` (empty).
Content = type[msgspec.Struct] | str | None


@dataclass(frozen=True)
class Endpoint:
    """One route: served by ``handler``, declared by the rest (``schema``). ``answers``:
    status → content for the answers that are not refusals; ``errors``: the refusals
    this route can answer besides those every route of its kind can (``schema``)."""

    method: str
    path: str
    handler: Handler | None  # None: served by a mount (static files)
    summary: str
    body: Content = None
    query: type[msgspec.Struct] | None = None
    answers: Mapping[int, Content] = field(default_factory=dict)
    errors: tuple[int, ...] = ()
