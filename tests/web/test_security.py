"""What a web page the player visits must not be able to do with the local server
(docs/web-api.md, "Security model"): DNS rebinding (a foreign ``Host``), cross-site
requests (a foreign ``Origin``, form and ``text/plain`` bodies), framing and foreign
scripts (the CSP), and cookies shared between servers on other ports."""

from __future__ import annotations

import warnings

import pytest
from reading import read
from starlette.testclient import TestClient

from firstlast.store import GameStore
from firstlast.web import create_app

warnings.filterwarnings("ignore", message=".*httpx.*")

BASE = "http://127.0.0.1"


def players(store: GameStore) -> int:
    with store.transaction() as tx:
        return int(tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0])


def nothing_stored(store: GameStore) -> bool:
    return players(store) == 0 and read(store).games() == []


@pytest.mark.parametrize("host", [
    "evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example:80", "attacker",
    "127.0.0.1:8080", "[::1", "127.0.0.1:x", "", "192.168.1.5",
])
def test_a_foreign_host_is_refused(client: TestClient, store: GameStore, host: str) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: refused before anything."""
    for method, path, body in [("GET", "/", None), ("GET", "/api/games", None), ("POST", "/api/games", {}),
                               ("PUT", "/api/settings", {"lang": "ru"})]:
        r = client.request(method, path, json=body, headers={"host": host})
        assert r.status_code == 421, (method, path, host)
        assert r.json()["code"] == "request.host"
        assert "content-security-policy" in r.headers
    assert nothing_stored(store)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:80", "localhost", "LOCALHOST:80", "[::1]", "[::1]:80"])
def test_loopback_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/games", headers={"host": host}).status_code == 200
    assert client.post("/api/games", json={"deal": "1"}, headers={"host": host}).status_code == 201


def test_the_bind_address_is_a_name_too(store: GameStore) -> None:
    with TestClient(create_app(store, bind_host="192.168.1.5"), base_url=BASE) as c:
        assert c.get("/api/games", headers={"host": "192.168.1.5:80"}).status_code == 200
        assert c.get("/api/games", headers={"host": "192.168.1.6"}).status_code == 421
    # Bound to every address: any IP literal (a LAN client), but no DNS name.
    with TestClient(create_app(store, bind_host="0.0.0.0"), base_url=BASE) as c:
        assert c.get("/api/games", headers={"host": "10.0.0.7:80"}).status_code == 200
        assert c.get("/api/games", headers={"host": "[fe80::1]"}).status_code == 200
        assert c.get("/api/games", headers={"host": "rebind.evil.example"}).status_code == 421


@pytest.mark.parametrize("origin", ["https://evil.example", "http://127.0.0.1:9999", "null", "http://localhost"])
def test_a_cross_site_write_is_refused(client: TestClient, store: GameStore, origin: str) -> None:
    gid = client.post("/api/games", json={"deal": "0"}).json()["id"]
    before = read(store).load(gid).version
    for method, path, body in [("POST", "/api/games", {"deal": "5"}),
                               ("POST", f"/api/games/{gid}/moves", {"move": "R3"}),
                               ("POST", f"/api/games/{gid}/step", None), ("PUT", "/api/settings", {"lang": "ru"}),
                               ("POST", "/api/games/import", {"record": "x"})]:
        r = client.request(method, path, json=body, headers={"origin": origin})
        assert r.status_code == 403, (method, path)
        assert r.json()["code"] == "request.origin"
    r = client.post(f"/api/games/{gid}/step", headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    assert read(store).load(gid).version == before and len(read(store).games()) == 1
    # The page itself (same origin) may; reads carry no such check.
    assert client.post(f"/api/games/{gid}/step", headers={"origin": BASE}).status_code == 200
    assert client.get("/api/games", headers={"origin": origin}).status_code == 200


@pytest.mark.parametrize("content_type", [
    "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    None,
])
def test_a_simple_cross_site_body_is_refused(client: TestClient, store: GameStore, content_type: str | None) -> None:
    """The bodies a page may send cross-site without asking (no Origin check can be
    relied on for old browsers): anything but JSON is 415, and stores nothing."""
    headers = {} if content_type is None else {"content-type": content_type}
    for path in ("/api/games", "/api/games/import", "/api/settings"):
        method = "PUT" if path == "/api/settings" else "POST"
        r = client.request(method, path, content=b'{"deal": "1", "record": "x", "lang": "ru"}', headers=headers)
        assert r.status_code == 415, (path, content_type)
    assert nothing_stored(store)
    json_type = {"content-type": "application/json; charset=utf-8"}
    ok = client.post("/api/games", content=b'{"deal": "1"}', headers=json_type)
    assert ok.status_code == 201


def test_every_answer_carries_the_csp(client: TestClient) -> None:
    for path in ("/", "/api/games", "/static/js/app.js", "/nowhere"):
        csp = client.get(path).headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    # The page itself holds no inline script or style that the CSP would block.
    page = client.get("/").text
    assert "<script>" not in page and " style=" not in page and "onclick" not in page


def test_the_cookie_is_named_by_the_port(store: GameStore) -> None:
    """Cookies are not kept apart by port: two servers (two databases) on one machine
    would overwrite each other's player cookie under one name."""
    jars = []
    for port in (8001, 8002):
        with TestClient(create_app(store), base_url=f"http://127.0.0.1:{port}") as c:
            r = c.post("/api/games", json={"deal": "1"})
            assert r.status_code == 201
            cookie = r.headers["set-cookie"]
            assert cookie.startswith(f"fl_player_{port}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
            jars.append(c.cookies.get(f"fl_player_{port}"))
    assert all(jars) and jars[0] != jars[1]


def test_a_refused_request_stores_no_player(client: TestClient, store: GameStore) -> None:
    for method, path, kwargs in [
        ("HEAD", "/", {}), ("GET", "/", {}), ("POST", "/api/games/import", {"json": {"record": "junk"}}),
        ("PUT", "/api/settings", {"json": {"lang": "x" * 500}}), ("POST", "/api/games", {"json": {"deal": "x"}}),
        ("POST", "/api/games", {"json": {"how": "next"}}),
    ]:
        r = client.request(method, path, **kwargs)  # type: ignore[arg-type]
        assert "set-cookie" not in r.headers, (method, path)
    assert players(store) == 0


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data"])
def test_an_empty_form_post_is_refused_too(client: TestClient, store: GameStore, content_type: str) -> None:
    """A cross-site form with no fields and no Origin (an old browser) sends an empty
    body: it changes nothing either (issue: it passed the guard and stepped a game)."""
    gid = client.post("/api/games", json={"deal": "0"}).json()["id"]
    before = read(store).load(gid).version
    r = client.post(f"/api/games/{gid}/step", content=b"", headers={"content-type": content_type})
    assert r.status_code == 415 and r.json()["code"] == "request.content_type"
    assert read(store).load(gid).version == before
    # The page's own empty POST (no content type) still acts.
    assert client.post(f"/api/games/{gid}/step").status_code == 200


def test_two_origin_headers_are_refused(client: TestClient, store: GameStore) -> None:
    """(issue: with two Origin headers, the last one won.)"""
    gid = client.post("/api/games", json={"deal": "0"}).json()["id"]
    before = read(store).load(gid).version
    headers = [("origin", "https://evil.example"), ("origin", BASE), ("content-type", "application/json")]
    r = client.post(f"/api/games/{gid}/step", content=b"{}", headers=headers)
    assert r.status_code == 403 and r.json()["code"] == "request.origin"
    assert read(store).load(gid).version == before


def test_a_head_past_16_kib_is_431_before_anything(client: TestClient, store: GameStore) -> None:
    """Issue 29.5: the documented bound on a request head, counted as sent (the request
    line, each header line, the blank line), whatever the transport delivered at once."""
    from firstlast.web.middleware import MAX_HEAD_BYTES, head_size

    def padded(size: int) -> dict[str, str]:
        pad = {"x-pad": ""}
        sent = client.build_request("POST", "/api/games", json={"deal": 5}, headers=pad).headers.raw
        base = head_size({"method": "POST", "raw_path": b"/api/games", "query_string": b"", "headers": sent})
        return {"x-pad": "a" * (size - base)}

    r = client.post("/api/games", json={"deal": 5}, headers=padded(MAX_HEAD_BYTES + 1))
    assert r.status_code == 431 and r.json()["code"] == "request.head_too_large"
    assert r.json()["params"] == {"limit": 16} and "content-security-policy" in r.headers
    assert nothing_stored(store)
    assert client.post("/api/games", json={"deal": 5}, headers=padded(MAX_HEAD_BYTES)).status_code == 201
