"""The native route: ``forced_line.c`` built with the system's C compiler at first use,
kept in a folder only this user can write (``runtime.private_cache_dirs``) under a name
made of what it was built from, and loaded with ctypes.
"""

from __future__ import annotations

import hashlib
import os
import struct
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Final

from ... import runtime
from .abi import SOURCE, NativeCalls, Unavailable, package_file

#: The native build: the system compiler with these flags.
CFLAGS: Final = ("-O3", "-shared", "-fPIC")


def source_hash() -> str:
    """SHA-256 of forced_line.c (what the .wasm and the native builds are keyed by)."""
    return hashlib.sha256(package_file(SOURCE)).hexdigest()


def compiler() -> list[str]:
    """The C compiler command: ``$CC`` when set, else the first of cc, gcc, clang."""
    import shlex
    import shutil

    cc = os.environ.get("CC", "").strip()
    if cc:
        return shlex.split(cc)
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return [found]
    raise Unavailable("no C compiler (cc, gcc or clang) on the PATH, and $CC is not set")


def library_name() -> str:
    """The native build's file name: the source's hash, the flags and the platform."""
    import platform
    import sysconfig

    key = "|".join([source_hash(), " ".join(CFLAGS), sysconfig.get_platform(), platform.machine(),
                    str(struct.calcsize("P"))])
    suffix = ".dll" if sys.platform == "win32" else ".dylib" if sys.platform == "darwin" else ".so"
    return f"forced_line-{hashlib.sha256(key.encode()).hexdigest()[:20]}{suffix}"


def build(folder: Path) -> Path:
    """Compile forced_line.c into ``folder`` (``library_name()``) and return the path.
    Safe against other processes building the same: each compiles to a name of its own
    and renames it into place (atomic; every build of one source is as good)."""
    import subprocess

    cc = compiler()
    final = folder / library_name()
    fd, tmp = tempfile.mkstemp(prefix=final.name + ".", suffix=".part", dir=folder)
    os.close(fd)
    try:
        with resources.as_file(resources.files("firstlast.odds").joinpath(SOURCE)) as src:
            try:
                done = subprocess.run([*cc, *CFLAGS, "-o", tmp, str(src)], capture_output=True, text=True,
                                      timeout=300, stdin=subprocess.DEVNULL)
            except (OSError, subprocess.SubprocessError) as e:
                raise Unavailable(f"the C compiler {cc[0]!r} cannot run: {e}") from None
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise Unavailable(f"the C compiler {cc[0]!r} failed (status {done.returncode}): {last}")
        os.replace(tmp, final)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return final


def load_native() -> NativeCalls:
    """The native kernel: a build in a cache folder, or built there now; with no folder
    to keep it in, built for this process only."""
    name = library_name()
    failures: list[str] = []
    for folder in runtime.private_cache_dirs("forced-line"):
        path = folder / name
        if path.is_file():
            try:
                return NativeCalls(path)
            except (OSError, Unavailable) as e:  # damaged, or a folder mounted noexec
                failures.append(f"{path}: {e}")
        try:
            return NativeCalls(build(folder))
        except OSError as e:  # cannot write or run from here: the next place
            failures.append(f"{folder}: {e}")
    with tempfile.TemporaryDirectory(prefix="firstlast-forced-line-") as d:
        try:
            calls = NativeCalls(build(Path(d)))
        except OSError as e:
            failures.append(f"{d}: {e}")
            raise Unavailable("; ".join(failures)) from None
    return calls  # the library stays loaded after its file is gone (POSIX)
