"""Shared by every test folder: the helpers' import path, ``no_threads``, and what the
markers mean, the same in every folder:

* ``slow``: long checks, skipped unless asked for (``-m slow``, or any marker expression
  naming it, or ``FIRSTLAST_SLOW=1``);
* ``browser``: the test drives Chromium. A test that takes the ``browser`` fixture gets
  the marker here, so ``-m "not browser"`` leaves out every one of them.

The ``browser`` fixture is here too: one Chromium for each test process (tests/web and
tests/site), each test opening its own profile (a context) in it; and the session's
static site (``site_root``, ``site_dir``), built once for tests/site and tests/packaging."""

import contextlib
import fcntl
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Test helpers import as top-level modules: tests/engine's (builders.py, golden.py) and
# tests/'s own (naive.py, the readable reference implementations; kernels.py; spawn.py,
# the server started as a process of its own).
sys.path.insert(0, str(Path(__file__).parent / "engine"))
sys.path.insert(0, str(Path(__file__).parent))


class _Chromium:
    """The test process's Chromium, launched when a test first asks for it and again if
    it went away (a crash in one test must not fail every later one)."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._browser: Any = None

    def get(self) -> Any:
        if self._browser is None or not self._browser.is_connected():
            web = str(Path(__file__).parent / "web")
            if web not in sys.path:
                sys.path.insert(0, web)
            from browser import chromium, require_browser

            require_browser()  # skipped without chromium, failed under FIRSTLAST_NO_SKIP
            self.close()
            self._browser = self._stack.enter_context(chromium())
        return self._browser

    def close(self) -> None:
        self._stack.close()
        self._browser = None


@pytest.fixture(scope="session")
def _chromium() -> Iterator[_Chromium]:
    held = _Chromium()
    yield held
    held.close()


@pytest.fixture(scope="module")
def browser(_chromium: _Chromium) -> Any:
    """Debian's Chromium headless shell (tests/web/browser.py launches it): one for the test
    process, as a launch costs seconds of CPU and no test shares more than the process
    (each opens a fresh context, so a new player). While it lives, Playwright's sync API
    keeps an event loop marked as running in the main thread: tests run their coroutines
    with ``loops.run`` (a thread of their own), never ``asyncio.run``. A test that needs
    a profile of its own on disk launches it from ``browser.browser_type``."""
    return _chromium.get()


def _site_sub_path() -> str:
    site = str(Path(__file__).parent / "site")
    if site not in sys.path:
        sys.path.insert(0, site)
    from hosting import SUB_PATH

    return str(SUB_PATH)


@pytest.fixture(scope="session")
def site_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the static site built from this tree, at ``SUB_PATH``
    (tests/site/hosting.py): built once for the whole run, also when pytest-xdist runs
    it in several processes (the first to take the lock builds it in their shared
    temporary folder; the others wait and reuse it). Here, not in tests/site: the
    wheel's build is compared with it (tests/packaging/test_wheel.py)."""
    from firstlast.site.build import SiteBuildError, build_site

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the folder every worker's own temporary folder is in
    root = shared / "static-host"
    with open(shared / "static-host.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        built = shared / "static-host.built"  # written once the build is whole
        if not built.exists():
            try:
                build_site(root / _site_sub_path())
            except SiteBuildError as e:
                pytest.fail(f"the site did not build: {e}")
            built.touch()
    return root


@pytest.fixture(scope="session")
def site_dir(site_root: Path) -> Path:
    """The session's site (``site_root``'s sub-path)."""
    return site_root / _site_sub_path()


@pytest.fixture(autouse=True)
def _contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """What a browser test left open (a failed test's profile) is closed after it, so that
    no page of one test goes on drawing through the others in the process's browser."""
    if "browser" not in request.fixturenames:
        yield
        return
    b = request.getfixturevalue("browser")
    before = set(b.contexts)
    yield
    for ctx in b.contexts:
        if ctx not in before:
            with contextlib.suppress(Exception):  # already gone with a crashed page
                ctx.close()


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As in the browser (Pyodide, the static site): every thread start fails ("can't
    start new thread") and the package runs thread-free (``runtime.THREADS`` off)."""
    from firstlast import runtime

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    monkeypatch.setattr(runtime, "THREADS", False)
    yield


#: The longest modules (by ``--durations``), run first: the test script runs modules side by
#: side (pytest-xdist, ``--dist loadfile``, which hands them out in collection order), and
#: one of them started last kept a core idle for its whole length at the end of the run
#: (≈ 45 s in CI). The order only changes when they run; a module missing here runs in its place.
LONGEST_FIRST = ("tests/site/test_site_browser.py", "tests/web/test_e2e.py", "tests/site/test_site_a11y.py",
                 "tests/web/test_e2e_story.py", "tests/web/test_guide.py", "tests/web/test_ear.py",
                 "tests/web/test_a11y.py", "tests/web/test_e2e_layout.py", "tests/tui/test_app.py",
                 "tests/web/test_schemathesis.py", "tests/site/test_site_cache.py", "tests/packaging/test_wheel.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    # A stable sort: the other modules keep their order.
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))
    run_slow = "slow" in (config.getoption("-m") or "") or os.environ.get("FIRSTLAST_SLOW") == "1"
    skip = pytest.mark.skip(reason="slow: run with -m slow or FIRSTLAST_SLOW=1")
    for item in items:
        if "slow" in item.keywords and not run_slow:
            item.add_marker(skip)
        if "browser" in getattr(item, "fixturenames", ()) and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)


