"""``firstlast site build``: what it writes, and how it fails (docs/site.md). That a
second build is the same bytes is tests/packaging/test_wheel.py's: the wheel's build is
compared with this session's."""

from __future__ import annotations

import hashlib
import io
import json
import re
import urllib.error
import zipfile
from pathlib import Path

import pytest

from firstlast.cli.main import main
from firstlast.site import build as site_build
from firstlast.site.pins import PYODIDE, PYODIDE_VERSION, WHEELS

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_holds_what_it_lists(site_dir: Path) -> None:
    made = json.loads((site_dir / "build.json").read_text())
    listed = {f["path"]: f for f in made["files"]}
    for rel, f in listed.items():
        data = (site_dir / rel).read_bytes()
        assert len(data) == f["size"] and hashlib.sha256(data).hexdigest() == f["sha256"], rel
    # The service worker names this very build and every file of it.
    sw = (site_dir / "sw.js").read_text()
    m = re.search(r"const BUILD = /\*\* @type \{Build\} \*/ \((\{.*\})\);", sw)
    assert m is not None
    inside = json.loads(m.group(1))
    assert inside["version"] == made["version"]
    assert {p for p, _, _ in inside["files"]} == set(listed)
    for rel in ("index.html", "pyodide/pyodide.asm.wasm", "py/site-packages.zip", "static/js/app.js",
                "static/site/worker.js", "manifest.webmanifest", "icons/icon-512.png"):
        assert rel in listed, rel


def test_the_page_is_the_servers_with_the_sites_head(site_dir: Path) -> None:
    html = (site_dir / "index.html").read_text()
    assert '<meta name="firstlast-transport" content="worker">' in html
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp is not None and "'unsafe-eval'" in csp.group(1) and "default-src 'self'" in csp.group(1)
    assert "<script>" not in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    # Every address in the page is relative: the site works under any sub-path.
    assert not re.search(r'(?:src|href)="/', html)
    # The page's modules are named at once (each comes through the service worker; found
    # import by import, the page would wait for them level by level): every one it loads.
    preloaded = set(re.findall(r'<link rel="modulepreload" href="static/js/([\w-]+\.js)">', html))
    assert {"app.js", "site.js", "transport.js", "board.js", "lang.js"} <= preloaded
    assert preloaded == {p.name for p in (site_dir / "static" / "js").glob("*.js")}
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}


def test_site_packages_is_the_package_without_its_desktop_parts(site_dir: Path) -> None:
    with zipfile.ZipFile(site_dir / "py" / "site-packages.zip") as z:
        names = set(z.namelist())
    assert "firstlast/site/bridge.py" in names and "firstlast/web/app.py" in names
    assert "firstlast/engine/position.py" in names and "firstlast/i18n/ru.json" in names
    assert "firstlast/odds/forced_line.wasm" in names  # the fast forced line, run by the workers
    assert not any(n.startswith(("firstlast/tui/", "firstlast/cli/", "firstlast/web/static/")) for n in names)
    assert any(n.startswith("starlette/") for n in names) and any(n.startswith("msgspec/") for n in names)
    assert not any(n.startswith(("textual/", "numba/", "numpy/", "uvicorn/", "click/")) for n in names)
    assert not any(n.endswith(".pyc") or "/tests/" in n for n in names)


def test_a_registry_out_of_reach_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def unreachable(url: str, timeout: float = 0) -> io.BytesIO:
        raise urllib.error.URLError("Name or service not known")

    monkeypatch.setattr(site_build.urllib.request, "urlopen", unreachable)
    assert main(["site", "build", "-q", str(tmp_path / "site"), "--cache", str(tmp_path / "cache")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot fetch" in err[0] and PYODIDE.url in err[0], err
    assert not (tmp_path / "site").exists()


def test_a_file_that_does_not_match_its_pin_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(site_build.urllib.request, "urlopen", lambda url, timeout=0: io.BytesIO(b"not pyodide"))
    with pytest.raises(site_build.SiteBuildError, match="does not match its pinned hash"):
        site_build.build_site(tmp_path / "site", cache=tmp_path / "cache")
    # A damaged copy in the cache is not used either: it is fetched again (and refused here).
    (tmp_path / "cache").mkdir(exist_ok=True)
    (tmp_path / "cache" / PYODIDE.file_name).write_bytes(b"damaged")
    with pytest.raises(site_build.SiteBuildError, match="does not match"):
        site_build.build_site(tmp_path / "site2", cache=tmp_path / "cache")


def test_a_folder_that_is_not_a_site_is_not_written_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.txt").write_text("precious")
    assert main(["site", "build", str(tmp_path / "mine")]) == 1
    assert "refusing" in capsys.readouterr().err
    assert (tmp_path / "mine" / "thesis.txt").read_text() == "precious"
    assert main(["site", "build", str(tmp_path / "mine" / "thesis.txt")]) == 2
    assert main(["site", "build", ""]) == 2


def test_pins_agree_with_the_js_tools() -> None:
    """tools/js pins the same Pyodide (its types check the workers)."""
    package = json.loads((ROOT / "tools" / "js" / "package.json").read_text())
    assert package["devDependencies"]["pyodide"] == PYODIDE_VERSION
    lock = json.loads((ROOT / "tools" / "js" / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/pyodide"]["integrity"] == PYODIDE.digest
    assert len({w.file_name.split("-")[0].lower() for w in WHEELS}) == len(WHEELS)


def test_a_folder_that_cannot_be_made_is_refused_before_anything_is_fetched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def no_fetch(url: str, timeout: float = 0) -> io.BytesIO:
        raise AssertionError(f"fetched {url} for a folder that cannot be written")

    monkeypatch.setattr(site_build.urllib.request, "urlopen", no_fetch)
    (tmp_path / "afile").write_text("x")
    for dest in ("/dev/null/x", str(tmp_path / "afile" / "sub"), "/proc/firstlast-site"):
        assert main(["site", "build", "-q", dest, "--cache", str(tmp_path / "cache")]) == 1, dest
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and dest in err[0], err


def test_a_previous_listing_never_removes_a_file_outside_the_site(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    site, victim = tmp_path / "site", tmp_path / "victim.txt"
    site.mkdir()
    victim.write_text("mine")
    (site / "old.txt").write_text("the previous build's")
    listing = [{"path": "old.txt"}, {"path": "../victim.txt"}, {"path": str(victim)}]
    (site / "build.json").write_text(json.dumps({"files": listing}))
    monkeypatch.setattr(site_build, "_fetch", lambda *args: b"")
    monkeypatch.setattr(site_build, "site_files", lambda *args: {"index.html": b"<p>new</p>"})
    site_build.build_site(site, cache=tmp_path / "cache")
    assert not (site / "old.txt").exists() and (site / "index.html").read_bytes() == b"<p>new</p>"
    assert victim.read_text() == "mine"
