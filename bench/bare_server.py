"""A bare Starlette endpoint under the same uvicorn settings as ``firstlast play``.

    python bench/bare_server.py SAMPLE.json

The yardstick of ``bench/server_ratio.py``: ``POST /api/games/{id}/moves`` reads the JSON
body and answers the JSON object in ``SAMPLE.json`` (a real move answer, so the body
has the same size and shape), serialized afresh each time as ``JSONResponse`` does.
No database, no game: what is left is uvicorn, h11, Starlette and JSON. Prints
``served at http://127.0.0.1:PORT/`` once it listens, like the real server.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import threading
import time
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from firstlast.web.server import uvicorn_config


def main() -> None:
    sample = json.loads(Path(sys.argv[1]).read_text())

    async def move(request: Request) -> Response:
        await request.json()
        return JSONResponse(sample)

    app = Starlette(routes=[Route("/api/games/{id}/moves", move, methods=["POST"])])
    server = uvicorn.Server(uvicorn_config(app))  # the very settings firstlast.web.server.serve runs under
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        print(f"bare Starlette served at http://127.0.0.1:{port}/", flush=True)

    threading.Thread(target=announce, daemon=True).start()
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])


if __name__ == "__main__":
    main()