class ReadOnlyFolder:
    """A folder that is written first (``path``) and then made read-only (``freeze``),
    for this process too, root included: ``chattr +i`` on the folder (root cannot make
    files in an immutable folder; a user: ``chmod 555``), or a tmpfs mounted there and
    remounted read-only. Undone after the test."""

    def __init__(self, path: Path, kind: str) -> None:
        self.path = path
        self.kind = kind
        self.frozen = False

    def freeze(self) -> None:
        self._set(read_only=True)
        self.frozen = True

    def thaw(self) -> None:
        if self.frozen:
            self._set(read_only=False)
            self.frozen = False

    def _set(self, read_only: bool) -> None:
        import subprocess

        if self.kind == "mount":
            subprocess.run(["mount", "-o", "remount," + ("ro" if read_only else "rw"), str(self.path)],
                           check=True, capture_output=True)
        elif os.geteuid() == 0:
            subprocess.run(["chattr", "+i" if read_only else "-i", str(self.path)], check=True, capture_output=True)
        else:
            self.path.chmod(0o555 if read_only else 0o755)


@pytest.fixture(params=["folder", "mount"])
def read_only_folder(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ReadOnlyFolder]:
    """A ``ReadOnlyFolder``: a read-only folder (``chattr +i`` as root, where the test
    script runs: a refusal fails under FIRSTLAST_NO_SKIP, as for tests/web's immutable
    store) and a read-only mount (root only, and only where mounting is allowed: skipped
    elsewhere, a container without CAP_SYS_ADMIN)."""
    import shutil
    import subprocess

    kind = str(request.param)
    folder = tmp_path / "read-only"
    folder.mkdir()
    if kind == "mount":
        if os.geteuid() != 0:
            pytest.skip("only root mounts a read-only file system")
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(folder)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    elif os.geteuid() == 0:
        probe = tmp_path / "probe"
        probe.mkdir()
        ok = shutil.which("chattr") is not None and subprocess.run(["chattr", "+i", str(probe)],
                                                                   capture_output=True).returncode == 0
        if ok:
            subprocess.run(["chattr", "-i", str(probe)], check=True, capture_output=True)
        elif os.environ.get("FIRSTLAST_NO_SKIP"):
            pytest.fail("running as root, and a folder cannot be made immutable here (chattr +i)")
        else:
            pytest.skip("running as root, and a folder cannot be made immutable here (chattr +i)")
    place = ReadOnlyFolder(folder, kind)
    try:
        yield place
    finally:
        place.thaw()
        if kind == "mount":
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)
