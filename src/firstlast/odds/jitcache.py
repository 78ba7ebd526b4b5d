"""Where numba may keep the compiled kernels, decided once before they are decorated.

numba caches next to the source (``__pycache__``), else in the user's cache folder
(``~/.cache/numba``), or only in ``$NUMBA_CACHE_DIR`` when that is set. When none of
them can be written — an installed package in a read-only place run by a user whose
home is read-only too, or a ``NUMBA_CACHE_DIR`` that cannot be created — ``cache=True``
makes numba raise at import time, which would break ``firstlast odds``, the live
chance in the terminal game and in the browser. Then a private folder in the system's
temporary folder is used, and failing that the kernels are compiled without a cache
(slower to start, never wrong).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from numba import njit
from numba.core import config


def _can_cache(probe: Callable[..., Any]) -> bool:
    # Decorating with cache=True looks for a writable cache folder at once (nothing is
    # compiled, nothing is written but numba's own test file) and raises without one.
    try:
        njit(cache=True)(probe)
    except RuntimeError:  # "cannot cache function …: no locator available"
        return False
    return True


def private_cache_dir() -> Path | None:
    """``<tmp>/firstlast-numba-<user>``, made only readable by this user; None if that
    cannot be had. A folder someone else owns or can write to is never used: numba
    loads its cache files with pickle."""
    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    path = Path(tempfile.gettempdir()) / f"firstlast-numba-{user}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = path.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        return None
    if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
        return None
    return path


def usable_cache(probe: Callable[..., Any]) -> bool:
    """True if ``@njit(cache=True)`` works for functions of ``probe``'s source file,
    after pointing numba at a private temporary folder if it must; False if no cache
    can be had at all (then decorate with ``cache=False``)."""
    if _can_cache(probe):
        return True
    fallback = private_cache_dir()
    if fallback is None:
        return False
    # Both: numba re-reads NUMBA_* from the environment when it changes, and compiles
    # in other processes (Dask workers started from here) then find the same folder.
    os.environ["NUMBA_CACHE_DIR"] = str(fallback)
    config.CACHE_DIR = str(fallback)  # type: ignore[attr-defined]
    return _can_cache(probe)
