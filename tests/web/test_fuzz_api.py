"""Fuzzing every endpoint from its declared models (firstlast.web.schema): for each
route, bodies and queries are drawn from the JSON schema of its model — valid values,
and the same with one mutation (a wrong type, an unknown field, an out-of-range number,
a huge or non-ASCII digit string, a missing field, not an object at all) — and sent
in process. Whatever arrives: no 5xx, no traceback, every refusal is the declared
``ErrorBody``, every answer the declared model, a refused request changes no stored game and
stores no player."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from firstlast.store import GameStore
from firstlast.web import create_app, models
from firstlast.web.context import PlayerBudget
from firstlast.web.routes import ENDPOINTS
from firstlast.web.schema import REF, components

warnings.filterwarnings("ignore", message=".*httpx.*")

BASE = "http://127.0.0.1"
COOKIE = "fl_player_80"
Schema = dict[str, Any]

# ---------------------------------------------------------------------------- strategies from the schema
ODD_TEXT = st.sampled_from(["", " ", "-1", "1_000", "1,000", "²", "١٢", "５", "𝟏", "9" * 5000, "\u0000", "\ufeff1",
                            "1e3", "0x10", "null", "true", "R9", "r1001", "ru ", "x" * 300,
                            "\ud800", "a\udfffb"])  # a lone surrogate: JSON may spell it, no UTF-8 can
ANY_JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                                  st.floats(allow_nan=False), st.text(max_size=20), ODD_TEXT),
                        lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                        max_leaves=8)


def resolve(s: Schema) -> Schema:
    return components()[s["$ref"].removeprefix(REF)] if "$ref" in s else s


def valid(s: Schema) -> st.SearchStrategy[Any]:
    """Values the schema ``s`` accepts."""
    s = resolve(s)
    if "anyOf" in s and "properties" not in s:  # an object's anyOf is its fields together (models.RULES)
        return st.one_of([valid(x) for x in s["anyOf"]])
    if "enum" in s:
        return st.sampled_from(s["enum"])
    t = s.get("type")
    if t == "string":
        return st.from_regex(s["pattern"], fullmatch=True) if "pattern" in s else st.text(max_size=30)
    if t == "integer":
        return st.integers(s.get("minimum", -(2**31)), s.get("maximum", 2**66))
    if t == "number":
        return st.floats(s.get("minimum", -1e9), s.get("maximum", 1e9))
    if t == "boolean":
        return st.booleans()
    if t == "null":
        return st.none()
    if t == "array":
        return st.lists(valid(s["items"]), min_size=s.get("minItems", 0), max_size=min(s.get("maxItems", 4), 4))
    assert t == "object", s
    props: dict[str, Schema] = s.get("properties", {})
    required = set(s.get("required", ()))
    return st.fixed_dictionaries({k: valid(v) for k, v in props.items() if k in required},
                                 optional={k: valid(v) for k, v in props.items() if k not in required})


def wrong(s: Schema) -> st.SearchStrategy[Any]:
    """Values the schema ``s`` likely refuses: its bounds crossed, its type changed."""
    s = resolve(s)
    options: list[st.SearchStrategy[Any]] = [ANY_JSON, ODD_TEXT]
    for x in s.get("anyOf", [s]) if "properties" not in s else [s]:
        x = resolve(x)
        if x.get("type") == "integer":
            lo, hi = x.get("minimum"), x.get("maximum")
            options += [st.just(v) for v in (lo and lo - 1, hi and hi + 1, 2**64, 2**70, -(2**63)) if v is not None]
            options.append(st.sampled_from([True, 1.5, "1", 1e400]))
        if x.get("type") == "object":
            options.append(mutated(x))
    return st.one_of(options)


def mutated(s: Schema) -> st.SearchStrategy[Any]:
    """A valid object for ``s`` with one thing wrong, or no object at all."""
    s = resolve(s)
    props: dict[str, Schema] = s.get("properties", {})
    base = valid(s)
    options = [
        st.tuples(base, st.text(min_size=1, max_size=12), ANY_JSON).map(lambda t: {**t[0], t[1]: t[2]}),
        st.one_of(st.lists(ANY_JSON, max_size=2), st.text(max_size=5), st.integers(), st.none()),
    ]
    if props:
        options.append(st.sampled_from(sorted(props)).flatmap(
            lambda k: st.tuples(base, st.just(k), wrong(props[k])).map(lambda t: {**t[0], t[1]: t[2]})))
    if s.get("required"):
        options.append(base.map(lambda d: {k: v for k, v in d.items() if k not in s["required"][:1]}))
    return st.one_of(options)


def model_schema(model: type[msgspec.Struct]) -> Schema:
    return components()[model.__name__]


#: The API's writes, each with its JSON body (the sign-in form, POST /, takes none: tests/web/test_whose_games.py).
WRITES = [e for e in ENDPOINTS if e.method in ("POST", "PUT") and e.path.startswith("/api/")]
READS = [e for e in ENDPOINTS if e.method == "GET" and e.path.startswith("/api/")]


def body_of(endpoint: Any) -> st.SearchStrategy[Any]:
    assert isinstance(endpoint.body, type)
    s = model_schema(endpoint.body)
    return st.one_of(valid(s), valid(s), mutated(s))  # a valid body reaches the play layer


def as_url(text: str) -> str:
    """``text`` as a server reads it from a URL: a lone surrogate's bytes (``%ED%A0%80``)
    are no UTF-8, and arrive as U+FFFD (a URL cannot carry the surrogate itself)."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def query_of(endpoint: Any) -> st.SearchStrategy[dict[str, str]]:
    """Query strings from the query model: its values (as text), and wrong ones."""
    if endpoint.query is None:
        return st.dictionaries(st.sampled_from(["x", "limit"]), ODD_TEXT.map(as_url), max_size=1)
    props = model_schema(endpoint.query)["properties"]
    text = {k: st.one_of(valid(v), wrong(v)).map(lambda x: as_url(x if isinstance(x, str) else json.dumps(x)))
            for k, v in props.items()}
    return st.fixed_dictionaries({}, optional=text)


