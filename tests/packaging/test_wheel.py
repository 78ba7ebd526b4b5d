"""The wheel is the product: built from the sdist, installed into a fresh virtual
environment outside the repository, every README command works from it — ``firstlast``
alone (the browser game: started, its page fetched, stopped), ``tui``, ``deal``,
``autoplay``, ``replay``, ``odds``, ``export``/``import`` and ``site build``.

The sdist holds every file git tracks (what a distributor needs to rebuild and test), the
wheel every file under ``src/``; ``twine check`` reads both as PyPI does. Dependencies come
from a wheelhouse kept in the user cache (filled from the registry the first time), and
the site's Pyodide and wheels from the same cache the site tests use, so a second run
fetches nothing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import platformdirs
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from same_commands import SITE_BUILD

ROOT = Path(__file__).resolve().parent.parent.parent
WHEELHOUSE = Path(platformdirs.user_cache_dir("firstlast")) / "test-wheelhouse"
#: Tracked files that are the repository's own business, not the sdist's.
NOT_IN_SDIST = {".gitignore"}

if shutil.which("tmux") is None and os.environ.get("FIRSTLAST_NO_SKIP"):
    raise RuntimeError("tmux is not installed (apt-get install -y tmux)")


def tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (the lists below are git's)")
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, check=True).stdout
    return [n for n in out.decode().split("\0") if n and (ROOT / n).is_file() and not (ROOT / n).is_symlink()]


@dataclass(frozen=True)
class Installed:
    sdist: Path
    wheel: Path
    venv: Path
    home: Path  # the working folder, and the data, config and state folders' parent

    @property
    def env(self) -> dict[str, str]:
        """A user's shell: the venv's bin first, nothing of the repository or the dev venv;
        data and settings in ``home`` (the user cache stays: the site build's Pyodide)."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "VIRTUAL_ENV", "FIRSTLAST_LANG", "FIRSTLAST_FASTLINE")}
        path = [p for p in env.get("PATH", "").split(os.pathsep) if p and not p.startswith(str(Path(sys.prefix)))]
        env["PATH"] = os.pathsep.join([str(self.venv / "bin"), *path])
        for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
            env[name] = str(self.home / name.lower())
        env["BROWSER"] = "true"  # `firstlast` opens the page in "the browser": a no-op here
        env["LANG"] = env["LC_ALL"] = "C.UTF-8"
        return env

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([str(self.venv / "bin" / "firstlast"), *args], cwd=self.home, env=self.env,
                              capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr, done.stderr
        return done


def _install(wheel: Path, venv: Path) -> None:
    """``wheel`` into ``venv`` with this interpreter's pip (a venv without pip of its own
    is made in a second), its dependencies from the wheelhouse, filled when it lacks one."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "--disable-pip-version-check"]
    offline = [*pip, "install", "-q", "--no-index", "--find-links", str(WHEELHOUSE), str(wheel)]
    if subprocess.run(offline, capture_output=True, timeout=600).returncode != 0:
        WHEELHOUSE.mkdir(parents=True, exist_ok=True)
        subprocess.run([*pip, "wheel", "-q", "--wheel-dir", str(WHEELHOUSE), str(wheel)], check=True, timeout=600)
        (WHEELHOUSE / wheel.name).unlink(missing_ok=True)  # the house keeps dependencies only
        subprocess.run(offline, check=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("wheel")
    dist, tree = base / "dist", base / "tree"
    # From a copy of what git tracks: a build in the work tree would reuse its leftovers
    # (build/, an egg-info's list of sources) and could pass where a clean checkout fails.
    for name in tracked():
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    # sdist first, then the wheel built from the unpacked sdist: the sdist rebuilds.
    # --no-isolation: the dev install has the build backend (a fresh one takes a minute).
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(tree)],
                   check=True, capture_output=True, timeout=600)
    [sdist], [wheel] = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    venv, home = base / "venv", base / "home"
    home.mkdir()
    _install(wheel, venv)
    yield Installed(sdist, wheel, venv, home)


def test_the_sdist_and_the_wheel_hold_everything(installed: Installed) -> None:
    files = tracked()
    with tarfile.open(installed.sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        in_sdist = {n.removeprefix(top + "/") for n in tar.getnames()}
    missing = sorted(set(files) - NOT_IN_SDIST - in_sdist)
    assert not missing, f"tracked files not in the sdist (MANIFEST.in): {missing}"
    with zipfile.ZipFile(installed.wheel) as whl:
        in_wheel = set(whl.namelist())
    missing = sorted(f for f in files if f.startswith("src/firstlast/") and f.removeprefix("src/") not in in_wheel)
    assert not missing, f"package files not in the wheel (pyproject's package-data): {missing}"
    assert not any("tests/" in n or "__pycache__" in n for n in in_wheel)
    # PyPI reads both as twine does: the README renders, the metadata is complete.
    check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(installed.sdist),
                            str(installed.wheel)], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_command_line_from_the_wheel(installed: Installed) -> None:
    where = subprocess.run([str(installed.venv / "bin" / "python"), "-c",
                            "import firstlast; print(firstlast.__file__)"],
                           cwd=installed.home, env=installed.env, capture_output=True, text=True, check=True)
    assert where.stdout.startswith(str(installed.venv)), where.stdout  # not the repository's copy
    assert installed.run("--version").stdout.startswith("firstlast, version ")
    layout = json.loads(installed.run("deal", "1", "--json").stdout)
    assert layout["deal"] == 1 and layout["first"][:3] == ["Jc", "5d", "As"]
    assert "stock→waste" in installed.run("autoplay", "1", "--transcript").stdout
    lines = installed.run("autoplay", "0..20", "--json").stdout.splitlines()
    assert [json.loads(line)["deal"] for line in lines] == list(range(20))
    installed.run("autoplay", "7", "--save", "game.txt")
    assert installed.run("replay", "game.txt").stdout
    odds = json.loads(installed.run("odds", "--games", "2000", "--seed", "1", "--json").stdout)
    assert odds["games"] == 2000
    assert "%" in installed.run("odds", "--deal", "1").stdout
    installed.run("export", "backup.json")
    assert json.loads((installed.home / "backup.json").read_text())
    installed.run("import", "backup.json")
    assert "tui" in installed.run("tui", "--help").stdout


def test_firstlast_alone_serves_the_table(installed: Installed) -> None:
    """`pipx run firstlast` / `uvx firstlast`: the browser game, its page served from the
    wheel's files, stopped by Ctrl-C."""
    proc = subprocess.Popen([str(installed.venv / "bin" / "firstlast")], cwd=installed.home, env=installed.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()  # the server prints its address once it listens
        assert first.startswith("First and Last is served at http://127.0.0.1:"), (first, proc.stderr.read())
        found = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert found is not None, first
        url = found.group(0)
        with urllib.request.urlopen(url, timeout=60) as page:
            html = page.read().decode()
        assert page.status == 200 and 'src="static/js/app.js"' in html.replace("/static", "static"), html[:500]
        with urllib.request.urlopen(url.rstrip("/") + "/static/js/app.js", timeout=60) as script:
            assert script.status == 200 and b"import" in script.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install -y tmux)")
def test_the_terminal_game_from_the_wheel(installed: Installed) -> None:
    socket = f"flwheel-{os.getpid()}"
    tmux = ["tmux", "-L", socket]
    env = installed.env
    # The pane lives on after the game (its exit status shown) until the tmux server is killed.
    shell = f"{installed.venv / 'bin' / 'firstlast'} tui 1 --no-chance; echo EXIT=$?; exec sleep infinity"

    def screen_with(*texts: str) -> str:
        # Waits for the screen to show ``texts``; the limit only ends a hang.
        end = time.monotonic() + 120
        while True:
            screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", "w"], env=env, capture_output=True,
                                    text=True, check=True, timeout=30).stdout
            if all(t in screen for t in texts):
                return screen
            assert time.monotonic() < end, f"{texts!r} not on the screen:\n{screen}"
            time.sleep(0.1)

    subprocess.run([*tmux, "new-session", "-d", "-s", "w", "-x", "100", "-y", "30", shell], env=env,
                   cwd=installed.home, check=True, timeout=30)
    try:
        screen_with("deal 1", "Stock 88")
        subprocess.run([*tmux, "send-keys", "-t", "w", "t"], env=env, check=True, timeout=30)
        screen_with("Stock 87")
        subprocess.run([*tmux, "send-keys", "-t", "w", "q"], env=env, check=True, timeout=30)
        screen_with("EXIT=0")
    finally:
        subprocess.run([*tmux, "kill-server"], env=env, capture_output=True, timeout=30)


def test_the_static_site_from_the_wheel(installed: Installed, site_dir: Path) -> None:
    """The README's `firstlast site build site/` (the Pages workflow's too), Pyodide and
    the wheels from the user cache (tests/site fills the same one). The build is the same
    bytes as the session's, built from this tree (tests/conftest.py): a second build is
    the same site (docs/site.md), and the wheel builds the site the tree does."""
    program, *args = SITE_BUILD.split()
    assert program == "firstlast"
    done = installed.run(*args, timeout=900)
    site = installed.home / "site"
    assert "written to site" in done.stdout, done.stdout
    build = json.loads((site / "build.json").read_text())
    for f in build["files"]:
        assert (site / f["path"]).stat().st_size == f["size"], f
    names = {f["path"] for f in build["files"]}
    assert {"index.html", "static/site/worker.js", "icons/icon-192.png", "py/site-packages.zip"} <= names
    assert (site / "sw.js").is_file()
    first = json.loads((site_dir / "build.json").read_text())
    mine, theirs = ({f["path"]: f for f in b["files"]} for b in (build, first))
    differ = sorted(p for p in mine.keys() | theirs.keys() if mine.get(p) != theirs.get(p))
    assert build["version"] == first["version"], differ
    assert (site / "sw.js").read_bytes() == (site_dir / "sw.js").read_bytes()
