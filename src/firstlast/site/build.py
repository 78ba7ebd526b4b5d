"""``firstlast site build DIR``: the static site, from the registries only (docs/site.md:
"Build"; what DIR holds: "How it works"). Pyodide and the wheels pinned in ``pins`` are
gathered into a cache, each file's hash checked; nothing is fetched at run time but the
site's own files. A registry that cannot be reached is one line (``SiteBuildError``).
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Final

import platformdirs

from .. import __version__
from ..engine import CANONICAL
from ..i18n import LANGS
from ..play.deals import WELCOME_DEAL
from .bridge import Bridge
from .pins import PYODIDE, PYODIDE_VERSION, WHEELS, Pin

#: Pyodide's own files the site needs (the rest of its npm package is docs and types).
PYODIDE_FILES: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
#: Parts of this package the browser never runs: the terminal, the command line, the
#: server process, the odds lab, this build, and the page's files (served as files).
LEFT_OUT: Final = ("tui/", "cli/", "web/static/", "web/server.py", "odds/plot.py",
                   "odds/runner.py", "site/build.py", "site/precompile.py", "site/static/")
#: The site's Content-Security-Policy, a <meta> (static hosts may send no headers):
#: the server's, plus what Pyodide needs to compile the code Emscripten loads.
CSP: Final = ("default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; worker-src 'self';"
              " style-src 'self'; img-src 'self' blob: data:; font-src 'self'; connect-src 'self';"
              " manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'")
#: Fixed time stamp of every archive member: the same sources give the same bytes.
ZIP_TIME: Final = (2020, 1, 1, 0, 0, 0)
#: The built game's id: not one the store makes (those are 24 URL-safe characters), so
#: the page knows a request for it is for the game the worker deals.
FIRST_ID: Final = "first-visit"
#: Its time stamps: fixed, so that two builds of the same sources are the same bytes.
FIRST_TIME: Final = "2020-01-01T00:00:00.000+00:00"

Progress = Callable[[str], None]


class SiteBuildError(Exception):
    """The build cannot go on; the message is one line for the player."""


def _sha512_integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _fetch(pin: Pin, digest: Callable[[bytes], str], cache: Path, say: Progress) -> bytes:
    """The pinned file (``digest`` computes what ``pin.digest`` holds), from ``cache``
    when a good copy is there."""
    url, name, pinned = pin.url, pin.file_name, pin.digest
    kept = cache / name
    if kept.is_file():
        data = kept.read_bytes()
        if digest(data) == pinned:
            return data
    say(f"fetching {url}")
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            data = bytes(answer.read())
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise SiteBuildError(f"cannot fetch {name} from {url}: {reason}") from None
    if digest(data) != pinned:
        raise SiteBuildError(f"{name} from {url} does not match its pinned hash: refusing it")
    _write_whole(kept, data)
    return data


def site_packages(wheels: list[bytes]) -> bytes:
    """One archive for Pyodide's site-packages: the wheels' contents and this package
    (unpacked once in the worker: one file to fetch, no installer needed)."""
    members: dict[str, bytes] = {}
    for data in wheels:
        with zipfile.ZipFile(io.BytesIO(data)) as whl:
            for name in whl.namelist():
                # Tests and the records of installers are not needed to import.
                if name.endswith("/") or "/tests/" in name or name.endswith(("RECORD", "INSTALLER")):
                    continue
                members[name] = whl.read(name)
    root = _static("firstlast")
    for path in sorted(root.rglob("*")):  # this package's files the browser runs
        rel = path.relative_to(root).as_posix()
        # .wasm: the fast forced line (odds/forced_line.wasm), which the workers run.
        kept = path.suffix in (".py", ".json", ".md", ".txt", ".typed", ".wasm") and not rel.startswith(LEFT_OUT)
        if kept and path.is_file():
            members[f"firstlast/{rel}"] = path.read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = 0o644 << 16
            z.writestr(info, members[name], zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _pyodide_files(tarball: bytes) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for name in (*PYODIDE_FILES, "pyodide-lock.json"):
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise SiteBuildError(f"the Pyodide package has no {name}")
            files[name] = member.read()
    # Pyodide reads its lock at start; the site loads none of its packages (they are in
    # site-packages.zip), so only the lock's header ships (119 KB less).
    header = json.loads(files["pyodide-lock.json"])["info"]
    files["pyodide-lock.json"] = json.dumps({"info": header, "packages": {}}).encode()
    return files


def precompile(pyodide: dict[str, bytes], packages: bytes, say: Progress) -> tuple[bytes, bytes] | None:
    """(the standard library, site-packages) byte-compiled by Pyodide's own Python under
    node (``precompile.py``); ``None`` without node (the site then ships sources: it
    works, and starts slower)."""
    node = shutil.which("node")
    if node is None:
        say("node not found: the site ships Python sources (it starts slower); install node to precompile")
        return None
    with tempfile.TemporaryDirectory(prefix="firstlast-site-") as tmp:
        work = Path(tmp)
        (work / "pyodide").mkdir()
        for name, data in pyodide.items():
            (work / "pyodide" / name).write_bytes(data)
        (work / "python_stdlib.zip").write_bytes(pyodide["python_stdlib.zip"])
        (work / "site-packages.zip").write_bytes(packages)
        for name in ("precompile.py", "static/precompile.mjs"):  # the Python, and node's script that runs it
            (work / Path(name).name).write_bytes((_static("firstlast.site") / name).read_bytes())
        say("byte-compiling Python for the browser (Pyodide under node)")
        try:
            done = subprocess.run([node, str(work / "precompile.mjs"), str(work / "pyodide"), str(work)],
                                  capture_output=True, text=True, timeout=600, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise SiteBuildError(f"byte-compiling under node failed: {e}") from None
        if done.returncode != 0:
            lines = [ln for ln in done.stderr.splitlines() if ln.startswith("PRECOMPILE: ")] or ["no message"]
            last = lines[-1].removeprefix("PRECOMPILE: ")
            raise SiteBuildError(f"byte-compiling under node failed: {last[:300]}")
        return (work / "out-python_stdlib.zip").read_bytes(), (work / "out-site-packages.zip").read_bytes()


def _static(package: str) -> Path:
    return Path(str(resources.files(package)))


#: A module's imports: ``import … from "./x.js"`` (and ``export … from``), and the
#: transport's ``await import("./site.js")``, which the page awaits at its start.
_IMPORT = re.compile(r'\bfrom\s+"\./([\w-]+\.js)"|\bawait import\("\./([\w-]+\.js)"\)')


def page_modules(modules: dict[str, str]) -> list[str]:
    """The page's modules that its start loads (``app.js`` and all it imports, by name in
    ``modules``: name → source), in a stable order, to preload (docs/site.md, "Loading")."""
    seen: list[str] = []
    todo = ["app.js"]
    while todo:
        name = todo.pop()
        if name in seen or name not in modules:
            continue
        seen.append(name)
        todo.extend(a or b for a, b in _IMPORT.findall(modules[name]))
    return sorted(seen)


# The first visit's table, made at build time (docs/site.md, "Loading"): what the page
# asks first (a new player's settings, the welcome deal on the table, in each language),
# asked of the very app the site runs (``Bridge``, in-process, on a throw-away store).
async def _ask() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        bridge = Bridge(str(Path(folder) / "first.sqlite3"), "https://first.invalid")
        try:
            read, settings = await bridge.call("GET", "/api/settings")
            deal = {"how": "number", "deal": str(WELCOME_DEAL), "variant": CANONICAL.token}
            tables: dict[str, object] = {}
            for lang in LANGS:
                said, _ = await bridge.call("PUT", "/api/settings", {"lang": lang})
                made, table = await bridge.call("POST", "/api/games", deal)
                if not all(200 <= status < 300 for status in (read, said, made)) or not isinstance(table, dict):
                    raise ValueError(f"the app refused the first table: {table!r:.200}")
                tables[lang] = {**table, "id": FIRST_ID, "created": FIRST_TIME, "updated": FIRST_TIME}
        finally:
            bridge.store.close()
    return {"id": FIRST_ID, "deal": deal, "settings": settings, "tables": tables}


def first_table() -> dict[str, object]:
    """What the page shows on a first visit: ``id`` (the built game's), ``deal`` (the
    request that deals it again), ``settings`` (a new player's) and ``tables`` (the
    game on the table, by language)."""
    # On a thread of its own: a build may be asked for where an event loop already runs
    # (a test driving a browser), and asyncio.run wants a thread without one. The build
    # runs on CPython only, never in the site itself.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(_ask())).result()


def first_table_html() -> str:
    """``first_table()`` as an inert JSON script element for the page (``<`` escaped,
    so that no text in it can end the element)."""
    text = json.dumps(first_table(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    safe = text.replace("<", "\\u003c")
    return f'<script type="application/json" id="site-first-table">{safe}</script>\n'


def page_html(html: str, first: str, modules: Iterable[str]) -> str:
    """The server's page as the site's: its CSP as a <meta>, the manifest, the worker
    transport (``static/js/transport.js`` reads it), the page's ``modules`` preloaded
    (``page_modules``) and ``first``, the first visit's table
    (``first_table_html``)."""
    head = (f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="firstlast-transport" content="worker">\n'
            '<link rel="manifest" href="manifest.webmanifest">\n'
            '<link rel="apple-touch-icon" href="icons/icon-192.png">\n'
            '<link rel="stylesheet" href="static/site/site.css">\n'
            + "".join(f'<link rel="modulepreload" href="static/js/{m}">\n' for m in modules))
    marker = '<meta charset="utf-8">\n'
    if marker not in html or "<body>\n" not in html:
        raise SiteBuildError("the page has no <meta charset> or <body> to put the site's parts after")
    # The loading screen, a modal dialog in the page itself (docs/site.md, "Loading"; site.js fills it in).
    screen = ('<div id="site-loading" role="dialog" aria-modal="true" aria-labelledby="site-loading-title">'
              '<div class="site-box"><p class="site-title" id="site-loading-title"></p>'
              '<progress max="100" value="0"></progress><p class="site-step" aria-live="polite"></p>'
              '<p class="site-detail" aria-hidden="true"></p></div></div>\n')
    return html.replace(marker, marker + head, 1).replace("<body>\n", "<body>\n" + first + screen, 1)


def manifest() -> bytes:
    """The web app manifest (a file of its own, ``static/manifest.webmanifest``)."""
    return (_static("firstlast.site") / "static" / "manifest.webmanifest").read_bytes()


def _copy_tree(src: Path, dest: Path, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src).as_posix()
        if path.is_file() and "__pycache__" not in rel and not rel.endswith(skip):
            out[str(PurePosixPath(dest.as_posix(), rel))] = path.read_bytes()
    return out


def site_files(tarball: bytes, wheels: list[bytes], say: Progress) -> dict[str, bytes]:
    """Every file of the site but ``sw.js`` and ``build.json``: path → bytes."""
    web_static = _static("firstlast.web") / "static"
    site_static = _static("firstlast.site") / "static"
    files: dict[str, bytes] = {}
    # The page's files; the typedefs and node's package.json are for the checks only.
    files.update(_copy_tree(web_static, Path("static"), skip=(".d.ts", "package.json", "index.html")))
    modules = {p.name: p.read_text(encoding="utf-8") for p in (web_static / "js").glob("*.js")}
    files["index.html"] = page_html((web_static / "index.html").read_text(encoding="utf-8"),
                                    first_table_html(), page_modules(modules)).encode()
    files.update(_copy_tree(site_static / "files", Path("static/site")))
    # The catalogs as files too: the loading screen speaks before Python runs.
    for lang in LANGS:
        files[f"static/site/i18n/{lang}.json"] = (_static("firstlast.i18n") / f"{lang}.json").read_bytes()
    files.update(_copy_tree(site_static / "icons", Path("icons")))
    files["manifest.webmanifest"] = manifest()
    pyodide = _pyodide_files(tarball)
    packages = site_packages(wheels)
    made = precompile(pyodide, packages, say)
    if made is not None:
        pyodide["python_stdlib.zip"], packages = made
    for name, data in pyodide.items():
        files[f"pyodide/{name}"] = data
    files["py/site-packages.zip"] = packages
    return files


def service_worker(build: dict[str, object]) -> bytes:
    """``sw.js``: the shipped service worker with this build's manifest written in (a
    new build is a new ``sw.js``, which is how browsers learn of an update)."""
    source = (_static("firstlast.site") / "static" / "sw.js").read_text(encoding="utf-8")
    marker = "const BUILD = /** @type {Build} */ ({});"
    if marker not in source:
        raise SiteBuildError("sw.js has no BUILD line to fill in")
    return source.replace(marker, f"const BUILD = /** @type {{Build}} */ ({json.dumps(build)});", 1).encode()


def _check_writable(dest: Path) -> None:
    """``dest`` can be made and written: its nearest existing folder is a folder we may
    write in (``/dev/null/x``, ``/proc/x`` or a file's child are refused at once)."""
    probe = dest if dest.exists() else dest.parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise SiteBuildError(f"{dest}: {probe} is not a folder")
    if not os.access(probe, os.W_OK | os.X_OK) or str(probe.resolve()).startswith(("/proc", "/sys", "/dev")):
        raise SiteBuildError(f"{dest}: cannot write in {probe}")


def _write_whole(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def build_site(dest: Path, *, cache: Path | None = None, say: Progress = lambda _: None) -> dict[str, object]:
    """Write the site into ``dest`` (made, or emptied of a previous build's files first)
    and answer its ``build.json``."""
    dest = Path(dest)
    if dest.is_dir() and any(dest.iterdir()) and not (dest / "build.json").is_file():
        raise SiteBuildError(f"{dest}: not empty and not a firstlast site: refusing to write over it")
    _check_writable(dest)  # before minutes of fetching and compiling, not after
    cache = cache or Path(platformdirs.user_cache_dir("firstlast")) / "site"
    tarball = _fetch(PYODIDE, _sha512_integrity, cache, say)
    wheels = [_fetch(w, _sha256, cache, say) for w in WHEELS]
    say("assembling the site")
    files = site_files(tarball, wheels, say)
    listing = [{"path": p, "size": len(d), "sha256": _sha256(d)} for p, d in sorted(files.items())]
    version = hashlib.sha256(json.dumps(listing, sort_keys=True).encode()).hexdigest()[:16]
    build: dict[str, object] = {"version": version, "firstlast": __version__, "pyodide": PYODIDE_VERSION,
                                "files": listing}
    files["sw.js"] = service_worker({"version": version,
                                     "files": [[f["path"], f["size"], f["sha256"]] for f in listing]})
    files["build.json"] = (json.dumps(build, indent=1) + "\n").encode()
    # Written in place, each file whole (a temporary file renamed), sw.js last: until
    # browsers see the new sw.js they keep the old build whole from their cache, and once
    # they do, every file of the new one is there (a folder being served stays the same
    # folder). Files of the previous build that this one has not are removed.
    dest.mkdir(parents=True, exist_ok=True)
    try:
        old = json.loads((dest / "build.json").read_text(encoding="utf-8"))
        stale = {str(f["path"]) for f in old["files"]} - set(files)
    except (OSError, ValueError, KeyError, TypeError):
        stale = set()
    for rel in [*sorted(set(files) - {"sw.js"}), "sw.js"]:
        _write_whole(dest / rel, files[rel])
    for rel in sorted(stale):
        # Only a file of the site: a listing that names one outside it (../x, /x) is not followed.
        if (dest / rel).resolve().is_relative_to(dest.resolve()):
            with contextlib.suppress(OSError):
                (dest / rel).unlink()
    return build
