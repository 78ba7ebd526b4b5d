"""A plain static file server for the site's tests (what a player would use:
``python -m http.server``)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: Where the session's site lives on its host: a sub-path, as on GitHub project pages.
SUB_PATH = "fl/table"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve_folder(folder: Path, sub_path: str = "", port: int | None = None,
                 log: Path | None = None) -> Iterator[str]:
    """``python -m http.server`` over ``folder`` (on ``port``, else a free one); the
    address of ``sub_path`` in it. ``log``: a file the server writes a line to for each
    request it answers ("GET /path HTTP/1.1" 200), to count what was sent."""
    port = port or free_port()
    out = open(log, "ab", buffering=0) if log is not None else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(folder), str(port)],
                            stdout=subprocess.DEVNULL, stderr=out)
    url = f"http://127.0.0.1:{port}/{sub_path + '/' if sub_path else ''}"
    deadline = time.monotonic() + 20
    try:
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the static file server did not start")
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        if log is not None:
            out.close()  # type: ignore[union-attr]


