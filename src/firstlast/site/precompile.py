"""Byte-compile the site's Python inside Pyodide itself, under node at build time
(docs/site.md, "Build"): Pyodide's Python is not the build machine's. ``exercise``
plays through the site's app once; the modules it imported become unchecked-hash
``.pyc`` (the rest stay sources, a smaller download), and the standard library's parts
the site never imports are left out. This file runs only there.
"""

from __future__ import annotations

import importlib.util
import io
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from typing import Final

#: Standard-library packages the site never imports (the REPL, debuggers, tests,
#: process pools, servers, installers).
UNUSED_STDLIB: Final = ("_pyrepl/", "unittest/", "multiprocessing/", "xmlrpc/", "wsgiref/", "tomllib/",
                        "pydoc_data/", "ensurepip/", "venv/", "lib2to3/", "idlelib/", "turtledemo/",
                        "test/", "tkinter/", "curses/", "dbm/", "pydoc.py", "turtle.py", "pdb.py", "doctest.py")
#: The text codecs kept besides those the site imports: every text it reads or writes
#: is UTF-8 (and its ASCII and Latin-1 subsets); the rest of the 120 codecs go.
KEPT_CODECS: Final = frozenset({"__init__", "aliases", "utf_8", "utf_8_sig", "ascii", "latin_1", "utf_16",
                                "utf_16_le", "utf_16_be", "utf_32", "idna", "punycode", "raw_unicode_escape",
                                "unicode_escape", "cp1251", "koi8_r"})


#: Packages that read their own source (anyio's lazy importer does): their ``.py`` stay
#: beside the ``.pyc``.
READS_ITS_SOURCE: Final = ("anyio/",)


async def exercise() -> set[str]:
    """Play through the site's app as a player would (in a throw-away database) and
    answer the files of every module imported."""
    import sys
    import tempfile

    from firstlast.site.bridge import Bridge

    bridge = Bridge(tempfile.mkdtemp() + "/x.sqlite3", "https://example.org")
    for target in ("/api/settings", "/i18n/en.json", "/i18n/ru.json", "/help/en", "/book.txt", "/api/stats",
                   "/api/games/current", "/api/games?status=finished", "/api/schema"):
        await bridge.call("GET", target)
    _, state = await bridge.call("POST", "/api/games", {"deal": "1"})
    assert isinstance(state, dict)
    gid = state["id"]
    await bridge.call("POST", f"/api/games/{gid}/step", {"n": 3})
    await bridge.call("POST", f"/api/games/{gid}/moves", {"move": "R1"})  # a refusal
    await bridge.call("POST", f"/api/games/{gid}/undo", {})
    await bridge.call("GET", f"/api/games/{gid}/chance?samples=50&round=0")
    await bridge.call("POST", f"/api/games/{gid}/advance", {})
    await bridge.call("GET", f"/api/games/{gid}/record")
    await bridge.call("GET", f"/api/games/{gid}/story")
    await bridge.call("GET", "/api/backup")

    files = set()
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None)
        if isinstance(origin, str) and origin.endswith(".py"):
            files.add(origin)
    return files


def compile_archive(src: str, dst: str, root: str, used: set[str], leave_out: tuple[str, ...] = ()) -> tuple[int, int]:
    """``src`` → ``dst``, its modules in ``used`` (their files, under ``root``) as
    ``.pyc``; (compiled, left as sources). A compiled module's ``.pyc`` takes the place
    of its ``.py`` (zipimport and the file system both import sourceless ``.pyc``),
    except in ``READS_ITS_SOURCE``, where it goes beside it in ``__pycache__``."""
    compiled = kept = 0
    out = io.BytesIO()
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name = info.filename
            if info.is_dir() or name.startswith(leave_out):
                continue
            codec = name.removeprefix("encodings/").removesuffix(".py")
            if leave_out and name.startswith("encodings/") and codec not in KEPT_CODECS and root + name not in used:
                continue  # a codec nothing here uses
            data = zin.read(name)
            if name.endswith(".py") and root + name not in used:
                kept += 1
            if name.endswith(".py") and root + name in used:
                try:
                    code = compile(data, root + name, "exec", dont_inherit=True)
                except (SyntaxError, ValueError):
                    kept += 1
                else:
                    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                    compiled += 1
                    if name.startswith(READS_ITS_SOURCE):
                        cached = zipfile.ZipInfo(importlib.util.cache_from_source(name), info.date_time)
                        zout.writestr(cached, bytes(pyc), zipfile.ZIP_DEFLATED)
                    else:
                        data, name = bytes(pyc), name[:-3] + ".pyc"
            member = zipfile.ZipInfo(name, info.date_time)
            member.external_attr = info.external_attr
            zout.writestr(member, data, zipfile.ZIP_DEFLATED)
    with open(dst, "wb") as f:
        f.write(out.getvalue())
    return compiled, kept
