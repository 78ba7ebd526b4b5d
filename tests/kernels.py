"""The routes of the fast forced line, for the tests that compare them.

A route that cannot run here (no C compiler for ``native``, no wasmtime) skips the test,
or fails it under the test script, which installs what the tests need
(FIRSTLAST_NO_SKIP, as for the browser tests).
"""

from __future__ import annotations

import os

import pytest

from firstlast.odds import fastline


def load_route(route: str) -> fastline.Kernel:
    """The kernel through ``route`` (``native``, ``wasmtime``, ``pyodide``)."""
    try:
        return fastline.load(route)
    except fastline.Unavailable as e:
        if os.environ.get("FIRSTLAST_NO_SKIP"):
            raise
        pytest.skip(f"the {route} route does not run here: {e}")


def need_compiler() -> None:
    """For a test that builds the native kernel."""
    try:
        fastline.compiler()
    except fastline.Unavailable as e:
        if os.environ.get("FIRSTLAST_NO_SKIP"):
            raise
        pytest.skip(str(e))
