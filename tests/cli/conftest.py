"""The CLI speaks the language of ``--lang``, ``FIRSTLAST_LANG`` or the locale: every
CLI test starts from an English environment, whatever the machine running it uses
(a test that wants Russian sets it)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FIRSTLAST_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
