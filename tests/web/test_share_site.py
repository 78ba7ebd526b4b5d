"""The local server's share button when the player's static site is online
(``firstlast play --site-url URL``, docs/site.md): the link it gives opens the same deal
there, for anyone; a link to this machine would reach nobody else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import close, new_page, wait_js
from spawn import spawn_server, stop_server
from starlette.testclient import TestClient

from firstlast.cli.main import main
from firstlast.store import GameStore
from firstlast.web.app import create_app

SITE = "https://cards.example.org/first-and-last/"


def test_the_page_names_the_site_and_escapes_it(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "db.sqlite3")
    with TestClient(create_app(store, site_url='https://x.org/"><script>/'), base_url="http://127.0.0.1") as c:
        page = c.get("/").text
    assert '<meta name="firstlast-site-url" content="https://x.org/&quot;&gt;&lt;script&gt;/">' in page
    with TestClient(create_app(store), base_url="http://127.0.0.1") as c:
        assert "firstlast-site-url" not in c.get("/").text


@pytest.mark.parametrize("bad", ["cards.example.org", "ftp://x.org/", "https://x.org/?a=1", "https://", ""])
def test_a_bad_site_url_is_one_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--no-browser", "--site-url", bad]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "site" in err[0], err


@pytest.fixture
def server_with_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("FIRSTLAST_SITE_URL", SITE)
    proc, url = spawn_server(tmp_path / "games.sqlite3")
    yield url
    stop_server(proc)


def test_the_share_button_gives_the_sites_link(browser: Any, server_with_site: str) -> None:
    pg = new_page(browser, server_with_site)
    pg.goto(server_with_site + "?deal=42&variant=r3&speed=0")
    wait_js(pg, "window.firstlast.state && window.firstlast.state.deal === '42' && !window.firstlast.busy")
    pg.click("#b-share")
    pg.locator("#dlg-share[open]").wait_for()
    assert pg.locator("#share-link").input_value() == SITE + "?deal=42&variant=r3&lang=en"
    assert "cards.example.org/first-and-last/" in pg.inner_text("#share-local")
    close(pg)
