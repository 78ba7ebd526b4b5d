"""Whose games a browser plays (issue 29.6): only the player switches it to another
player; a cookie planted from another port is not honoured; proxy headers are not
trusted; new players are bounded. Each test failed before the change."""

from __future__ import annotations

import html
import warnings
from pathlib import Path

import httpx
import pytest
from spawn import spawn_server, stop_server
from starlette.testclient import TestClient

from firstlast.i18n import t
from firstlast.play import PlayService
from firstlast.store import GameStore
from firstlast.web import create_app
from firstlast.web.context import PlayerBudget
from firstlast.web.server import uvicorn_config

warnings.filterwarnings("ignore", message=".*httpx.*")

BASE = "http://127.0.0.1"
COOKIE = "fl_player_80"


def player_of(cookie: str) -> str:
    return cookie.rpartition(".")[0]


@pytest.fixture
def local(store: GameStore) -> str:
    """The local player, with one game of theirs."""
    player = PlayService(store).local_player()
    PlayService(store).start(player, "number", 42)
    return player


# ---------------------------------------------------------------------------- the sign-in link
@pytest.mark.parametrize("site", ["cross-site", "same-site", None])
def test_a_sign_in_link_followed_from_elsewhere_asks_first(client: TestClient, local: str, site: str | None) -> None:
    # The browser already plays as someone else (its own player).
    mine = client.post("/api/games", json={"deal": "1"})
    assert mine.status_code == 201
    own_cookie = client.cookies[COOKIE]
    headers = {"sec-fetch-site": site} if site is not None else {}
    r = client.get(f"/?player={local}&deal=7", headers=headers)
    # Asked, not signed in: the cookie is still the browser's own.
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "set-cookie" not in r.headers and client.cookies[COOKIE] == own_cookie
    assert r.headers["cache-control"] == "no-store" and r.headers["x-frame-options"] == "DENY"
    page = r.text
    assert html.escape(t("en", "signin.title")) in page and 'method="post"' in page
    assert f'action="/?player={local}&amp;deal=7"' in page
    # The player's press: the form posted from this very page signs in (the deal kept).
    r = client.post(f"/?player={local}&deal=7", headers={
        "origin": BASE, "content-type": "application/x-www-form-urlencoded", "content-length": "0"})
    assert r.status_code == 303 and r.headers["location"] == "/?deal=7"
    assert player_of(client.cookies[COOKIE]) == local
    assert [g["deal"] for g in client.get("/api/games").json()["games"]] == ["42"]


def test_the_question_is_in_the_players_language(client: TestClient, local: str) -> None:
    r = client.get(f"/?player={local}", headers={"sec-fetch-site": "cross-site", "accept-language": "ru"})
    assert html.escape(t("ru", "signin.title")) in r.text and '<html lang="ru">' in r.text
    r = client.get(f"/?player={local}&lang=en", headers={"sec-fetch-site": "cross-site", "accept-language": "ru"})
    assert html.escape(t("en", "signin.open", player=local[:6] + "…")) in r.text


@pytest.mark.parametrize("site", ["none", "same-origin"])
def test_a_typed_link_or_one_from_this_page_signs_in_at_once(client: TestClient, local: str, site: str) -> None:
    # `firstlast play` opens the browser on the link: the browser says `none`.
    r = client.get(f"/?player={local}", headers={"sec-fetch-site": site})
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert player_of(client.cookies[COOKIE]) == local


