"""``GET``/``POST /api/backup`` (docs/backup.md): the player's backup as a download, a
restore into a fresh server with the same statistics, merging twice without
duplicates, and refusals that store nothing."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import loops
import msgspec
import pytest
from playing import export_backup, restart
from starlette.testclient import TestClient

from firstlast.play.backup import BackupGame
from firstlast.store import GameStore
from firstlast.web import create_app, models
from firstlast.web.routes import player as player_routes

warnings.filterwarnings("ignore", message=".*httpx.*")

BASE = "http://127.0.0.1"


def client_on(path: Path) -> TestClient:
    return TestClient(create_app(GameStore(path)), base_url=BASE, follow_redirects=False)


@pytest.fixture
def source(tmp_path: Path) -> Iterator[TestClient]:
    """A player with a won game (deal 7), an abandoned one (deal 3) and one on the table
    (deal 0) under another variant; speed set to 0."""
    with client_on(tmp_path / "source.sqlite3") as c:
        won = c.post("/api/games", json={"deal": "7"}).json()["id"]
        c.post(f"/api/games/{won}/step", json={"n": 10_000})
        left = c.post("/api/games", json={"deal": "3"}).json()["id"]
        c.post(f"/api/games/{left}/step", json={"n": 20})
        table = c.post("/api/games", json={"deal": "0", "variant": "r1w"}).json()["id"]
        c.post(f"/api/games/{table}/step", json={"n": 5})
        c.put("/api/settings", json={"speed": 0})
        yield c


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[TestClient]:
    with client_on(tmp_path / "fresh.sqlite3") as c:
        yield c


def strict(model: type[msgspec.Struct], content: bytes) -> Any:
    value = msgspec.json.decode(content, type=model)
    assert set(msgspec.json.decode(content)) <= set(model.__struct_encode_fields__)
    return value


def test_the_backup_is_a_download_of_the_declared_shape(source: TestClient) -> None:
    r = source.get("/api/backup")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"].startswith('attachment; filename="firstlast-backup-')
    doc = strict(models.Backup, r.content)
    assert doc.format == "firstlast-backup" and len(doc.games) == 3 and doc.settings.speed == 0
    for game in msgspec.json.decode(r.content)["games"]:
        assert set(game) == set(BackupGame.__struct_encode_fields__)
    assert {g.deal for g in doc.games} == {"7", "3", "0"} and doc.table == doc.games[-1].id


def test_a_backup_past_the_bounds_is_refused_not_cut(source: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from firstlast.play import backup

    monkeypatch.setattr(backup, "MAX_BACKUP_GAMES", 2)
    r = source.get("/api/backup")
    assert r.status_code == 422 and r.json()["code"] == "backup.too_many" and r.json()["params"]["count"] == 3
    assert "422" in source.get("/api/schema").json()["paths"]["/api/backup"]["get"]["responses"]


def test_without_a_player_the_backup_is_empty_and_makes_no_player(fresh: TestClient) -> None:
    r = fresh.get("/api/backup")
    assert r.status_code == 200 and json.loads(r.text)["games"] == [] and "set-cookie" not in r.headers


def test_restore_into_a_fresh_server_then_again(source: TestClient, fresh: TestClient) -> None:
    text = source.get("/api/backup").text
    r = fresh.post("/api/backup", json={"backup": text})
    assert r.status_code == 200 and "fl_player_80" in r.headers.get("set-cookie", "")
    report = strict(models.RestoreReport, r.content)
    assert (report.games, report.added, report.updated, report.kept) == (3, 3, 0, 0)
    assert report.settings == ["speed"] and report.table is True
    assert report.text == "3 games imported, 0 already here. 1 setting was taken from the backup."
    assert fresh.get("/api/stats").json() == source.get("/api/stats").json()
    assert fresh.get("/api/stats").json()["variants"][0]["won"] == 1
    assert fresh.get("/api/stats").json()["variants"][0]["abandoned"] == 1
    listed = [(g["id"], g["moves"], g["status"], g["abandoned"]) for g in fresh.get("/api/games").json()["games"]]
    assert listed == [(g["id"], g["moves"], g["status"], g["abandoned"])
                      for g in source.get("/api/games").json()["games"]]
    assert fresh.get("/api/games/current").json()["id"] == source.get("/api/games/current").json()["id"]
    assert fresh.get("/api/settings").json()["speed"] == 0
    # The second time: everything is already here, nothing changes.
    again = fresh.post("/api/backup", json={"backup": text}).json()
    assert (again["added"], again["updated"], again["kept"], again["settings"]) == (0, 0, 3, [])
    assert len(fresh.get("/api/games").json()["games"]) == 3
    # A BOM, as a file read in some editors has, is fine.
    assert fresh.post("/api/backup", json={"backup": "\ufeff" + text}).json()["kept"] == 3


def _illegal(text: str) -> str:
    doc = json.loads(text)
    doc["games"][-1]["moves"] = "turn " + doc["games"][-1]["moves"]
    return json.dumps(doc)


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"backup": "not json"}, 422, "backup.json"),
    ({"backup": "[]"}, 422, "backup.format"),
    ({"backup": '{"format": "firstlast-backup", "version": 2, "games": []}'}, 422, "backup.version"),
    ({"backup": 5}, 422, "request.value"),
    ({"backup": "{}", "extra": 1}, 422, "request.field"),
    ({}, 422, "request.value"),
])
def test_refusals_store_nothing(source: TestClient, fresh: TestClient, body: dict[str, object], status: int,
                                code: str) -> None:
    if body.get("backup") == "ILLEGAL":
        body = {"backup": _illegal(source.get("/api/backup").text)}
    r = fresh.post("/api/backup", json=body)
    assert r.status_code == status and r.json()["code"] == code, r.text
    assert "set-cookie" not in r.headers  # no player was made
    strict(models.ErrorBody, r.content)
    assert fresh.get("/api/games").json() == {"games": []}


def test_a_damaged_game_is_named_and_the_others_restored(source: TestClient, fresh: TestClient) -> None:
    """Issue 29: one game that does not replay refused the whole file."""
    text = source.get("/api/backup").text
    r = fresh.post("/api/backup", json={"backup": _illegal(text)}, headers={"accept-language": "ru"})
    assert r.status_code == 200, r.text
    report = strict(models.RestoreReport, r.content)
    assert (report.added, report.games) == (2, 2)
    [skipped] = report.skipped
    assert (skipped.n, skipped.id, skipped.deal) == (3, json.loads(text)["games"][-1]["id"], "0")
    assert skipped.error.params["refusal"] == "R9.play_before_turn" and skipped.error.rule == "R9"
    assert skipped.error.params["move"] == 1 and "ход 1" in skipped.error.text  # in the player's language
    # The page's one line: what was done, each game left out a sentence of its own (named
    # once: the refusal does not name it again), their count.
    assert report.text == ("2 игры загружены, 0 уже были здесь. 1 настройка взята из резервной копии. "
                           f"Не восстановлена игра 3 резервной копии (раскладка 0, id {skipped.id}): "
                           f"{skipped.error.text}. 1 повреждённая игра не восстановлена.")
    assert skipped.error.text.startswith("ход 1 (turn) не воспроизводится: "), skipped.error.text
    assert len(fresh.get("/api/games").json()["games"]) == 2


def test_a_known_player_keeps_their_games_when_a_restore_is_refused(source: TestClient) -> None:
    before = source.get("/api/games").json()
    r = source.post("/api/backup", json={"backup": "[]"})
    assert r.status_code == 422 and source.get("/api/games").json() == before


def test_the_backup_leaves_out_a_damaged_game_and_says_so(source: TestClient, fresh: TestClient) -> None:
    """Issue 29: GET /api/backup copied a game whose stored moves were damaged, and the
    file could then not be restored at all."""
    assert source.get("/api/backup").headers["x-firstlast-left-out"] == "0"
    gid = source.get("/api/games/current").json()["id"]
    store = source.app.state.web.play.store  # type: ignore[attr-defined]
    with store.transaction() as tx:
        tx.db.execute("UPDATE games SET moves = 'F9 ' || moves WHERE id = ?", (gid,))
    r = source.get("/api/backup")
    assert r.status_code == 200 and r.headers["x-firstlast-left-out"] == "1"
    doc = strict(models.Backup, r.content)
    assert [x.id for x in doc.left_out] == [gid] and doc.left_out[0].code == "backup.game"
    assert gid not in [g.id for g in doc.games] and len(doc.games) == 2
    report = fresh.post("/api/backup", json={"backup": r.text}).json()
    assert (report["added"], report["skipped"]) == (2, [])


def test_too_large_a_body_and_a_foreign_page(fresh: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(player_routes, "MAX_RESTORE_BODY", 100)
    r = fresh.post("/api/backup", json={"backup": "x" * 200})
    assert r.status_code == 413 and r.json()["code"] == "request.too_large"
    r = fresh.post("/api/backup", json={"backup": "{}"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["code"] == "request.origin"
    r = fresh.post("/api/backup", content=b"backup=x", headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert fresh.get("/api/games").json() == {"games": []}


# ---------------------------------------------------------------------------- the static site


def test_a_player_moves_from_the_static_site_to_the_local_server_and_back(tmp_path: Path, no_threads: None) -> None:
    """The site's app (``site.bridge``, thread-free) makes the file; the local store
    (the CLI's and ``firstlast play``'s local player) restores it, and the other way."""

    from firstlast.play import PlayService
    from firstlast.site.bridge import Bridge

    def call(bridge: Bridge, method: str, target: str, body: object | None = None) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        headers = {} if body is None else {"content-type": "application/json"}
        answer = loops.run(bridge.request(method, target, headers, data))
        return answer.status, answer.body

    site = Bridge(str(tmp_path / "site.sqlite3"), "https://cards.example.org")
    status, body = call(site, "POST", "/api/games", {"deal": "7"})
    assert status == 201
    gid = json.loads(body)["id"]
    assert call(site, "POST", f"/api/games/{gid}/step", {"n": 10_000})[0] == 200
    status, text = call(site, "GET", "/api/backup")
    assert status == 200 and json.loads(text)["games"][0]["result"] == "won"

    local = PlayService(GameStore(tmp_path / "local.sqlite3"))
    me = local.local_player()
    report = local.import_backup(me, text.decode())
    assert (report.added, report.table) == (1, True)
    site_stats = json.loads(call(site, "GET", "/api/stats")[1])["variants"]
    assert msgspec.to_builtins(local.stats(me)) == site_stats and site_stats[0]["won"] == 1

    # Played on at the local server (restart: a new attempt), then back to the site.
    restart(local, me, gid)
    status, body = call(site, "POST", "/api/backup", {"backup": export_backup(local, me)})
    assert status == 200, body
    assert {k: json.loads(body)[k] for k in ("added", "updated", "kept")} == {"added": 1, "updated": 0, "kept": 1}
    assert len(json.loads(call(site, "GET", "/api/games")[1])["games"]) == 2
