"""The site's in-process transport (``site.bridge``) and the thread-free mode it needs,
on CPython: every thread start fails, as under Pyodide ("can't start new thread")."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import loops
import pytest

from firstlast.engine import Game
from firstlast.site.bridge import Bridge

ORIGIN = "https://cards.example.org"




def call(bridge: Bridge, method: str, target: str, body: object | None = None) -> tuple[int, object]:
    data = b"" if body is None else json.dumps(body).encode()
    headers = {} if body is None else {"content-type": "application/json"}
    answer = loops.run(bridge.request(method, target, headers, data))
    kind = dict(answer.headers).get("content-type", "")
    return answer.status, json.loads(answer.body) if kind.startswith("application/json") else answer.body


def test_a_game_is_played_and_kept_without_threads(tmp_path: Path, no_threads: None) -> None:
    db = tmp_path / "site.sqlite3"
    bridge = Bridge(str(db), ORIGIN)
    status, state = call(bridge, "POST", "/api/games", {"deal": "1", "how": "number"})
    assert status == 201, state
    assert isinstance(state, dict)
    gid, version = state["id"], state["version"]
    before = bridge.commits
    status, result = call(bridge, "POST", f"/api/games/{gid}/step", {"version": version, "n": 5})
    assert status == 200, result
    assert bridge.commits > before  # the worker syncs storage when this moves
    # A refusal is the app's own, coded as on the server.
    status, refusal = call(bridge, "POST", f"/api/games/{gid}/moves", {"move": "R1", "version": 999})
    assert status == 409 and isinstance(refusal, dict) and refusal["code"] == "game.changed"
    # A reload is a new worker over the same file: the same player and the moves are there.
    again = Bridge(str(db), ORIGIN)
    assert again.player == bridge.player
    status, current = call(again, "GET", "/api/games/current")
    assert status == 200 and isinstance(current, dict)
    expected = Game(1)
    for _ in range(5):
        expected.step()
    assert current["id"] == gid and current["moves"] == len(expected)


def test_words_and_help_come_through_the_bridge(tmp_path: Path, no_threads: None) -> None:
    bridge = Bridge(str(tmp_path / "db.sqlite3"), ORIGIN)
    status, catalog = call(bridge, "GET", "/i18n/ru.json")
    assert status == 200 and isinstance(catalog, dict) and catalog["title"]
    answer = loops.run(bridge.request("GET", "/help/en", {}))
    assert answer.status == 200 and b"<" in answer.body
    status, stats = call(bridge, "GET", "/api/stats")
    assert status == 200 and isinstance(stats, dict)


def test_the_guard_checks_the_site_origin(tmp_path: Path, no_threads: None) -> None:
    bridge = Bridge(str(tmp_path / "db.sqlite3"), ORIGIN)
    # The bridge says the site's own Host and Origin: the guard lets the page in ...
    status, _ = call(bridge, "PUT", "/api/settings", {"lang": "ru"})
    assert status == 200
    # ... and a body that is not JSON is refused as on the server.
    answer = loops.run(bridge.request("POST", "/api/games", {"content-type": "text/plain"}, b"deal=1"))
    assert answer.status == 415


def test_bad_requests_are_refused_in_the_declared_shape(tmp_path: Path, no_threads: None) -> None:
    bridge = Bridge(str(tmp_path / "db.sqlite3"), ORIGIN)
    for method, target, body in [("POST", "/api/games", b"{"), ("GET", "nowhere", b""),
                                 ("POST", "/api/games", b"x" * (49 * 1024 * 1024))]:
        answer = loops.run(bridge.request(method, target, {"content-type": "application/json"}, body))
        assert 400 <= answer.status < 500, (target, answer.status)
        assert json.loads(answer.body)["code"].startswith("request.")


def test_request_js_takes_plain_values(tmp_path: Path, no_threads: None) -> None:
    bridge = Bridge(str(tmp_path / "db.sqlite3"), ORIGIN)
    status, headers, body = loops.run(bridge.request_js("GET", "/api/settings", "null", ""))
    assert status == 200 and json.loads(body)["lang"] in (None, "en", "ru")
    assert ["content-type", "application/json"] in json.loads(headers)


def test_the_bridge_carries_the_largest_body_a_route_takes() -> None:
    from firstlast.site.bridge import MAX_BODY
    from firstlast.web.inputs import MAX_RESTORE_BODY

    assert MAX_BODY >= MAX_RESTORE_BODY


def test_not_an_origin() -> None:
    with pytest.raises(ValueError):
        Bridge(":memory:", "file:///x")


def test_concurrent_requests_are_each_answered_after_their_commit(tmp_path: Path, no_threads: None) -> None:
    """Requests in flight together (the page's queue, the meter, a second control) are
    all answered: the writer leads every batch on the loop itself."""
    bridge = Bridge(str(tmp_path / "db.sqlite3"), ORIGIN)
    status, state = call(bridge, "POST", "/api/games", {"deal": "7"})
    assert status == 201 and isinstance(state, dict)
    gid = state["id"]

    async def many() -> list[int]:
        body = json.dumps({}).encode()
        answers = await asyncio.gather(*(
            bridge.request("POST", f"/api/games/{gid}/step", {"content-type": "application/json"}, body)
            for _ in range(12)))
        return [a.status for a in answers]

    assert loops.run(many()) == [200] * 12
    status, current = call(Bridge(str(tmp_path / "db.sqlite3"), ORIGIN), "GET", f"/api/games/{gid}")
    assert isinstance(current, dict) and current["moves"] == 12


def test_a_client_gone_mid_body_changes_nothing_and_logs_nothing(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """A browser that closes the connection before its body is whole (issue: a 3.5 KB
    ClientDisconnect traceback in the log): refused, nothing stored, nothing logged."""
    bridge = Bridge(str(tmp_path / "db.sqlite3"), ORIGIN)
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "https", "path": "/api/games", "raw_path": b"/api/games", "query_string": b"",
             "root_path": "", "server": ("cards.example.org", 443), "client": ("127.0.0.1", 1),
             "headers": [(b"host", b"cards.example.org"), (b"content-type", b"application/json"),
                         (b"content-length", b"40"), (b"cookie",
                          f"fl_player_443={bridge.app.state.web.seal(bridge.player)}".encode())]}
    sent: list[dict[str, object]] = []
    parts = iter([{"type": "http.request", "body": b'{"deal": ', "more_body": True}, {"type": "http.disconnect"}])

    async def receive() -> dict[str, object]:
        return next(parts)

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    loops.run(bridge.app(scope, receive, send))
    assert sent and sent[0]["status"] == 400
    assert not caplog.records
    status, games = call(bridge, "GET", "/api/games")
    assert status == 200 and isinstance(games, dict) and games["games"] == []


def test_the_computing_worker_warms_the_fast_line_at_start() -> None:
    """compute.js calls ``play.chance.warm`` once Python runs: the kernel is loaded
    then, and its route (or why there is none) is answered."""
    from firstlast.odds import fastline
    from firstlast.play.chance import warm

    route = warm()
    assert route == fastline.backend_name() if fastline.available() else route.startswith("engine (no fast line")
