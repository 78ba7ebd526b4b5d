"""The CPU seconds a command costs, every process it started included.

    python bench/cpu_of.py python -m pytest -q -p no:cacheprovider tests/web/test_e2e_story.py

``/usr/bin/time`` counts the children the command reaped: a Chromium renderer whose
parent exited first is reparented to init and reaped there, and its time is lost. This
wrapper makes itself a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux), so
that every orphaned descendant is reparented to it; it reaps them all once the command
has exited and prints ``getrusage(RUSAGE_CHILDREN)``'s user and system seconds (on
stderr; the command's own output and exit status pass through). On a loaded machine
these, not wall time, say what the command cost.
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36


def main() -> int:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    rc = subprocess.call(sys.argv[1:])
    while True:  # the orphans reparented here
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"cpu_of: {r.ru_utime:.2f} s user, {r.ru_stime:.2f} s sys, {r.ru_utime + r.ru_stime:.2f} s in all",
          file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
