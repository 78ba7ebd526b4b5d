"""Where the compiled kernels are cached when the usual places cannot be written.

Regression: with the installed package read-only and the home folder read-only too (or
``NUMBA_CACHE_DIR`` unusable), importing the kernels raised "cannot cache function
'_splitmix': no locator available", a traceback from ``firstlast odds``. These tests
block every place numba would use by putting a plain file where a folder must be made
(this works even as root, where permissions do not).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from numba.core import config

from firstlast.odds import jitcache


@pytest.fixture
def blocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """A probe function whose ``__pycache__``, user cache and NUMBA_CACHE_DIR are all
    impossible to create."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "__pycache__").write_text("a file, not a folder")
    (src / "probe_mod.py").write_text("def probe():\n    return 1\n")
    wall = tmp_path / "wall"
    wall.write_text("a file, not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(wall / "cache"))
    monkeypatch.setenv("HOME", str(wall / "home"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(wall / "numba"))
    monkeypatch.setattr(config, "CACHE_DIR", str(wall / "numba"))
    monkeypatch.syspath_prepend(str(src))
    sys.modules.pop("probe_mod", None)
    import probe_mod  # type: ignore[import-not-found]

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    yield probe_mod.probe
    sys.modules.pop("probe_mod", None)


def test_falls_back_to_a_private_temporary_folder(blocked: Callable[[], int], tmp_path: Path) -> None:
    assert not jitcache._can_cache(blocked)
    assert jitcache.usable_cache(blocked)
    private = tmp_path / "tmp" / f"firstlast-numba-{os.getuid()}"
    assert config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"] == str(private)
    assert stat.S_IMODE(private.stat().st_mode) == 0o700


def test_no_cache_at_all_is_not_an_error(blocked: Callable[[], int], tmp_path: Path) -> None:
    (tmp_path / "tmp" / f"firstlast-numba-{os.getuid()}").write_text("in the way")
    assert jitcache.usable_cache(blocked) is False


def test_a_folder_others_can_write_is_not_used(blocked: Callable[[], int], tmp_path: Path) -> None:
    # numba unpickles its cache files: a folder another user could fill must not be used.
    shared = tmp_path / "tmp" / f"firstlast-numba-{os.getuid()}"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    assert jitcache.private_cache_dir() is None
    assert jitcache.usable_cache(blocked) is False


def test_the_kernels_use_a_cache_here() -> None:
    from firstlast.odds import kernel

    assert kernel._CACHE is True
