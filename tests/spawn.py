"""Start ``firstlast play`` as a separate process and learn its address.

For the tests and benchmarks (bench/ imports it from here) that need the real server
(its own process, real sockets) rather than the in-process app.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

#: The base address (the printed one also signs in as the local player: ``?player=…``).
_SERVED = re.compile(r"served at (http://[^/\s]+/)")


def spawn_server(db: Path, timeout: float = 30, *, open_files: int | None = None) -> tuple[subprocess.Popen[str], str]:
    """Run ``firstlast play --no-browser --port 0 --db DB``; return the process and its
    base URL once it listens. Raises ``RuntimeError`` (with its output) if it does not.
    ``open_files``: the server's soft limit of open descriptors (POSIX), to test that
    it stays within one."""

    def limit_files() -> None:
        import resource

        assert open_files is not None
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    proc = subprocess.Popen(
        [sys.executable, "-m", "firstlast.cli.main", "play", "--no-browser", "--port", "0", "--db", str(db)],
        # English whatever the locale: the "served at" line is read below.
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "FIRSTLAST_LANG": "en"},
        preexec_fn=limit_files if open_files is not None else None,
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
    proc.wait()
    raise RuntimeError("the server did not start: " + "".join(seen).strip())


def drain_output(proc: subprocess.Popen[str]) -> tuple[list[str], threading.Thread]:
    """Read the rest of the server's output in a daemon thread, so that it can never
    block on a full pipe. The lines collect in the list; they are all there once the
    thread has ended (join it after the process has exited)."""
    lines: list[str] = []
    stdout = proc.stdout

    def read() -> None:
        if stdout is not None:
            lines.extend(stdout)

    thread = threading.Thread(target=read, name="firstlast-drain", daemon=True)
    thread.start()
    return lines, thread


def stop_server(proc: subprocess.Popen[str]) -> None:
    """SIGTERM: the server stops as on Ctrl-C (status 0, "Stopped."); killed if it has
    not within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
