"""``firstlast play`` with N worker threads for play-layer calls instead of the shipped number.

    python bench/wide_play_server.py N play --no-browser --port 0 --db PATH

A what-if for ``bench/server_ratio.py --play-threads N``: the web layer runs at most
``web.context.PLAY_THREADS`` play-layer calls at once in worker threads
(``WebGame._play_limiter``): new games, reads, settings (moves go to the group writer
from the event loop, ``PlayService.act_async``, and do not use them). This launcher sets
the limiter to N before the server starts and changes nothing else. It fails loudly if the
web layer no longer has that limiter (then the bench option is obsolete).
"""

from __future__ import annotations

import sys
from typing import Any

import anyio

from firstlast.cli.main import main
from firstlast.web import context


def widen(threads: int) -> None:
    init = context.WebGame.__init__

    def wide_init(self: context.WebGame, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        if not isinstance(getattr(self, "_play_limiter", None), anyio.CapacityLimiter):
            raise SystemExit("WebGame._play_limiter is gone: --play-threads no longer applies")
        self._play_limiter = anyio.CapacityLimiter(threads)

    context.WebGame.__init__ = wide_init  # type: ignore[method-assign]


if __name__ == "__main__":
    widen(int(sys.argv[1]))
    sys.argv = [sys.argv[0], *sys.argv[2:]]
    sys.exit(main())
