"""The browser game's HTTP API (docs/web-api.md: the server is authoritative, and this
package decides nothing): Starlette over the play layer, served from one route table
(``routes.ENDPOINTS``). The package's modules, by concern: README's layout table."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from ..engine.errors import FirstLastError
from ..play import GameStore, PlayError, PlayService
from . import errors
from .context import Handler, PlayerBudget, WebGame
from .middleware import Guard
from .routes import ENDPOINTS
from .routes.pages import STATIC_DIR

__all__ = ["STATIC_DIR", "create_app"]


class PathRoute(Route):
    """Every method the route table serves at one path: a 405 names them all. A path
    with a parameter leaves the table's literal paths to their own routes, whatever the
    method (OpenAPI: a concrete path wins over a template): ``GET /api/games/import`` is
    a 405 naming POST, as the schema says, not a game named "import" looked up."""

    def __init__(self, path: str, handlers: dict[str, Handler], web: WebGame, literal: frozenset[str]) -> None:
        async def endpoint(request: Request) -> Response:  # a plain function: Starlette wraps it as a handler
            return await handlers["GET" if request.method == "HEAD" else request.method](web, request)

        super().__init__(path, endpoint, methods=list(handlers))
        self.literal = literal if "{" in path else frozenset()

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope.get("path") in self.literal:
            return Match.NONE, {}
        return super().matches(scope)


def create_app(store: GameStore | PlayService, *, bind_host: str = "127.0.0.1", site_url: str | None = None,
               new_players: PlayerBudget | None = None) -> Starlette:
    """The browser game over ``store`` (or a play layer made on one). ``bind_host``: with
    the loopback names, the only names ``Host`` may carry. ``site_url``: where the
    player's static site is online (docs/site.md): the page shares deals as links to it,
    since a link to this server reaches no one else."""
    play = store if isinstance(store, PlayService) else PlayService(store)
    web = WebGame(play, site_url=site_url, new_players=new_players)
    served: dict[str, dict[str, Handler]] = {}  # path → method → handler, in the table's order
    routes: list[BaseRoute] = []
    for e in ENDPOINTS:
        if e.handler is None:  # the static files
            # check_dir=False: the static site's copy of the package leaves the page's files
            # out (the site serves its own), yet runs this app in its worker (docs/site.md)
            mount = e.path.removesuffix("/{path}")
            files = StaticFiles(directory=STATIC_DIR, check_dir=False)
            routes.append(Mount(mount, app=files, name=mount.strip("/")))
        else:
            served.setdefault(e.path, {})[e.method] = e.handler
    literal = frozenset(path for path in served if "{" not in path)
    routes += [PathRoute(path, handlers, web, literal) for path, handlers in served.items()]
    app = Starlette(
        routes=routes,
        exception_handlers={errors.WebError: errors.on_web_error, HTTPException: errors.on_http_error,
                            PlayError: errors.on_play_error, FirstLastError: errors.on_slipped_error},
    )
    app.add_middleware(Guard, bind_host=bind_host)
    app.state.web = web
    return app
