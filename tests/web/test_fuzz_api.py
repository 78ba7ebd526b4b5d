"""Fuzzing every endpoint: whatever arrives — any JSON, any text, any query, any id —
the answer is never a 5xx nor a traceback, a refused request changes no game, and a
refused request from a visitor without a player stores no player.

The strategies follow the request shapes of docs/web-api.md: for each route, bodies
mix valid fields with wrong types, unknown fields, huge numbers, odd digits and
nesting, so that both the checks and what lies behind them are reached."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from firstlast.store import GameStore
from firstlast.web import create_app

warnings.filterwarnings("ignore", message=".*httpx.*")

BASE = "http://127.0.0.1"
COOKIE = "fl_player_80"

odd_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "0", "-1", "1_000", "1,000", "²", "١٢", "５", "18446744073709551616", "9" * 5000,
                     "r3", "ru", "r1001", "rx", "turn", "redeal", "R3", "F8", "W", "R9", "\ud800"[:0] + "\u0000",
                     "unlimited", "null", "true", "1e3", "0x10", "\ufeff1"]),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
                    odd_text)
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                           st.dictionaries(odd_text, inner, max_size=4)),
                           max_leaves=12)


def fields(**known: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with some of the route's own fields (each any value) and maybe a stranger."""
    own = st.fixed_dictionaries({}, optional={k: st.one_of(v, json_values) for k, v in known.items()})
    return st.tuples(own, st.dictionaries(odd_text, json_values, max_size=2)).map(
        lambda pair: {**pair[1], **pair[0]})


deal = st.one_of(st.integers(-5, 2**65), odd_text)
variant = st.one_of(odd_text, st.fixed_dictionaries({}, optional={
    "redeals": st.one_of(st.none(), st.integers(-3, 2000), odd_text), "waste_playable": scalars,
    "privileged_last": scalars}))
version = st.one_of(st.integers(-3, 2**60), scalars)

ROUTES: list[tuple[str, str, st.SearchStrategy[Any]]] = [
    ("POST", "/api/games", fields(deal=deal, variant=variant,
                                  how=st.sampled_from(["number", "random", "next", "again", "daily", "lucky"]))),
    ("POST", "/api/games/{id}/moves", fields(move=odd_text, version=version)),
    ("POST", "/api/games/{id}/step", fields(n=st.integers(-2, 200_000), version=version)),
    ("POST", "/api/games/{id}/advance", fields(version=version)),
    ("POST", "/api/games/{id}/undo", fields(version=version)),
    ("POST", "/api/games/{id}/redo", fields(version=version)),
    ("POST", "/api/games/{id}/restart", fields(version=version)),
    ("POST", "/api/games/{id}/open", fields()),
    ("POST", "/api/games/import", fields(record=st.one_of(odd_text, st.just('[Format "firstlast-record 1"]\n')))),
    ("PUT", "/api/settings", fields(lang=st.sampled_from(["ru", "en", "de"]), speed=st.integers(-1, 5),
                                    variant=variant, show_chance=scalars)),
]
READS = ["/api/games", "/api/games/current", "/api/games/{id}", "/api/games/{id}/record", "/api/games/{id}/replay",
         "/api/games/{id}/chance", "/api/stats", "/api/settings"]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, GameStore, str, str]]:
    store = GameStore(Path(tmp_path_factory.mktemp("fuzz")) / "games.sqlite3")
    with TestClient(create_app(store), base_url=BASE, follow_redirects=False) as client:
        state = client.post("/api/games", json={"deal": "0"}).json()
        yield client, store, state["id"], client.cookies[COOKIE]


def snapshot(store: GameStore) -> tuple[int, list[tuple[str, str, str, int]]]:
    with store.transaction() as tx:
        players = int(tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0])
        games = [tuple(r) for r in tx.db.execute("SELECT id, moves, redo, version FROM games ORDER BY id")]
    return players, games  # type: ignore[return-value]


def check_answer(r: Any) -> None:
    assert r.status_code < 500 or r.status_code == 503, (r.status_code, r.text[:300])
    assert "Traceback" not in r.text
    if r.status_code >= 400:
        body = r.json()
        assert isinstance(body["error"], str) and body["error"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(route=st.sampled_from(ROUTES).flatmap(lambda r: st.tuples(st.just(r[0]), st.just(r[1]), r[2])),
       which_id=st.sampled_from(["mine", "unknown", "junk"]), as_stranger=st.booleans(),
       raw=st.one_of(st.none(), st.binary(max_size=40)))
def test_no_request_breaks_the_server(world: tuple[TestClient, GameStore, str, str], route: tuple[str, str, Any],
                                      which_id: str, as_stranger: bool, raw: bytes | None) -> None:
    client, store, gid, player = world
    method, path, body = route
    game_id = {"mine": gid, "unknown": "A" * 24, "junk": "%2e%2e%2f" if raw else "x" * 70}[which_id]
    url = path.format(id=game_id)
    before = snapshot(store)
    cookies = {} if as_stranger else {COOKIE: player}
    client.cookies.clear()
    for k, v in cookies.items():
        client.cookies.set(k, v)
    if raw is not None:
        r = client.request(method, url, content=raw, headers={"content-type": "application/json"})
    else:
        r = client.request(method, url, content=json.dumps(body).encode(), headers={"content-type": "application/json"})
    check_answer(r)
    if r.status_code >= 400:
        assert snapshot(store) == before, (method, url, r.status_code, r.text[:200])
    elif as_stranger:
        # A stranger's accepted write stores its own player and its own game only.
        players, games = snapshot(store)
        assert players <= before[0] + 1
        assert [g for g in games if g[0] == gid] == [g for g in before[1] if g[0] == gid]
    client.cookies.set(COOKIE, player)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(READS), query=st.dictionaries(st.sampled_from(["limit", "status", "samples", "x"]),
                                                          odd_text, max_size=3),
       which_id=st.sampled_from(["mine", "unknown"]))
def test_no_read_breaks_the_server_or_writes(world: tuple[TestClient, GameStore, str, str], path: str,
                                             query: dict[str, str], which_id: str) -> None:
    client, store, gid, _ = world
    if path.endswith("/chance"):
        query = {k: v for k, v in query.items() if k != "samples"} | {"samples": "100"}  # keep the odds cheap
    before = snapshot(store)
    r = client.get(path.format(id=gid if which_id == "mine" else "B" * 24), params=query)
    check_answer(r)
    assert snapshot(store) == before