# ---------------------------------------------------------------------------- the world
@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, GameStore, str, str]]:
    store = GameStore(Path(tmp_path_factory.mktemp("fuzz")) / "games.sqlite3")
    # Strangers make a player with each accepted write: no bound on new players here
    # (the bound is tests/web/test_whose_games.py's).
    with TestClient(create_app(store, new_players=PlayerBudget(10**6)), base_url=BASE,
                    follow_redirects=False) as client:
        state = client.post("/api/games", json={"deal": "0"}).json()
        # Played, so a new game abandons it rather than deleting it (docs/play.md): the
        # actions keep a game of their own to act on.
        assert client.post(f"/api/games/{state['id']}/step").status_code == 200
        yield client, store, state["id"], client.cookies[COOKIE]


def snapshot(store: GameStore) -> tuple[int, list[tuple[str, str, str, int]]]:
    with store.transaction() as tx:
        players = int(tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0])
        games = [tuple(r) for r in tx.db.execute("SELECT id, moves, redo, version FROM games ORDER BY id")]
    return players, games


def check_answer(endpoint: Any, r: Any) -> None:
    """No server error, no traceback; a refusal is an ErrorBody, an answer its declared model."""
    assert r.status_code < 500 or r.status_code == 503, (r.status_code, r.text[:300])
    assert "Traceback" not in r.text and 'File "' not in r.text
    if r.status_code >= 400:
        error = msgspec.json.decode(r.content, type=models.ErrorBody)
        assert error.error and error.code, r.text[:200]
        return
    declared = endpoint.answers[r.status_code]
    if isinstance(declared, type):
        msgspec.json.decode(r.content, type=declared)


def game_path(path: str, which: str, gid: str) -> str:
    return path.format(id={"mine": gid, "unknown": "A" * 24, "junk": "x" * 70}[which])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data(), which=st.sampled_from(["mine", "mine", "unknown", "junk"]), as_stranger=st.booleans())
