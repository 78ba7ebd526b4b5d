"""The static site's fixtures: one build per test session (``site_dir``, from the
registries through the user cache), served by a plain static file server under a
sub-path, as on GitHub project pages (``site_url``)."""

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
def site_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the built site at ``SUB_PATH``."""
    from firstlast.site.build import SiteBuildError, build_site

    root = tmp_path_factory.mktemp("static-host")
    try:
        build_site(root / SUB_PATH)
    except SiteBuildError as e:
        pytest.fail(f"the site did not build: {e}")
    return root


@pytest.fixture(scope="session")
def site_dir(site_root: Path) -> Path:
    return site_root / SUB_PATH


@pytest.fixture(scope="session")
def site_url(site_root: Path) -> Iterator[str]:
    """The site under its sub-path, served by a plain static file server."""
    with serve_folder(site_root, SUB_PATH) as url:
        yield url
