"""Start ``firstlast play`` as a separate process and learn its address.

For the end-to-end tests and the latency benchmark, which need the real server (its
own process, real sockets) rather than the in-process app.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

_SERVED = re.compile(r"served at (http://\S+/)")


def spawn_server(db: Path, timeout: float = 30) -> tuple[subprocess.Popen[str], str]:
    """Run ``firstlast play --no-browser --port 0 --db DB``; return the process and its
    base URL once it listens. Raises ``RuntimeError`` (with its output) if it does not."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "firstlast.cli.main", "play", "--no-browser", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        m = _SERVED.search(line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise RuntimeError("the server did not start: " + "".join(seen).strip())


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