def test_no_write_breaks_the_server(world: tuple[TestClient, GameStore, str, str], data: st.DataObject,
                                    which: str, as_stranger: bool) -> None:
    client, store, gid, player = world
    endpoint = data.draw(st.sampled_from(WRITES))
    body = data.draw(body_of(endpoint))
    if endpoint.path == "/api/games" and isinstance(body, dict) and body.get("how") == "winnable":
        body["how"] = "daily"  # a winnable deal is searched for: correct, but slow to fuzz
    before = snapshot(store)
    client.cookies.clear()
    if not as_stranger:
        client.cookies.set(COOKIE, player)
    try:
        content = json.dumps(body).encode()
    except ValueError:  # a float JSON cannot write: send it as text
        content = repr(body).encode()
    r = client.request(endpoint.method, game_path(endpoint.path, which, gid), content=content,
                       headers={"content-type": "application/json"})
    check_answer(endpoint, r)
    if r.status_code >= 400:
        assert snapshot(store) == before, (endpoint.path, body, r.status_code, r.text[:200])
        assert "set-cookie" not in r.headers
    elif as_stranger:
        # A stranger's accepted write stores its own player and its own things only.
        players, games = snapshot(store)
        assert players <= before[0] + 1
        assert [g for g in games if g[0] == gid] == [g for g in before[1] if g[0] == gid]
    client.cookies.set(COOKIE, player)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), which=st.sampled_from(["mine", "unknown", "junk"]))
def test_no_read_breaks_the_server_or_writes(world: tuple[TestClient, GameStore, str, str], data: st.DataObject,
                                             which: str) -> None:
    client, store, gid, player = world
    endpoint = data.draw(st.sampled_from(READS))
    query = data.draw(query_of(endpoint))
    if endpoint.path.endswith("/chance") and query.get("samples", "").isdigit():
        query["samples"] = "100"  # any valid count is a real estimate: keep it cheap
    client.cookies.set(COOKIE, player)
    before = snapshot(store)
    r = client.get(game_path(endpoint.path, which, gid), params=query)
    check_answer(endpoint, r)
    assert snapshot(store) == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=60), endpoint=st.sampled_from(WRITES))
def test_no_raw_bytes_break_the_server(world: tuple[TestClient, GameStore, str, str], raw: bytes,
                                       endpoint: Any) -> None:
    client, store, gid, player = world
    client.cookies.set(COOKIE, player)
    before = snapshot(store)
    r = client.request(endpoint.method, game_path(endpoint.path, "mine", gid), content=raw,
                       headers={"content-type": "application/json"})
    check_answer(endpoint, r)
    if r.status_code >= 400:
        assert snapshot(store) == before


@pytest.mark.parametrize("endpoint", WRITES, ids=lambda e: f"{e.method} {e.path}")
def test_unencodable_text_is_refused_in_every_field_and_key(world: tuple[TestClient, GameStore, str, str],
                                                           endpoint: Any) -> None:
    """A lone surrogate (``"\\ud800"``, valid JSON, no text) in any field or as a key:
    refused where the body is read (400 ``request.json``), never echoed into a refusal
    that cannot be written (it was a 500 on /api/games, /moves, /undo, /api/settings,
    /api/backup)."""
    client, store, gid, player = world
    client.cookies.set(COOKIE, player)
    assert isinstance(endpoint.body, type)
    fields = [f.encode_name for f in msgspec.structs.fields(endpoint.body)] or ["x"]
    bodies = [b'{"%s": "\\ud800"}' % f.encode() for f in fields] + [b'{"\\udfff": 1}', b'["a\\ud800b"]']
    before = snapshot(store)
    for body in bodies:
        r = client.request(endpoint.method, game_path(endpoint.path, "mine", gid), content=body,
                           headers={"content-type": "application/json"})
        check_answer(endpoint, r)
        assert r.status_code == 400 and r.json()["code"] == "request.json", (body, r.text[:200])
    assert snapshot(store) == before
