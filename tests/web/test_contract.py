"""The contract's small print (issue 20): what the schema promises is what the server
takes and answers. Integers as JSON Schema reads them (``2.0`` is one), over-long
numbers refused as out of range, every refusal naming its field, the fields of a new
game together, a concrete path that is no template's value, the statuses declared."""

from __future__ import annotations

import warnings
from typing import Any

import jsonschema_rs
import pytest
from starlette.testclient import TestClient

from firstlast.engine import MAX_DEAL
from firstlast.play import PlayError, deals
from firstlast.web import schema
from firstlast.web.routes import ENDPOINTS

warnings.filterwarnings("ignore", message=".*httpx.*")



def game(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/games", json={"deal": "0"})
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def raw(client: TestClient, method: str, path: str, body: str | bytes) -> Any:
    return client.request(method, path, content=body, headers={"content-type": "application/json"})


# ---------------------------------------------------------------------------- integers
@pytest.mark.parametrize("text", ["2.0", "2.00", "0.2e1", "2E0", "200e-2"])
def test_a_whole_float_is_an_integer_in_a_body(client: TestClient, text: str) -> None:
    """JSON Schema's "integer" is any number without a fraction: the schema says
    ``type: integer``, so ``{"speed": 2.0}`` is taken (issue: 207 schemathesis cases)."""
    r = raw(client, "PUT", "/api/settings", f'{{"speed": {text}}}')
    assert r.status_code == 200 and r.json()["speed"] == 2, r.text


def test_whole_floats_everywhere_an_integer_goes(client: TestClient) -> None:
    state = game(client)
    r = raw(client, "POST", f"/api/games/{state['id']}/step", f'{{"n": 3.0, "version": {state["version"]}.0}}')
    assert r.status_code == 200 and r.json()["state"]["moves"] == 3, r.text
    r = raw(client, "POST", "/api/games", '{"deal": 7.0, "variant": {"redeals": 1.0}}')
    assert r.status_code == 201 and r.json()["deal"] == "7" and r.json()["variant"]["token"] == "r1", r.text
    # Read exactly, not through a float: 1e19 and 2^64 − 1 written with an exponent.
    for text, deal in (("1e19", "10000000000000000000"), ("1.8446744073709551615e19", str(MAX_DEAL))):
        r = raw(client, "POST", "/api/games", f'{{"deal": {text}}}')
        assert r.status_code == 201 and r.json()["deal"] == deal, r.text
    # Zero written with any exponent is zero, not a number past 20 digits.
    r = raw(client, "PUT", "/api/settings", '{"speed": 0e30}')
    assert r.status_code == 200 and r.json()["speed"] == 0, r.text
    # In a query, as in a body.
    for limit in ("5", "5.0", "0.5e1", "005"):
        assert client.get(f"/api/games?limit={limit}").status_code == 200, limit


@pytest.mark.parametrize(("body", "field"), [
    ('{"speed": 2.5}', "speed"), ('{"speed": "2"}', "speed"), ('{"speed": true}', "speed"),
    ('{"lang": 2.0}', "lang"), ('{"variant": {"redeals": 0.5}}', "variant"),
])
def test_a_fraction_or_another_type_is_still_refused(client: TestClient, body: str, field: str) -> None:
    r = raw(client, "PUT", "/api/settings", body)
    assert r.status_code == 422 and r.json()["params"]["field"] == field, r.text


@pytest.mark.parametrize("body", ['{"n": 1e400}', '{"n": 99999999999999999999999}', '{"n": %s}' % ("9" * 5000),
                                  '{"n": 1.5e999999999999999999999}', '{"n": -1e30}'])
def test_a_huge_integer_in_a_body_is_out_of_range(client: TestClient, body: str) -> None:
    r = raw(client, "POST", f"/api/games/{game(client)['id']}/step", body)
    assert r.status_code == 422 and r.json()["code"] == "request.value", r.text
    assert r.json()["params"]["field"] == "n" and "Expected `int` " in r.json()["params"]["reason"], r.text
    assert "got" not in r.json()["params"]["reason"]  # a range, not a type


@pytest.mark.parametrize("limit", ["9" * 19, "9" * 30, "9" * 5000, "1e30", "-" + "9" * 40])
def test_an_over_long_digit_string_in_a_query_is_out_of_range(client: TestClient, limit: str) -> None:
    r = client.get(f"/api/games?limit={limit}")
    assert r.status_code == 422, r.text
    params = r.json()["params"]
    assert params["field"] == "limit" and params["reason"].startswith("Expected `int` "), params
    assert "got" not in params["reason"]
    assert client.get("/api/games?limit=" + "0" * 5000 + "7").status_code == 200  # 7 all the same


def test_a_query_value_is_text_never_json(client: TestClient) -> None:
    """A query's value is a number's digits or the text it is: ``null`` and an empty
    value are refused like any other text, never read as "not given" (msgspec's lax
    reading, ``strict=False``, would take ``null`` as None and refuse ``007``); of a key
    given twice, the last counts."""
    gid = game(client)["id"]
    for path in ("/api/games?limit=null", "/api/games?limit=", "/api/games?status=null", "/api/games?status=",
                 f"/api/games/{gid}/words?step=null", f"/api/games/{gid}/words?step=",
                 f"/api/games/{gid}/chance?round=null"):
        r = client.get(path)
        assert r.status_code == 422 and r.json()["code"] == "request.value", (path, r.text)
    assert client.get(f"/api/games/{gid}/words?step=00").status_code == 200
    assert client.get("/api/games?limit=0&limit=7").status_code == 200
    assert client.get("/api/games?limit=7&limit=0").status_code == 422


def test_over_long_deal_numbers_are_range_errors(client: TestClient) -> None:
    for body in ('{"deal": "%s"}' % ("9" * 21), '{"deal": "%s"}' % (MAX_DEAL + 1), '{"deal": %s}' % (MAX_DEAL + 1),
                 '{"deal": %s}' % ("9" * 5000), '{"deal": 1e400}'):
        r = raw(client, "POST", "/api/games", body)
        assert r.status_code == 422 and r.json()["code"] == "deal.range", (body[:40], r.text)
        assert r.json()["params"]["field"] == "deal"


# ---------------------------------------------------------------------------- refusals name their field
@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/games", {"deal": "abc"}, "deal"), ("/api/games", {"variant": "zz"}, "variant"),
    ("/api/games", {"variant": "r1001"}, "variant"), ("/api/games", {"how": "lucky"}, "how"),
    ("/api/games", {"how": "daily", "deal": "5"}, "deal"), ("/api/games", {"how": "number"}, "deal"),
    ("/api/games", {"colour": "red"}, "colour"), ("/api/games", {"variant": {"redeals": -1}}, "variant"),
    ("/api/games", {"how": "daily", "date": "2026-02-30"}, "date"), ("/api/games", {"date": "2026-01-01"}, "date"),
    ("/api/settings", {"speed": 9}, "speed"), ("/api/settings", {"volume": 101}, "volume"),
    ("/api/games/import", {}, "record"), ("/api/games/import", {"record": 5}, "record"),
    ("{game}/moves", {}, "move"), ("{game}/moves", {"move": "R9"}, "move"),
    ("{game}/moves", {"move": "turn", "version": -1}, "version"), ("{game}/step", {"n": 0}, "n"),
    ("/api/backup", {"backup": []}, "backup"),
])
def test_each_refusal_names_the_field_it_is_about(client: TestClient, path: str, body: object, field: str) -> None:
    path = path.format(game=f"/api/games/{game(client)['id']}")
    r = client.request("PUT" if path == "/api/settings" else "POST", path, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["params"]["field"] == field, r.text


@pytest.mark.parametrize("date", ["2026-02-30", "tomorrow", 20260101, "2026-1-1"])
def test_a_bad_date_is_told_in_plain_words(client: TestClient, date: object) -> None:
    r = client.post("/api/games", json={"how": "daily", "date": date})
    assert r.status_code == 422, r.text
    assert r.json()["params"] == {"field": "date", "reason": "must be a date, YYYY-MM-DD"}, r.text


@pytest.mark.parametrize(("query", "field"), [("samples=x", "samples"), ("round=20", "round"),
                                              ("samples=20001", "samples"), ("samples=1.5", "samples")])
def test_a_query_refusal_names_its_parameter(client: TestClient, query: str, field: str) -> None:
    r = client.get(f"/api/games/{game(client)['id']}/chance?{query}")
    assert r.status_code == 422 and r.json()["params"]["field"] == field, r.text


# ---------------------------------------------------------------------------- bodies
@pytest.mark.parametrize("content", [b"\r", b" ", b"\n\t", b"\x0b", b"\x0c{}", b"{}\x0b"])
def test_whitespace_is_no_json(client: TestClient, content: bytes) -> None:
    """No body reads as ``{}``; a body of whitespace, or JSON with a vertical tab, is not JSON."""
    r = raw(client, "POST", "/api/games", content)
    assert r.status_code == 400 and r.json()["code"] == "request.json", r.text


def test_no_body_and_json_whitespace_are_fine(client: TestClient) -> None:
    assert raw(client, "POST", "/api/games", b"").status_code == 201
    assert raw(client, "POST", "/api/games", b' \r\n\t{"how": "daily"} \n').status_code == 201


# ---------------------------------------------------------------------------- the schema says it
def test_a_required_field_makes_the_body_required() -> None:
    doc = schema.openapi()
    for e in ENDPOINTS:
        if isinstance(e.body, type):
            required = bool(schema.components()[e.body.__name__].get("required"))
            assert doc["paths"][e.path][e.method.lower()]["requestBody"]["required"] is required, e.path
    assert doc["paths"]["/api/games/{id}/moves"]["post"]["requestBody"]["required"] is True
    assert doc["paths"]["/api/games"]["post"]["requestBody"]["required"] is False


@pytest.mark.parametrize(("body", "accepted"), [
    ({}, True), ({"deal": "5"}, True), ({"deal": 5, "how": None}, True), ({"how": "number", "deal": "5"}, True),
    ({"how": "daily"}, True), ({"how": "daily", "deal": None}, True), ({"how": "random", "variant": "r3"}, True),
    ({"how": "number"}, False), ({"how": "number", "deal": None}, False), ({"how": "daily", "deal": "5"}, False),
    ({"how": "next", "deal": 0}, False), ({"deal": "18446744073709551616"}, False), ({"deal": MAX_DEAL + 1}, False),
    ({"variant": "r1001"}, False), ({"variant": "r0999"}, True), ({"variant": "r1000wn"}, True),
])
def test_the_new_game_schema_takes_what_the_server_takes(client: TestClient, body: dict[str, Any],
                                                         accepted: bool) -> None:
    comps = schema.components()
    validator = jsonschema_rs.validator_for({**comps["NewGame"], "components": {"schemas": comps}})
    assert validator.is_valid(body) is accepted
    r = client.post("/api/games", json=body)
    assert (r.status_code == 201) is accepted, r.text


def test_the_static_files_404_is_declared(client: TestClient) -> None:
    r = client.get("/static/no-such-file.js")
    assert r.status_code == 404 and r.json()["code"] == "request.not_found"
    declared = schema.openapi()["paths"]["/static/{path}"]["get"]["responses"]
    assert declared["404"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")


def test_a_concrete_path_is_no_game_id(client: TestClient) -> None:
    """``/api/games/import`` is its own path (POST only), as the schema says, not
    ``/api/games/{id}`` with the id "import"."""
    for method in ("GET", "OPTIONS", "PUT"):
        r = client.request(method, "/api/games/import")
        assert r.status_code == 405 and r.headers["allow"] == "POST", (method, r.text)
    assert client.get("/api/games/current").status_code == 204


def test_no_winnable_deal_is_the_variants_refusal_not_a_server_error(client: TestClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """No deal drawn comes out: a well-formed request the rules cannot satisfy is 409, as
    an illegal move (declared for POST /api/games), not 503 (the server at fault)."""
    def none(variant: object, **_: object) -> int:
        raise PlayError("winnable.none", variant="r0", tries=5000)

    monkeypatch.setattr(deals, "winnable_deal", none)
    r = client.post("/api/games", json={"how": "winnable", "variant": "r0"})
    assert r.status_code == 409 and r.json()["code"] == "winnable.none", r.text
    assert "409" in schema.openapi()["paths"]["/api/games"]["post"]["responses"]
