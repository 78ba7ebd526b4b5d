"""The static site's fixtures: one build per test session (``site_dir``, from the
registries through the user cache), served by a plain static file server under a
sub-path, as on GitHub project pages (``site_url``)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# The browser tests' helpers (tests/web/browser.py) are shared.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))

SUB_PATH = "fl/table"


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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def site_url(site_root: Path) -> Iterator[str]:
    """``python -m http.server`` over the host folder; the site's address."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(site_root), str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/{SUB_PATH}/"
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                break
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail("the static file server did not start")
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from browser import CHROMIUM, LAUNCH_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()
