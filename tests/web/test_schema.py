"""The API's one declared contract (firstlast.web.models, firstlast.web.routes): the
OpenAPI document covers exactly the routes the app serves, the doc's reference and the
page's typedefs are what the models generate, and the answers the server gives are the
declared models."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import msgspec
import pytest
from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from firstlast.engine.position import TABLE_MOVES
from firstlast.web import generated, models, schema

warnings.filterwarnings("ignore", message=".*httpx.*")



def served(app: Starlette) -> set[tuple[str, str]]:
    """(method, path) of every route the app serves (HEAD is GET's shadow)."""
    out = set()
    for route in app.routes:
        if isinstance(route, Mount):
            out.add(("GET", route.path + "/{path}"))
        else:
            assert isinstance(route, Route)
            out |= {(m, route.path) for m in route.methods or () if m != "HEAD"}
    return out


def test_the_schema_covers_exactly_the_routes_served(app: Starlette, client: TestClient) -> None:
    doc = client.get("/api/schema").json()
    assert doc["openapi"].startswith("3.1")
    declared = {(method.upper(), path) for path, ops in doc["paths"].items() for method in ops}
    assert declared == served(app)
    assert len(declared) >= 20


def test_every_reference_resolves_and_every_operation_declares_its_answers(client: TestClient) -> None:
    doc = client.get("/api/schema").json()
    names = set(doc["components"]["schemas"])
    refs = set(re.findall(r'"#/components/schemas/([A-Za-z]+)"', client.get("/api/schema").text))
    assert refs and refs <= names
    assert {"GameState", "ActionResult", "ErrorBody", "NewGame", "MoveRequest", "SettingsChange", "Stats"} <= names
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op["responses"] and op["summary"], (method, path)
            assert "421" in op["responses"]  # the Host check answers on every route
            if method in ("post", "put"):
                assert op["responses"]["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
    # Declared bounds reach the schema (the fuzz test's strategies are made from them).
    step = doc["components"]["schemas"]["StepRequest"]
    assert step["additionalProperties"] is False
    assert (step["properties"]["n"]["minimum"], step["properties"]["n"]["maximum"]) == (1, 100_000)
    moves = doc["components"]["schemas"]["MoveRequest"]["properties"]["move"]["enum"]
    assert set(moves) == set(TABLE_MOVES) and "W" not in moves  # the engine's words, made into the schema


def test_the_doc_reference_is_the_generated_one() -> None:
    doc = schema.DOC.read_text(encoding="utf-8")
    assert schema.BEGIN in doc and schema.END in doc
    assert schema.doc_with_reference(doc) == doc, "run: python -m firstlast.web.generated"
    # Hand-written prose around it is kept.
    assert "## Security model" in doc and "DNS rebinding" in doc


def test_the_page_typedefs_are_the_generated_ones() -> None:
    assert schema.TYPEDEFS.read_text(encoding="utf-8") == schema.typedefs(), (
        "run: python -m firstlast.web.generated")
    text = schema.typedefs()
    assert "export interface GameState {" in text and "export interface ActionResult {" in text
    assert '  move: "F1" |' in text and "  rule?: string;" in text


def test_the_check_mode_finds_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert generated.main(["--check"]) == 0  # every generated file is fresh
    stale, missing = tmp_path / "api-types.d.ts", tmp_path / "vocabulary.js"
    stale.write_text("// old\n", encoding="utf-8")
    monkeypatch.setattr(generated, "files", lambda: {stale: "new\n", missing: "made\n"})
    assert generated.main(["--check"]) == 1
    assert capsys.readouterr().err == f"not up to date (run {generated.COMMAND}): {stale}, {missing}\n"
    assert stale.read_text(encoding="utf-8") == "// old\n" and not missing.exists()  # --check writes nothing
    assert generated.main([]) == 0
    assert stale.read_text(encoding="utf-8") == "new\n" and missing.read_text(encoding="utf-8") == "made\n"
    assert generated.main(["--check"]) == 0
    with pytest.raises(ValueError):
        schema.doc_with_reference("no markers here")


def strict(model: type[msgspec.Struct], content: bytes) -> Any:
    """``content`` decoded as ``model``, and exactly its fields (answers are not decoded
    with unknown fields forbidden, so extra keys are checked here)."""
    value = msgspec.json.decode(content, type=model)
    keys = set(msgspec.json.decode(content))
    assert keys <= set(model.__struct_encode_fields__), keys - set(model.__struct_encode_fields__)
    return value


def test_answers_are_the_declared_models(client: TestClient) -> None:
    r = client.post("/api/games", json={"deal": "0", "variant": {"redeals": 1, "waste_playable": True}})
    state = strict(models.GameState, r.content)
    assert set(msgspec.json.decode(r.content)) == set(models.GameState.__struct_encode_fields__)
    gid = state.id
    result = strict(models.ActionResult, client.post(f"/api/games/{gid}/step", json={"n": 30}).content)
    assert result.movements and result.movements[0].from_ in ("R3", "stock")
    strict(models.ActionResult, client.post(f"/api/games/{gid}/undo").content)
    strict(models.Replay, client.get(f"/api/games/{gid}/replay").content)
    strict(models.GameList, client.get("/api/games").content)
    strict(models.Settings, client.put("/api/settings", json={"speed": 1}).content)
    strict(models.StatsList, client.get("/api/stats").content)
    fresh = client.post("/api/games", json={"deal": "0"}).json()["id"]  # deal 0 starts with R3: no turn (R9)
    refused = client.post(f"/api/games/{fresh}/moves", json={"move": "turn"})
    assert refused.status_code == 409
    error = strict(models.ErrorBody, refused.content)
    assert error.code == "move.illegal" and error.rule == "R9"
    for content in (client.get("/api/nothing").content, client.get("/", headers={"host": "evil.example"}).content,
                    client.post("/api/games", json={"deal": "1", "x": 1}).content):
        strict(models.ErrorBody, content)


@pytest.mark.parametrize(("body", "code"), [
    ({"deal": "1", "colour": "red"}, "request.field"), ({"deal": "abc"}, "deal.invalid"),
    ({"deal": "1" * 21}, "deal.range"), ({"deal": -1}, "deal.range"), ({"deal": "١٢"}, "deal.invalid"),
    ({"variant": {"redeals": 1001}}, "variant.redeals"), ({"variant": {"redeal": 3}}, "variant.field"),
    ({"variant": "zz"}, "variant.invalid"), ({"how": "lucky"}, "request.value"),
])
def test_a_refused_field_gets_the_play_layers_code(client: TestClient, body: object, code: str) -> None:
    """The page reads codes, not sentences (``deal.*`` and ``variant.*`` keep the deal
    dialog open with its own message): a value the models refuse keeps the play layer's code."""
    r = client.post("/api/games", json=body)
    assert r.status_code == 422 and r.json()["code"] == code, r.text


def test_json_documents_are_declared_as_objects_and_answered_as_such(client: TestClient) -> None:
    """(issue: /api/schema and /i18n/{lang}.json were declared strings but answer objects.)"""
    doc = client.get("/api/schema").json()
    for path in ("/api/schema", "/i18n/{lang}.json"):
        declared = doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert declared == {"type": "object"}, path
    assert isinstance(client.get("/i18n/ru.json").json(), dict)
    assert isinstance(doc, dict)
