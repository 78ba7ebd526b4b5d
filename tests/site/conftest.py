"""The static site's fixtures: one build per test session (``site_dir``, from the
registries through the user cache), served by a plain static file server under a
sub-path, as on GitHub project pages (``site_url``)."""

from __future__ import annotations

import fcntl
import os
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
    """A folder holding the built site at ``SUB_PATH``: built once for the whole run, also
    when pytest-xdist runs it in several processes (the first to take the lock builds it
    in their shared temporary folder; the others wait and reuse it)."""
    from firstlast.site.build import SiteBuildError, build_site

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder every worker's own temporary folder is in
    root = shared / "static-host"
    with open(shared / "static-host.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        built = shared / "static-host.built"  # written once the build is whole
        if not built.exists():
            try:
                build_site(root / SUB_PATH)
            except SiteBuildError as e:
                pytest.fail(f"the site did not build: {e}")
            built.touch()
    return root


@pytest.fixture(scope="session")
def site_dir(site_root: Path) -> Path:
    return site_root / SUB_PATH


@pytest.fixture(scope="session")
def site_url(site_root: Path) -> Iterator[str]:
    """The site under its sub-path, served by a plain static file server."""
    with serve_folder(site_root, SUB_PATH) as url:
        yield url
