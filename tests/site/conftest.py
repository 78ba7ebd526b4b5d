"""The static site's fixtures: the session's build (``site_root``, ``site_dir``: in
tests/conftest.py, which tests/packaging shares), served by a plain static file server
under a sub-path, as on GitHub project pages (``site_url``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The browser tests' helpers (tests/web/browser.py) are shared; hosting.py is this folder's.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hosting import SUB_PATH, serve_folder


@pytest.fixture(scope="session")
def site_url(site_root: Path) -> Iterator[str]:
    """The site under its sub-path, served by a plain static file server."""
    with serve_folder(site_root, SUB_PATH) as url:
        yield url
