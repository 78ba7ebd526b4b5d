"""The first visit's table, made at build time (docs/site.md, "Loading"): what the page
asks first (a new player's settings, the welcome deal on the table, in each language),
asked of the very app the site runs (``Bridge``, in-process, on a throw-away store).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import tempfile
from pathlib import Path
from typing import Final

from ..engine import CANONICAL
from ..i18n import LANGS
from ..play.deals import WELCOME_DEAL
from .bridge import Bridge

#: The built game's id: not one the store makes (those are 24 URL-safe characters), so
#: the page knows a request for it is for the game the worker deals.
FIRST_ID: Final = "first-visit"
#: Its time stamps: fixed, so that two builds of the same sources are the same bytes.
FIRST_TIME: Final = "2020-01-01T00:00:00.000+00:00"


async def _ask() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        bridge = Bridge(str(Path(folder) / "first.sqlite3"), "https://first.invalid")
        try:
            read, settings = await bridge.call("GET", "/api/settings")
            deal = {"how": "number", "deal": str(WELCOME_DEAL), "variant": CANONICAL.token}
            tables: dict[str, object] = {}
            for lang in LANGS:
                said, _ = await bridge.call("PUT", "/api/settings", {"lang": lang})
                made, table = await bridge.call("POST", "/api/games", deal)
                if not all(200 <= status < 300 for status in (read, said, made)) or not isinstance(table, dict):
                    raise ValueError(f"the app refused the first table: {table!r:.200}")
                tables[lang] = {**table, "id": FIRST_ID, "created": FIRST_TIME, "updated": FIRST_TIME}
        finally:
            bridge.store.close()
    return {"id": FIRST_ID, "deal": deal, "settings": settings, "tables": tables}


def first_table() -> dict[str, object]:
    """What the page shows on a first visit: ``id`` (the built game's), ``deal`` (the
    request that deals it again), ``settings`` (a new player's) and ``tables`` (the
    game on the table, by language)."""
    # On a thread of its own: a build may be asked for where an event loop already runs
    # (a test driving a browser), and asyncio.run wants a thread without one. The build
    # runs on CPython only, never in the site itself.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(_ask())).result()


def first_table_html() -> str:
    """``first_table()`` as an inert JSON script element for the page (``<`` escaped,
    so that no text in it can end the element)."""
    text = json.dumps(first_table(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    safe = text.replace("<", "\\u003c")
    return f'<script type="application/json" id="site-first-table">{safe}</script>\n'
