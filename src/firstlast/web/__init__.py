"""The browser game: a Starlette app over the rules engine and the SQLite store
(the HTTP contract is docs/web-api.md), and the uvicorn runner behind ``firstlast play``."""

from .app import create_app

__all__ = ["create_app"]