def test_no_page_elsewhere_can_post_the_sign_in(client: TestClient, local: str) -> None:
    form = {"content-type": "application/x-www-form-urlencoded", "content-length": "0"}
    for headers in ({**form, "origin": "http://127.0.0.1:9999"},  # a page on another port
                    {**form, "origin": "https://evil.example"},
                    {**form, "sec-fetch-site": "cross-site"},
                    form):  # no Origin at all: not known to come from this page
        r = client.post(f"/?player={local}", headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "request.origin", headers
        assert COOKIE not in client.cookies
    # A form with a body is still no JSON (only the empty sign-in form is let through).
    r = client.post(f"/?player={local}", content=b"a=1",
                    headers={"origin": BASE, "content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and COOKIE not in client.cookies


# ---------------------------------------------------------------------------- the cookie
def test_a_cookie_not_signed_by_this_database_is_ignored(store: GameStore, local: str, tmp_path: Path) -> None:
    # A page on another loopback port sets fl_player_80 (cookies are not kept apart by
    # port) to a player token it knows: the raw token, or one signed elsewhere.
    with TestClient(create_app(store), base_url=BASE) as c:
        c.cookies.set(COOKIE, local)  # the bare token (before: honoured)
        assert c.get("/api/games").json() == {"games": []}
        elsewhere = create_app(GameStore(tmp_path / "other.sqlite3")).state.web.seal(local)
        for planted in (elsewhere, local + ".", local + ".x" * 11):
            c.cookies.set(COOKIE, planted)
            assert c.get("/api/games").json() == {"games": []}, planted
            assert c.get("/api/games/current").status_code == 204
        # What this database signed is honoured, by any app on it (a restart, a second server).
        c.cookies.set(COOKIE, create_app(store).state.web.seal(local))
        assert [g["deal"] for g in c.get("/api/games").json()["games"]] == ["42"]


# ---------------------------------------------------------------------------- proxy headers
def test_proxy_headers_are_not_trusted(tmp_path: Path) -> None:
    assert uvicorn_config(create_app(GameStore(tmp_path / "a.sqlite3"))).proxy_headers is False
    # The real server: a client on loopback claiming https is still plain http to it
    # (before, uvicorn took its word: the cookie came back Secure and the page's own
    # Origin was refused as foreign).
    proc, url = spawn_server(tmp_path / "games.sqlite3")
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            r = http.post("/api/games", json={"deal": "3"}, headers={
                "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9", "origin": url.rstrip("/")})
            assert r.status_code == 201, r.text
            assert "secure" not in r.headers["set-cookie"].lower()
    finally:
        stop_server(proc)


# ---------------------------------------------------------------------------- new players
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_new_players_are_bounded(store: GameStore) -> None:
    clock = Clock()
    app = create_app(store, new_players=PlayerBudget(3, 60.0, clock=clock))

    def fresh(**headers: str) -> TestClient:
        return TestClient(app, base_url=BASE, headers=headers)

    made = []
    for _ in range(3):
        with fresh() as c:
            assert c.post("/api/games", json={"deal": "1"}).status_code == 201
            made.append(c.cookies[COOKIE])
    refused = [("POST", "/api/games", {"deal": "1"}), ("PUT", "/api/settings", {"speed": 2}),
               ("POST", "/api/games/import", {"record": "x"}), ("POST", "/api/backup", {"backup": "{}"})]
    with fresh(**{"accept-language": "ru"}) as c:
        for method, path, body in refused:
            r = c.request(method, path, json=body)
            assert r.status_code == 429, (path, r.text)
            assert r.json()["code"] == "player.limit" and r.json()["params"] == {"limit": 3, "retry_after": 20}
            assert r.headers["retry-after"] == "20" and "set-cookie" not in r.headers
            assert r.json()["text"] == t("ru", "error.player.limit", limit=3, retry_after=20)
        # Reading makes no player and is never refused.
        assert c.get("/api/games").status_code == 200 and c.put("/api/settings", json={}).status_code == 200
    with store.transaction() as tx:
        assert tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 3
    # A player already known plays on.
    with fresh() as c:
        c.cookies.set(COOKIE, made[0])
        assert c.post("/api/games", json={"deal": "2"}).status_code == 201
    clock.now += 20  # a place is free again
    with fresh() as c:
        assert c.post("/api/games", json={"deal": "1"}).status_code == 201
        assert c.post("/api/games", json={"deal": "2"}).status_code == 201  # the same player: no new place
    with fresh() as c:
        assert c.post("/api/games", json={"deal": "1"}).status_code == 429


def test_the_bound_is_a_hundred_unless_a_bench_asks_for_more(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIRSTLAST_NEW_PLAYERS", raising=False)
    assert PlayerBudget().size == 100
    for text, size in (("5000", 5000), ("0", 100), ("-3", 100), ("x", 100), ("٣", 100)):
        monkeypatch.setenv("FIRSTLAST_NEW_PLAYERS", text)
        assert PlayerBudget().size == size, text
