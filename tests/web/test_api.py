"""The browser game's HTTP API (docs/web-api.md), in process with Starlette's TestClient
on a temporary SQLite file, plus one real ``firstlast play`` server in a subprocess."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reading import read
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from firstlast.engine import CANONICAL, MAX_DEAL, Game, Move, Position, Variant
from firstlast.engine.errors import IllegalMoveError, InvalidMoveError
from firstlast.engine.position import TABLE_MOVES
from firstlast.engine.record import record_to_text
from firstlast.play import PlayService
from firstlast.play.settings import Settings
from firstlast.store import GameStore, StoreError, UnknownGame
from firstlast.web import create_app

# Starlette 1.x nags that its TestClient will move to httpx2; the client works as is.
warnings.filterwarnings("ignore", message=".*httpx.*")

#: The address the in-process clients use: a loopback name (the server refuses others).
COOKIE = "fl_player_80"  # named by the port (80: the in-process clients' default)
#: What a browser says of a typed address, or one ``firstlast play`` opened: the sign-in
#: link signs in at once only then (issue 29.6).
TYPED = {"sec-fetch-site": "none"}


def player_of(cookie: str) -> str:
    """The player a cookie names (its value is ``TOKEN.MAC``)."""
    return cookie.rpartition(".")[0]


WON_DEAL = 7  # canonical rules: comes out after 223 moves
LOST_DEAL = 1  # canonical rules: lost with 52 cards on the piles
PLAY_FIRST_DEAL = 0  # the first legal move is a reserve play (R3), so "turn" is refused (R9)
STATE_KEYS = {
    "id", "deal", "variant", "status", "score", "passes", "redeals_used", "redeals_left", "first", "reserve",
    "piles", "stock_count", "stock_decks", "waste", "active", "need", "privileged", "legal_moves", "hint",
    "can_undo", "can_redo", "moves",
}


# ---------------------------------------------------------------------------- helpers
def new_game(c: TestClient, deal: object = str(WON_DEAL), variant: object = None) -> dict[str, Any]:
    body: dict[str, object] = {"deal": deal}
    if variant is not None:
        body["variant"] = variant
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def game_rows(store: GameStore) -> list[tuple[str, str, int]]:
    """Every game as stored: (id, moves, version) — to prove a refusal wrote nothing."""
    with store.reading() as tx:
        return [(s.id, " ".join(map(str, (g := tx.load(s.id)).game.moves)), g.version) for s in tx.games()]


def card_ids(state: dict[str, Any]) -> list[int]:
    cards = [c for c in state["first"] + state["reserve"] if c] + state["waste"]
    cards += [c for pile in state["piles"] for c in pile]
    return [c["id"] for c in cards]


def import_record(c: TestClient, text: str) -> httpx.Response:
    """POST /api/games/import, the record as JSON (the only form the server takes)."""
    return c.post("/api/games/import", json={"record": text})


def finished_record(deal: int, variant: Variant = CANONICAL) -> str:
    game = Game(deal, variant)
    game.autoplay()
    return record_to_text(game, date="2026-01-01")


# ---------------------------------------------------------------------------- players
def test_cookie_is_created_on_first_write_with_safe_flags(client: TestClient, store: GameStore) -> None:
    assert client.get("/api/games").json() == {"games": []}
    assert read(store).games() == []
    r = client.post("/api/games", json={"deal": "5"})
    assert r.status_code == 201
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict") and "Path=/" in cookie
    pid = player_of(client.cookies[COOKIE])
    assert read(store).has_player(pid)
    # Later requests reuse the player: no second cookie, the game is listed (deal 5,
    # dealt and never played, is gone: leaving it deleted it, docs/play.md).
    r = client.post("/api/games", json={"deal": "6"})
    assert "set-cookie" not in r.headers
    assert [g["deal"] for g in client.get("/api/games").json()["games"]] == ["6"]


def test_sign_in_link_accepts_only_known_players(client: TestClient, store: GameStore) -> None:
    local = PlayService(store).local_player()
    r = client.get("/?player=nobody-knows-this-one")
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert "set-cookie" not in r.headers
    r = client.get("/?player=" + "x" * 500)
    assert r.status_code == 303 and "set-cookie" not in r.headers
    r = client.get(f"/?player={local}", headers=TYPED)
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert "HttpOnly" in r.headers["set-cookie"]
    assert r.headers["referrer-policy"] == "no-referrer"
    assert player_of(client.cookies[COOKIE]) == local
    state = new_game(client)
    assert [g.id for g in read(store).games(local)] == [state["id"]]


def test_the_table_page_stores_nothing_for_a_new_visitor(client: TestClient, store: GameStore) -> None:
    from firstlast.web.app import STATIC_DIR

    assert (STATIC_DIR / "index.html").is_file()
    for method in ("GET", "HEAD"):
        r = client.request(method, "/")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert "set-cookie" not in r.headers
    # A player is made when something of theirs is first stored, not before.
    with store.transaction() as tx:
        assert tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 0
    assert client.get("/static/index.html").status_code == 200


def test_unknown_cookie_is_not_trusted(client: TestClient, store: GameStore) -> None:
    client.cookies.set(COOKIE, "forged-token")
    assert client.get("/api/games").json() == {"games": []}
    r = client.post("/api/games", json={"deal": "1"})
    state = r.json()
    pid = player_of(r.cookies[COOKIE])
    assert pid != "forged-token" and read(store).has_player(pid)
    assert read(store).load(state["id"]).player == pid


# ---------------------------------------------------------------------------- new games and state
def test_state_has_the_contract_shape_and_hides_the_stock(client: TestClient) -> None:
    state = new_game(client, str(PLAY_FIRST_DEAL))
    assert set(state) >= STATE_KEYS
    pos = Position.deal(PLAY_FIRST_DEAL)
    assert state["deal"] == "0" and state["status"] == "playing" and state["score"] == 0
    assert state["variant"] == {"redeals": 3, "waste_playable": False, "privileged_last": True, "token": "r3",
                                "description": "3 redeals, privileged last card"}
    assert [c["symbol"] for c in state["first"]] == [c.symbol for c in pos.first]
    assert state["first"][0] == {"id": int(pos.first[0]), "rank": pos.first[0].rank,
                                 "suit": "cdhs"[pos.first[0].suit], "deck": pos.first[0].deck,
                                 "symbol": pos.first[0].symbol}
    assert [c["id"] for c in state["reserve"]] == [int(c) for c in pos.reserve]
    assert state["piles"] == [[]] * 8 and state["waste"] == []
    assert state["stock_count"] == 88 and state["stock_decks"] == [c.deck for c in pos.stock]
    assert state["active"] == 0 and state["need"] == pos.need and state["privileged"] == "F8"
    assert state["legal_moves"] == ["R3"] and state["hint"] == "R3"
    assert state["need_char"] == "A23456789TJQK"[pos.need - 1]  # type: ignore[operator]
    assert (state["can_undo"], state["can_redo"], state["moves"]) == (False, False, 0)
    assert state["redeals_used"] == 0 and state["redeals_left"] == 3 and state["passes"] == 1
    # Not one stock card's identity is in the answer.
    stock_ids = {int(c) for c in pos.stock}
    assert not stock_ids & set(card_ids(state))
    assert len(card_ids(state)) + state["stock_count"] == 104
    assert client.get(f"/api/games/{state['id']}").json() == state


@pytest.mark.parametrize(("deal", "expected"), [
    ("123", "123"), (123, "123"), (0, "0"), (str(MAX_DEAL), str(MAX_DEAL)), (MAX_DEAL, str(MAX_DEAL)),
])
def test_deal_numbers_as_string_or_integer(client: TestClient, deal: object, expected: str) -> None:
    state = new_game(client, deal)
    assert state["deal"] == expected
    first = Position.deal(int(expected)).first
    assert [c["id"] for c in state["first"]] == [int(c) for c in first]


def test_no_deal_means_a_random_one(client: TestClient) -> None:
    deals = {new_game(client, None)["deal"] for _ in range(3)}
    assert len(deals) == 3 and all(0 <= int(d) <= MAX_DEAL for d in deals)
    r = client.post("/api/games")  # no body at all
    assert r.status_code == 201 and r.json()["variant"]["token"] == "r3"


@pytest.mark.parametrize(("variant", "token"), [
    ({"redeals": None, "waste_playable": True, "privileged_last": False}, "ruwn"),
    ({"redeals": 0}, "r0"), ({"redeals": 1000}, "r1000"), ({"waste_playable": True}, "r3w"),
    ("r5n", "r5n"), ("ru", "ru"),
    # A State's variant, sent back as it came (answer-only fields tolerated).
    ({"redeals": 2, "waste_playable": False, "privileged_last": True, "token": "r2", "description": "x"}, "r2"),
])
def test_variants(client: TestClient, variant: object, token: str) -> None:
    state = new_game(client, "9", variant)
    assert state["variant"]["token"] == token
    assert state["redeals_left"] == Variant.from_token(token).redeals


@pytest.mark.parametrize("body", [
    {"deal": -1}, {"deal": MAX_DEAL + 1}, {"deal": str(MAX_DEAL + 1)}, {"deal": "abc"}, {"deal": "12a"},
    {"deal": " 12"}, {"deal": "12 "}, {"deal": "1_000"}, {"deal": "1,000"}, {"deal": "1 000"},
    {"deal": "-1"}, {"deal": "1" * 21}, {"deal": "١٢"}, {"deal": True}, {"deal": 1.5},
    {"deal": []}, {"deal": {}}, {"deal": "1", "colour": "red"},
    {"variant": {"redeals": -1}}, {"variant": {"redeals": 1001}}, {"variant": {"redeals": True}},
    {"variant": {"redeals": "3"}}, {"variant": {"redeals": 2.5}}, {"variant": {"waste_playable": "yes"}},
    {"variant": {"waste_playable": 1}}, {"variant": {"privileged_last": None}}, {"variant": {"redeal": 3}},
    {"variant": "zz"}, {"variant": "r1001"}, {"variant": 5}, {"variant": []},
])
def test_bad_new_game_is_refused_and_creates_nothing(client: TestClient, store: GameStore, body: object) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert isinstance(r.json()["error"], str) and r.json()["error"]
    assert read(store).games() == []


@pytest.mark.parametrize(("content", "status"), [
    (b"{", 400), (b"[1, 2]", 400), (b'"deal"', 400), (b"null", 400), (b"\xff\xfe\x00", 400),
    (b"[" * 50_000, 400),  # nested past the parser's recursion limit
    (b'{"deal": 1' + b" " * (64 * 1024) + b"}", 413),
])
def test_malformed_bodies(client: TestClient, store: GameStore, content: bytes, status: int) -> None:
    r = client.post("/api/games", content=content, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert "error" in r.json()
    assert read(store).games() == []


def test_oversized_body_without_content_length_is_refused(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"move": "turn", "pad": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    gid = new_game(client)["id"]
    r = client.post(f"/api/games/{gid}/moves", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.get(f"/api/games/{gid}").json()["moves"] == 0


# ---------------------------------------------------------------------------- moves
def test_a_move_answers_the_movements_in_order(client: TestClient, store: GameStore) -> None:
    state = new_game(client, str(PLAY_FIRST_DEAL))
    gid = state["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": "R3"})
    assert r.status_code == 200, r.text
    result = r.json()
    expected_pos, movements = Position.deal(PLAY_FIRST_DEAL).apply(Game(PLAY_FIRST_DEAL).position.legal_moves()[0])
    assert result["move"] == "R3"
    assert [(m["card"]["id"], m["from"], m["to"], m["face_up"]) for m in result["movements"]] == [
        (int(m.card), m.source, m.target, m.face_up) for m in movements
    ]
    assert result["movements"][0]["from"] == "R3" and result["movements"][0]["to"] == "P1"
    assert result["state"]["moves"] == 1 and result["state"]["score"] == expected_pos.score
    # Committed before the answer: the store already has it.
    assert [str(m) for m in read(store).load(gid).game.moves] == ["R3"]


@pytest.mark.parametrize(("move", "status", "rule"), [
    ("turn", 409, "R9"), ("redeal", 409, "R9"), ("waste", 409, "R6"), ("F1", 409, "R5"),
    ("F2", 409, "R8"), ("R1", 409, "R4"), ("R9", 422, None), ("xyz", 422, None), ("", 422, None),
    ("r1", 422, None), ("t", 422, None),  # the declared moves only: no other case, no one-letter forms
    ("W", 422, None),  # the waste's old name is read from old records alone (engine.position.MOVE_WORDS)
])
def test_illegal_and_invalid_moves_change_nothing(
    client: TestClient, store: GameStore, move: str, status: int, rule: str | None
) -> None:
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    before = client.get(f"/api/games/{gid}").json()
    rows = game_rows(store)
    r = client.post(f"/api/games/{gid}/moves", json={"move": move})
    assert r.status_code == status, r.text
    assert r.json().get("rule") == rule
    assert r.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == before
    assert game_rows(store) == rows
    if status == 409:
        # The state told the page this very refusal beforehand (it explains a refused
        # click without a request that the browser would log as failed).
        assert before["refusals"][str(Move.parse(move))] == r.json()


@pytest.mark.parametrize("body", [
    {}, {"move": None}, {"move": 3}, {"move": ["R3"]}, {"move": "R3", "also": "F8"}, {"moves": "R3"},
    {"move": "R3" * 20},
])
def test_bad_move_bodies(client: TestClient, store: GameStore, body: object) -> None:
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    rows = game_rows(store)
    r = client.post(f"/api/games/{gid}/moves", json=body)
    assert r.status_code == 422, r.text
    assert game_rows(store) == rows


#: The table's moves as the engine writes them.
MOVE_TEXTS = list(TABLE_MOVES)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deal=st.integers(0, MAX_DEAL), variant=st.sampled_from(["r3", "r0", "ruw", "r1n"]),
       actions=st.lists(st.sampled_from([*MOVE_TEXTS, "hint", "hint", "hint", "undo", "redo"]), max_size=15))
def test_the_server_follows_the_engine(client: TestClient, deal: int, variant: str, actions: list[str]) -> None:
    """Whatever is asked, the server's game is the engine's: accepted exactly when the
    engine accepts, refused (4xx) without a trace otherwise."""
    state = new_game(client, deal, variant)
    gid = state["id"]
    game = Game(deal, Variant.from_token(variant))
    for action in actions:
        if action == "undo":
            r = client.post(f"/api/games/{gid}/undo")
            assert r.status_code == (200 if game.can_undo else 409)
            if game.can_undo:
                game.undo()
        elif action == "redo":
            r = client.post(f"/api/games/{gid}/redo")
            assert r.status_code == (200 if game.can_redo else 409)
            if game.can_redo:
                game.redo()
        else:
            move = state["hint"] if action == "hint" else action
            if move is None:
                continue
            legal = move in [str(m) for m in game.position.legal_moves()]
            r = client.post(f"/api/games/{gid}/moves", json={"move": move})
            assert r.status_code == (200 if legal else 409), (move, r.text)
            if legal:
                game.push(move)
            else:
                assert r.json()["rule"]
        state = client.get(f"/api/games/{gid}").json()
        # Every table move is either legal or comes with the engine's refusal.
        legal_now = [str(m) for m in game.position.legal_moves()]
        assert sorted(state["refusals"]) == sorted(m for m in MOVE_TEXTS if m not in legal_now)
        assert state["moves"] == len(game) and state["score"] == game.position.score
        assert state["legal_moves"] == [str(m) for m in game.position.legal_moves()]
        assert [c and c["id"] for c in state["reserve"]] == [c if c is None else int(c) for c in game.position.reserve]
        assert state["stock_count"] == len(game.position.stock)


def test_step_plays_the_forced_line_to_the_end(client: TestClient, store: GameStore) -> None:
    gid = new_game(client, str(LOST_DEAL), "r0")["id"]  # 89 moves to the end
    reference = Game(LOST_DEAL, Variant(redeals=0))
    steps = reference.autoplay()
    for step in steps:
        r = client.post(f"/api/games/{gid}/step")
        assert r.status_code == 200
        assert r.json()["move"] == str(step.move)
    state = r.json()["state"]
    assert state["status"] == "lost" and state["score"] == reference.position.score
    assert state["legal_moves"] == [] and state["hint"] is None and state["need"] is not None
    r = client.post(f"/api/games/{gid}/step")
    assert r.status_code == 409 and r.json()["rule"] == "R11"
    r = client.post(f"/api/games/{gid}/moves", json={"move": "turn"})
    assert r.status_code == 409 and r.json()["rule"] == "R11"
    assert read(store).games()[0].status == "lost" and read(store).games()[0].finished is not None


def test_undo_redo_restart(client: TestClient, store: GameStore) -> None:
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    assert client.post(f"/api/games/{gid}/redo").status_code == 409
    results = [client.post(f"/api/games/{gid}/step").json() for _ in range(4)]
    r = client.post(f"/api/games/{gid}/undo")
    assert r.status_code == 200
    undone = r.json()
    last = results[-1]
    assert undone["move"] == last["move"]
    # The movements that take the cards back, last first.
    assert [(m["from"], m["to"], m["card"]["id"]) for m in undone["movements"]] == [
        (m["to"], m["from"], m["card"]["id"]) for m in reversed(last["movements"])
    ]
    assert undone["state"] == {**results[-2]["state"], "can_redo": True, "updated": undone["state"]["updated"],
                               "finished": None, "version": 5}
    r = client.post(f"/api/games/{gid}/redo")
    assert r.status_code == 200 and r.json()["move"] == last["move"]
    assert r.json()["movements"] == last["movements"]
    assert r.json()["state"]["can_redo"] is False and r.json()["state"]["moves"] == 4
    r = client.post(f"/api/games/{gid}/restart")
    # Restart takes every move back, last first, with the movements that put the cards back.
    assert r.status_code == 200 and r.json()["steps"] == [x["move"] for x in reversed(results)]
    assert r.json()["movements"] == [m for x in reversed(results) for m in reversed(
        [{**mv, "from": mv["to"], "to": mv["from"], "face_up": mv["from"] != "stock"} for mv in x["movements"]])]
    assert r.json()["new_game"] is False
    fresh = r.json()["state"]
    assert fresh["moves"] == 0 and fresh["can_redo"] and not fresh["can_undo"]
    assert fresh["first"] == new_game(client, str(PLAY_FIRST_DEAL))["first"]
    # The redo line survives a reload (it is stored).
    assert [str(m) for m in read(store).load(gid).game.redo_moves] == [x["move"] for x in results]
    for x in results:
        assert client.post(f"/api/games/{gid}/redo").json()["move"] == x["move"]


def test_other_players_games_are_404_like_unknown_ones(clients: Callable[..., TestClient], store: GameStore) -> None:
    alice, bob = clients(), clients()
    gid = new_game(alice)["id"]
    new_game(bob)  # bob is a known player too
    rows = game_rows(store)
    for who in (bob, clients()):  # another player; a browser with no player at all
        for method, path in [
            ("GET", f"/api/games/{gid}"), ("POST", f"/api/games/{gid}/step"), ("POST", f"/api/games/{gid}/undo"),
            ("POST", f"/api/games/{gid}/redo"), ("POST", f"/api/games/{gid}/restart"),
            ("GET", f"/api/games/{gid}/record"), ("GET", f"/api/games/{gid}/chance"),
            ("GET", f"/api/games/{gid}/replay"),
        ]:
            r = who.request(method, path)
            assert r.status_code == 404, (method, path)
            assert r.json()["error"] == "no such game" and r.json()["code"] == "game.unknown"
        r = who.post(f"/api/games/{gid}/moves", json={"move": "turn"})
        assert r.status_code == 404
        assert gid not in {g["id"] for g in who.get("/api/games").json()["games"]}
    for bad in ("does-not-exist", "x" * 65, "a%20b", "%2e%2e"):
        assert alice.get(f"/api/games/{bad}").status_code == 404
        assert alice.post(f"/api/games/{bad}/step").status_code == 404
    assert game_rows(store) == rows


# ---------------------------------------------------------------------------- persistence and races
def test_resume_after_restart_of_the_server(clients: Callable[..., TestClient], store: GameStore,
                                            db_path: Path) -> None:
    first = clients()
    gid = new_game(first, str(PLAY_FIRST_DEAL))["id"]
    for _ in range(7):
        first.post(f"/api/games/{gid}/step")
    first.post(f"/api/games/{gid}/undo")
    before = first.get(f"/api/games/{gid}").json()
    pid = first.cookies[COOKIE]
    # A new process: a new store object and app on the same file; the browser keeps its cookie.
    second = clients(create_app(GameStore(db_path)))
    second.cookies.set(COOKIE, pid)
    assert second.get(f"/api/games/{gid}").json() == before
    assert second.get("/api/games/current").json() == before
    r = second.post(f"/api/games/{gid}/redo")
    assert r.status_code == 200 and r.json()["state"]["moves"] == 7


def test_a_game_changed_by_the_terminal_is_decided_on_the_stored_state(client: TestClient, store: GameStore) -> None:
    # Deal 6 starts R4 R5 R6: the server caches the game after R4, then the "terminal
    # game" (another process: the store directly) plays R5 behind its back.
    gid = new_game(client, "6")["id"]
    assert client.post(f"/api/games/{gid}/moves", json={"move": "R4"}).status_code == 200
    terminal = read(store).load(gid)
    terminal.game.push("R5")
    with store.transaction() as tx:
        tx.save(terminal)
    reference = Game(6, moves=["R4", "R5"])
    stale = Game(6, moves=["R4"])
    assert "R6" not in map(str, stale.position.legal_moves()) and "R6" in map(str, reference.position.legal_moves())
    r = client.post(f"/api/games/{gid}/moves", json={"move": "R5"})  # legal only in the stale game
    assert r.status_code == 409
    r = client.post(f"/api/games/{gid}/moves", json={"move": "R6"})  # legal only in the stored game
    assert r.status_code == 200 and r.json()["state"]["moves"] == 3
    assert [str(m) for m in read(store).load(gid).game.moves] == ["R4", "R5", "R6"]
    # Same for "nothing to do": the cache says no moves, the store has one.
    client.post(f"/api/games/{gid}/restart")
    terminal = read(store).load(gid)
    terminal.game.push("R4")
    with store.transaction() as tx:
        tx.save(terminal)
    r = client.post(f"/api/games/{gid}/restart")
    assert r.status_code == 200 and r.json()["state"]["moves"] == 0
    assert read(store).load(gid).game.moves == ()


def test_current_game_is_the_one_on_the_table(client: TestClient, store: GameStore) -> None:
    r = client.get("/api/games/current")
    assert r.status_code == 204 and not r.content  # an empty table is no error
    older = new_game(client, "3")
    client.post(f"/api/games/{older['id']}/step")
    newer = new_game(client, "4")
    assert client.get("/api/games/current").json()["id"] == newer["id"]
    # Deal 3 was left unfinished for deal 4: abandoned, and listed for reopening.
    listed = {g["id"]: g for g in client.get("/api/games?status=unfinished").json()["games"]}
    assert listed[older["id"]]["abandoned"] is True and listed[newer["id"]]["abandoned"] is False
    assert [g["id"] for g in client.get("/api/games?status=abandoned").json()["games"]] == [older["id"]]
    # Acting on a game puts it back on the table; deal 4, never played, is let go.
    assert client.post(f"/api/games/{older['id']}/step").status_code == 200
    current = client.get("/api/games/current").json()
    assert current["id"] == older["id"] and current["abandoned"] is False and current["moves"] == 2
    assert newer["id"] not in {g.id for g in read(store).games()}
    # Reopening a game by id does the same.
    third = new_game(client, "5")
    assert client.post(f"/api/games/{older['id']}/open").json()["id"] == older["id"]
    assert client.get("/api/games/current").json()["id"] == older["id"]
    assert third["id"] not in {g.id for g in read(store).games()}
    assert client.post("/api/games/nope/open").status_code == 404
    # An imported record is kept beside the player's games; it goes on the table only when opened.
    imported = import_record(client, finished_record(WON_DEAL)).json()
    assert imported["origin"] == "imported"
    assert client.get("/api/games/current").json()["id"] == older["id"]
    assert client.post(f"/api/games/{imported['id']}/open").json()["id"] == imported["id"]
    assert client.get("/api/games/current").json()["id"] == imported["id"]
    assert read(store).load(older["id"]).abandoned is not None


@pytest.mark.parametrize(("how", "deal"), [("daily", None), ("winnable", None), ("random", None)])
def test_new_game_kinds(client: TestClient, how: str, deal: object) -> None:
    from firstlast.play import daily_deal
    from firstlast.play.deals import today

    r = client.post("/api/games", json={"how": how, "variant": "r3"})
    assert r.status_code == 201, r.text
    state = r.json()
    if how == "daily":
        assert state["deal"] == str(daily_deal(today()))
    if how == "winnable":
        game = Game(int(state["deal"]))
        game.autoplay()
        assert game.position.status == "won"
    again = client.post("/api/games", json={"how": "again"}).json()
    assert again["deal"] == state["deal"] and again["variant"]["token"] == "r3"
    following = client.post("/api/games", json={"how": "next"}).json()
    assert int(following["deal"]) == (int(state["deal"]) + 1) % (MAX_DEAL + 1)
    for bad in ({"how": "lucky"}, {"how": "number"}, {"how": "daily", "deal": "5"}, {"how": 3}):
        assert client.post("/api/games", json=bad).status_code == 422


def test_next_and_again_need_a_game_on_the_table(client: TestClient, store: GameStore) -> None:
    for how in ("next", "again"):
        r = client.post("/api/games", json={"how": how})
        assert r.status_code == 409 and r.json()["code"] == f"{how}.none"
    with store.transaction() as tx:  # refused: not even a player was stored
        assert tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 0


def test_a_stale_version_is_refused_and_changes_nothing(client: TestClient, store: GameStore) -> None:
    state = new_game(client, str(PLAY_FIRST_DEAL))
    gid, version = state["id"], state["version"]
    r = client.post(f"/api/games/{gid}/step", json={"version": version})
    assert r.status_code == 200 and r.json()["state"]["version"] == version + 1
    # Another window acted on the version we saw: refused, with the saved version.
    r = client.post(f"/api/games/{gid}/step", json={"version": version})
    assert r.status_code == 409 and r.json()["code"] == "game.changed"
    assert r.json()["params"]["version"] == version + 1
    assert len(read(store).load(gid).game) == 1
    for action in ("moves", "undo", "redo", "restart", "advance"):
        body: dict[str, object] = {"version": version}
        if action == "moves":
            body["move"] = "R3"
        r = client.post(f"/api/games/{gid}/{action}", json=body)
        assert r.status_code == 409 and r.json()["code"] == "game.changed", action
    assert len(read(store).load(gid).game) == 1
    for bad in (-1, "1", True, 1.5, 2**60):
        assert client.post(f"/api/games/{gid}/step", json={"version": bad}).status_code == 422


def test_advance_turns_until_a_card_fits(client: TestClient) -> None:
    gid = new_game(client, "1")["id"]  # deal 1: P1 needs a queen; nothing fits, so turn (R9)
    r = client.post(f"/api/games/{gid}/advance")
    assert r.status_code == 200
    body = r.json()
    reference = Game(1)
    for move in body["steps"]:
        assert reference.position.legal_moves()[0] == reference.position.forced_move()
        reference.push(move)
    assert set(body["steps"]) == {"turn"} and len(body["steps"]) > 1
    # It stopped where the last turned card went onto the pile, or where a card fits.
    assert body["movements"][-1]["to"].startswith("P") or any(
        m.kind != "turn" for m in reference.position.legal_moves())
    assert body["state"]["moves"] == len(body["steps"])


def _race(posters: list[Callable[[], httpx.Response]], rounds: int) -> list[httpx.Response]:
    answers: list[httpx.Response] = []
    lock = threading.Lock()
    go = threading.Barrier(len(posters))

    def run(post: Callable[[], httpx.Response]) -> None:
        go.wait()
        for _ in range(rounds):
            r = post()
            with lock:
                answers.append(r)

    threads = [threading.Thread(target=run, args=(p,)) for p in posters]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return answers


def _check_race(answers: list[httpx.Response], store: GameStore, gid: str, deal: int) -> None:
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers if r.status_code != 200]
    # Every answer saw its own move: the move counts are exactly 1..N, none lost or doubled.
    assert sorted(r.json()["state"]["moves"] for r in answers) == list(range(1, len(answers) + 1))
    stored = read(store).load(gid).game
    reference = Game(deal)
    reference.autoplay()
    assert stored.moves == reference.moves[:len(answers)]


def test_two_threads_racing_on_one_game(client: TestClient, store: GameStore) -> None:
    gid = new_game(client, str(WON_DEAL))["id"]
    answers = _race([lambda: client.post(f"/api/games/{gid}/step")] * 2, rounds=40)
    _check_race(answers, store, gid, WON_DEAL)


def test_two_servers_racing_on_one_game(clients: Callable[..., TestClient], store: GameStore,
                                        db_path: Path) -> None:
    # Two apps share no lock and no writer: each move is decided on the game as stored,
    # read inside its own write transaction (SQLite's write lock, play/writer.py), so
    # every move of both gets through, none lost or doubled, none refused.
    one = clients()
    gid = new_game(one, str(WON_DEAL))["id"]
    other = clients(create_app(GameStore(db_path)))
    other.cookies.set(COOKIE, one.cookies[COOKIE])
    answers = _race([lambda: one.post(f"/api/games/{gid}/step"), lambda: other.post(f"/api/games/{gid}/step")],
                    rounds=30)
    _check_race(answers, store, gid, WON_DEAL)


def test_replay_gives_the_deal_and_every_movement(client: TestClient) -> None:
    r = import_record(client, finished_record(LOST_DEAL, Variant(redeals=1)))
    gid = r.json()["id"]
    final = client.get(f"/api/games/{gid}").json()
    replay = client.get(f"/api/games/{gid}/replay").json()
    initial = replay["initial"]
    assert set(initial) >= STATE_KEYS and initial["id"] == gid and initial["deal"] == str(LOST_DEAL)
    assert (initial["moves"], initial["score"], initial["can_undo"], initial["status"]) == (0, 0, False, "playing")
    pos = Position.deal(LOST_DEAL, Variant(redeals=1))
    assert [c["id"] for c in initial["reserve"]] == [int(c) for c in pos.reserve]
    assert not {int(c) for c in pos.stock} & set(card_ids(initial))
    reference = Game(LOST_DEAL, Variant(redeals=1))
    steps = reference.autoplay()
    assert [s["move"] for s in replay["steps"]] == [str(s.move) for s in steps]
    assert len(replay["steps"]) == final["moves"] and "redeal" in [s["move"] for s in replay["steps"]]
    # Following the movements from the deal gives the final table.
    places: dict[int, str] = {int(c): f"F{i + 1}" for i, c in enumerate(pos.first)}
    places |= {int(c): f"R{i + 1}" for i, c in enumerate(pos.reserve)}
    for step in replay["steps"]:
        for m in step["movements"]:
            assert places.get(m["card"]["id"], "stock") == m["from"]
            places[m["card"]["id"]] = m["to"]
    for k, pile in enumerate(final["piles"]):
        assert {c["id"] for c in pile} == {cid for cid, p in places.items() if p == f"P{k + 1}"}
    # Each step carries the engine's facts after it, so the page replays without rules of its own.
    for step, after in zip(replay["steps"], reference.positions[1:], strict=True):
        facts = step["facts"]
        assert (facts["status"], facts["score"], facts["passes"], facts["active"], facts["need"]) == (
            after.status, after.score, after.passes, after.active, after.need)
        assert facts["privileged"] == ("F8" if after.privileged is not None else None)
    assert replay["steps"][-1]["facts"]["status"] == final["status"] == "lost"


# ---------------------------------------------------------------------------- records
def test_record_export_import_round_trip(clients: Callable[..., TestClient], store: GameStore) -> None:
    alice = clients()
    gid = new_game(alice, str(PLAY_FIRST_DEAL), {"redeals": 1, "waste_playable": True})["id"]
    for _ in range(25):
        alice.post(f"/api/games/{gid}/step")
    r = alice.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert "attachment" in r.headers["content-disposition"]
    text = r.text
    assert '[Deal "0"]' in text and '[Redeals "1"]' in text and '[WastePlayable "yes"]' in text
    bob = clients()
    # As text (what a cross-site form could send), it is refused; as JSON, imported.
    r = bob.post("/api/games/import", content=text.encode(), headers={"content-type": "text/plain"})
    assert r.status_code == 415 and read(store).games(player_of(bob.cookies.get(COOKIE) or "nobody")) == []
    r = import_record(bob, "\ufeff" + text)  # a byte-order mark, as read from a file, is fine
    assert r.status_code == 201, r.text
    imported = r.json()
    original = alice.get(f"/api/games/{gid}").json()
    assert imported["id"] != gid
    same = {k for k in STATE_KEYS if k not in ("id", "can_redo")}
    assert {k: imported[k] for k in same} == {k: original[k] for k in same}
    assert bob.get(f"/api/games/{imported['id']}/record").text.split("\n")[3:] == text.split("\n")[3:]
    assert read(store).load(imported["id"]).player == player_of(bob.cookies[COOKIE])


def test_bad_records_are_refused_naming_the_line(client: TestClient, store: GameStore) -> None:
    game = Game(PLAY_FIRST_DEAL)
    for _ in range(30):
        game.step()
    lines = record_to_text(game).split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("21. "))
    lines[at] = lines[at].replace("21. ", "21. redeal ", 1)
    r = import_record(client, "\n".join(lines))
    assert r.status_code == 422
    assert r.json()["line"] == at + 1 and "line" in r.json()["error"]
    # A move the rules refuse: said in words, with where it stands (record.move).
    body = r.json()
    assert body["code"] == "record.move" and body["params"]["refusal"] == "R10.stock_left"
    assert body["text"] == body["error"] and f"line {at + 1}: move " in body["error"]
    assert body["error"].endswith("(redeal): redeal only when the stock is empty (R10)"), body["error"]
    odd_digit = record_to_text(Game(12)).replace('[Deal "12"]', '[Deal "\u00b2"]')  # isdigit, not int
    for content in ("hello", "\ufffd garbage", "", "   \n", '[Format "other 2"]\n\n1. turn\n', odd_digit):
        r = import_record(client, content)
        assert r.status_code == 422, content
        assert r.json()["error"] and r.json()["code"] in ("record.invalid", "record.empty")
    for body in ({}, {"record": 5}, {"record": None}, {"record": "x", "more": 1}):
        assert client.post("/api/games/import", json=body).status_code == 422
    r = import_record(client, "x" * (2 * 1024 * 1024 + 1))
    assert r.status_code == 413
    assert read(store).games() == []
    # A record just under the body limit is read, and refused for its length (1 Mi characters at most).
    r = import_record(client, "x" * (1024 * 1024 + 10))
    assert r.status_code == 422 and "too long" in r.json()["error"]


# ---------------------------------------------------------------------------- lists, stats, settings
def test_stats_policy(client: TestClient, store: GameStore) -> None:
    assert client.get("/api/stats").json() == {"variants": []}

    def finish(deal: int, variant: str = "r3") -> str:
        gid = new_game(client, str(deal), variant)["id"]
        r = client.post(f"/api/games/{gid}/step", json={"n": 100_000})
        assert r.status_code == 200 and r.json()["state"]["status"] != "playing"
        return gid

    won, lost = finish(WON_DEAL), finish(LOST_DEAL)
    r = client.post(f"/api/games/{won}/step")
    assert r.status_code == 409 and r.json()["rule"] == "R11"
    # An imported record is someone else's game: kept, listed, not counted.
    assert import_record(client, finished_record(10)).status_code == 201
    # Undoing the end does not erase the result; restarting a finished game opens a new attempt.
    assert client.post(f"/api/games/{lost}/undo").json()["state"]["status"] == "playing"
    r = client.post(f"/api/games/{lost}/restart")
    assert r.json()["new_game"] is True and r.json()["state"]["id"] != lost and r.json()["state"]["moves"] == 0
    assert read(store).load(lost).result == "lost"
    # Left with moves made for another game: abandoned.
    attempt = r.json()["state"]["id"]
    client.post(f"/api/games/{attempt}/step")
    r0 = finish(LOST_DEAL, "r0")
    stats = {s["variant"]: s for s in client.get("/api/stats").json()["variants"]}
    assert set(stats) == {"r3", "r0"}
    r3 = stats["r3"]
    assert (r3["played"], r3["won"], r3["lost"], r3["abandoned"]) == (2, 1, 1, 1)
    assert (r3["current_streak"], r3["best_streak"]) == (0, 1)  # the abandoned attempt broke no win streak
    assert r3["win_rate"] == pytest.approx(1 / 2)
    assert r3["score_histogram"][104] == 1 and r3["score_histogram"][52] == 1
    assert stats["r0"]["played"] == 1 and stats["r0"]["won"] == 0 and stats["r0"]["score_histogram"][4] == 1
    finished = client.get("/api/games?status=finished").json()["games"]
    assert {won, r0} <= {g["id"] for g in finished}
    assert all(g["finished"] for g in finished)
    assert {g["status"] for g in client.get("/api/games?status=won").json()["games"]} == {"won"}
    assert len(client.get("/api/games?limit=2").json()["games"]) == 2
    for query in ("status=done", "limit=0", "limit=x", "limit=1001", "limit=²", "limit=٣", "limit=" + "9" * 5000):
        assert client.get(f"/api/games?{query}").status_code == 422


def test_settings_follow_one_schema(clients: Callable[..., TestClient], store: GameStore) -> None:
    c = clients()
    defaults = Settings().to_json()  # the one declaration (play/settings.py)
    assert defaults["verbosity"] == "full" and defaults["felt"] == "green" and defaults["sound"] is False
    assert c.get("/api/settings").json() == defaults
    r = c.put("/api/settings", json={"lang": "ru", "speed": 3, "variant": "r0w"})
    assert r.status_code == 200 and r.json() == {**defaults, "lang": "ru", "speed": 3, "variant": "r0w"}
    assert "HttpOnly" in r.headers["set-cookie"]
    r = c.put("/api/settings", json={"speed": 0, "lang": None})  # partial update; null restores the default
    assert r.json() == {**defaults, "speed": 0, "variant": "r0w"}
    assert c.get("/api/settings").json() == r.json()
    # New games take the variant of the settings.
    assert new_game(c, "5")["variant"]["token"] == "r0w"
    assert clients().get("/api/settings").json() == defaults
    players = store.transaction
    for body in ({"lang": "de"}, {"speed": 4}, {"speed": -1}, {"speed": True}, {"speed": "1"},
                 {"theme": "dark"}, {"variant": "zz"}, {"variant": "r1001"}, {"variant": 3},
                 {"show_chance": "yes"}, {"verbosity": "loud"}, {"Bad-Key": 1}, {"felt": "pink"},
                 {"volume": 101}, {"four_colour": 1}, {"layout": "left"}, {"show_playable": 1}, {"tour_seen": "no"}):
        r = c.put("/api/settings", json=body)
        assert r.status_code == 422, body
        assert r.json()["code"].startswith(("settings.", "variant."))
        # A refused change from a new visitor stores no player either.
        refused = clients().put("/api/settings", json=body)
        assert refused.status_code == 422 and "set-cookie" not in refused.headers
    with players() as tx:
        assert tx.db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 1
    assert c.put("/api/settings", content=b"[]", headers={"content-type": "application/json"}).status_code == 400
    assert c.put("/api/settings", content=b"{}").status_code == 415  # JSON must say so
    assert c.get("/api/settings").json() == {**defaults, "speed": 0, "variant": "r0w"}


# ---------------------------------------------------------------------------- odds
@pytest.fixture
def fake_odds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """Stand-in for firstlast.odds.live (tests the endpoint's plumbing, not the odds)."""
    calls: list[tuple[str, int, int]] = []

    def estimate(wins: int, samples: int) -> object:
        return types.SimpleNamespace(probability=wins / samples, low=0.2, high=0.3, samples=samples, wins=wins,
                                     certain=False, merge=lambda o: estimate(wins + o.wins, samples + o.samples))

    def chance_to_come_out(position: Position, samples: int = 10_000, seed: int = 0) -> object:
        calls.append((str(position), samples, seed))
        return estimate(samples // 4, samples)

    def refine_seed(position: Position, round: int) -> int:
        return 1000 + round

    package = types.ModuleType("firstlast.odds")
    live = types.ModuleType("firstlast.odds.live")
    live.chance_to_come_out = chance_to_come_out  # type: ignore[attr-defined]
    live.refine_seed = refine_seed  # type: ignore[attr-defined]
    fastline = types.ModuleType("firstlast.odds.fastline")
    fastline.available = lambda: True  # type: ignore[attr-defined]
    package.fastline = fastline  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "firstlast.odds", package)
    monkeypatch.setitem(sys.modules, "firstlast.odds.live", live)
    monkeypatch.setitem(sys.modules, "firstlast.odds.fastline", fastline)
    return calls


def test_chance_endpoint(client: TestClient, fake_odds: list[tuple[str, int, int]]) -> None:
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    r = client.get(f"/api/games/{gid}/chance")
    assert r.status_code == 200
    # The play layer's policy (play.chance): 20,000 samples a round, the next round named.
    assert r.json() == {"probability": 0.25, "low": 0.2, "high": 0.3, "samples": 20_000, "wins": 5000,
                        "certain": False, "round": 0, "text": "20–30\u00a0%",
                        "pooled": {"probability": 0.25, "low": 0.2, "high": 0.3, "samples": 20_000, "wins": 5000,
                                   "rounds": 1, "text": "20–30\u00a0%", "short": "20–30\u00a0%"},
                        "next_round": 1}
    assert fake_odds == [(str(Position.deal(PLAY_FIRST_DEAL)), 20_000, 1000)]  # round 0's seed
    assert client.get(f"/api/games/{gid}/chance?samples=100").json()["samples"] == 100
    client.get(f"/api/games/{gid}/chance")  # same position, same samples: answered from the cache
    assert len(fake_odds) == 2
    r = client.get(f"/api/games/{gid}/chance?round=3")
    assert r.json()["round"] == 3 and r.json()["next_round"] == 4, r.text
    # Rounds 1–3, each its own seed; round 0 still held: rounds 0–3 pooled, at 20,000 samples each.
    assert [c[1:] for c in fake_odds[2:]] == [(20_000, 1001), (20_000, 1002), (20_000, 1003)]
    assert {k: r.json()["pooled"][k] for k in ("samples", "wins", "rounds")} == {
        "samples": 80_000, "wins": 20_000, "rounds": 4}
    # The policy's last round (MAX_ROUNDS − 1, the contract's bound): answered, and no
    # round is named next.
    r = client.get(f"/api/games/{gid}/chance?round=19")
    assert r.json()["round"] == 19 and r.json()["pooled"]["rounds"] == 20 and r.json()["next_round"] is None
    assert fake_odds[-1][2] == 1019 and len(fake_odds) == 21
    # Past the bounds (issue 25.2: a request stays near a second of CPU): refused, nothing sampled.
    for bad in ("99", "20001", "100001", "x", "-5", "9e1", "150.5", "1_000", " 200", "٢٠٠", "9" * 30, ""):
        assert client.get(f"/api/games/{gid}/chance?samples={bad}").status_code == 422
    for bad in ("20", "63", "-1", "x", "1.5", "1e400", ""):
        r = client.get(f"/api/games/{gid}/chance?round={bad}")
        assert r.status_code == 422 and r.json()["code"] == "request.value", bad
        assert r.json()["params"]["field"] == "round"
    assert len(fake_odds) == 21
    # A finished game's chance is known without sampling.
    r = import_record(client, finished_record(LOST_DEAL))
    assert client.get(f"/api/games/{r.json()['id']}/chance").json() == {
        "probability": 0.0, "low": 0.0, "high": 0.0, "samples": 0, "wins": 0, "certain": True, "round": 0,
        "text": "0\u00a0%", "pooled": {"probability": 0.0, "low": 0.0, "high": 0.0, "samples": 0, "wins": 0,
                                       "rounds": 1, "text": "0\u00a0%", "short": "0\u00a0%"}, "next_round": None}
    assert len(fake_odds) == 21


def test_where_the_engine_samples_alone_a_request_computes_one_round(
        client: TestClient, fake_odds: list[tuple[str, int, int]]) -> None:
    """Issue 25.2: without the fast forced line a round is the engine's 200 samples,
    about half a second of CPU; a request for round 19 from cold computes round 0 alone
    and says so (round 0, next 1), and each later request one more round."""
    sys.modules["firstlast.odds.fastline"].available = lambda: False  # type: ignore[attr-defined]
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    r = client.get(f"/api/games/{gid}/chance?round=19").json()
    assert (r["round"], r["next_round"], r["pooled"]["rounds"], r["samples"]) == (0, 1, 1, 200)
    assert [c[1:] for c in fake_odds] == [(200, 1000)]
    r = client.get(f"/api/games/{gid}/chance?round=19").json()
    assert (r["round"], r["next_round"], r["pooled"]["rounds"]) == (1, 2, 2)
    assert len(fake_odds) == 2
    r = client.get(f"/api/games/{gid}/chance?round=1").json()  # held: answered as asked, nothing sampled
    assert (r["round"], r["pooled"]["rounds"]) == (1, 2) and len(fake_odds) == 2


def test_chance_without_the_odds_module_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "firstlast.odds.live", None)  # makes the import fail
    gid = new_game(client)["id"]
    r = client.get(f"/api/games/{gid}/chance?samples=100")
    assert r.status_code == 503 and "not available" in r.json()["error"]


def test_chance_with_the_real_odds_kernel(client: TestClient) -> None:
    # Needs firstlast.odds.live (the odds work); the first call may compile with numba.
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    r = client.get(f"/api/games/{gid}/chance?samples=500")
    assert r.status_code == 200, r.text
    est = r.json()
    assert est["samples"] == 500
    assert 0.0 <= est["low"] <= est["probability"] <= est["high"] <= 1.0


# ---------------------------------------------------------------------------- robustness
def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    # Every refusal has the declared Error shape, Starlette's own 404 and 405 too.
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "not found", "code": "request.not_found", "params": {},
                                                  "text": "not found"}
    r = client.delete("/api/games", headers={"accept-language": "ru"})
    assert r.status_code == 405 and r.json() == {"error": "method not allowed", "code": "request.method",
                                                  "params": {}, "text": "такой метод не допускается"}
    assert client.get("/api/games").headers["cache-control"] == "no-store"
    assert client.get("/static/../store.py").status_code == 404
    assert client.get("/static/%2e%2e/app.py").status_code == 404


def test_a_month_before_the_calendar_is_said_as_past(client: TestClient) -> None:
    """A tester: 1899-12 was "no deal of the day for 1899-12 yet", as if it were to come."""
    r = client.get("/api/calendar", params={"month": "1899-12"}, headers={"accept-language": "ru"})
    assert r.status_code == 409 and r.json()["code"] == "daily.before", r.text
    assert r.json()["text"] == "для 1899-12 нет расклада дня: календарь начинается с 1900-01-01"
    r = client.get("/api/calendar", params={"month": "1899-12"})
    assert r.json()["text"] == "there is no deal of the day for 1899-12: the calendar begins on 1900-01-01"


def test_no_junk_makes_a_server_error(client: TestClient, store: GameStore) -> None:
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    junk = [b"", b"{", b"null", b"[]", b'"x"', b"1e999", b'{"move": null}', b"\xff\xfe", b'{"move": "\\ud800"}',
            b'{"deal": 1e400}', b'{"deal": ' + b"9" * 5000 + b"}", b'{"variant": {"redeals": ' + b"9" * 5000 + b"}}",
            b"{" + b'"a":1,' * 5000 + b'"b":2}', json.dumps({"move": "R3\x00"}).encode()]
    client.post(f"/api/games/{gid}/step")  # played: a junk-free new game would abandon it, not delete it

    def row() -> tuple[str, str]:
        return next((r[0], r[1]) for r in game_rows(store) if r[0] == gid)

    before = row()
    for path in (f"/api/games/{gid}/moves", "/api/games", "/api/games/import", "/api/settings"):
        for body in junk:
            method = "PUT" if path == "/api/settings" else "POST"
            r = client.request(method, path, content=body, headers={"content-type": "application/json"})
            assert r.status_code < 500, (path, body[:40], r.text)
            if r.status_code >= 400:
                assert r.json()["error"]
    assert row() == before  # not one junk move got through
    # The actions take an optional JSON body ({"version": N}); junk is refused, never a 5xx.
    for action in ("step", "undo", "redo", "restart", "advance", "open"):
        for body in junk:
            r = client.post(f"/api/games/{gid}/{action}", content=body, headers={"content-type": "application/json"})
            assert r.status_code in (200, 400, 409, 413, 422), (action, body[:40], r.text)


# ---------------------------------------------------------------------------- the real server
@pytest.mark.timeout(60)
def test_firstlast_play_serves_on_loopback_and_stops_on_sigint(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite3"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "BROWSER": "false"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "firstlast.cli.main", "play", "--no-browser", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        lines = []
        url = None
        while url is None:
            line = proc.stdout.readline()
            assert line, "server exited early:\n" + "".join(lines)
            lines.append(line)
            m = re.search(r"(http://127\.0\.0\.1:(\d+)/)(\S*)", line)
            url, printed = (m.group(1), m.group(0)) if m else (None, None)
        assert int(url.rsplit(":", 1)[1].strip("/")) > 0
        # One address, the one that signs in as the local player (issue 26).
        local = PlayService(GameStore(db)).local_player()
        assert printed == f"{url}?player={local}"
        with httpx.Client(base_url=url, timeout=10) as http:
            assert http.get("/api/games").json() == {"games": []}
            r = http.get(f"/?player={local}", follow_redirects=False, headers=TYPED)
            port = int(url.rsplit(":", 1)[1].strip("/"))
            assert r.status_code == 303 and player_of(http.cookies[f"fl_player_{port}"]) == local
            state = http.post("/api/games", json={"deal": "42"}).json()
            assert http.post(f"/api/games/{state['id']}/step").status_code == 200
            # Committed before the answer: another process sees it while the server runs.
            assert [g.moves for g in read(GameStore(db)).games(local)] == [1]
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0, out
        assert "Stopped." in out and "Traceback" not in out
        assert [g.moves for g in read(GameStore(db)).games(local)] == [1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_state_says_what_leaving_the_game_would_do(client: TestClient) -> None:
    """``leaving`` is the play layer's policy (``play.leaving``), which the page asks
    before it starts another game: it never works it out itself."""
    state = new_game(client, str(PLAY_FIRST_DEAL))
    assert state["leaving"] == "delete"  # dealt, never played
    state = client.post(f"/api/games/{state['id']}/step").json()["state"]
    assert state["leaving"] == "abandon"
    state = client.post(f"/api/games/{state['id']}/step", json={"n": 100_000}).json()["state"]
    assert state["status"] != "playing" and state["leaving"] == "keep"  # its result is kept
    assert client.post(f"/api/games/{state['id']}/undo").json()["state"]["leaving"] == "keep"


def test_a_bad_version_beside_a_good_move_is_refused_as_the_version(client: TestClient) -> None:
    """(issue: a bad version with a good move was refused as a bad *move*.)"""
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    for bad in (-1, "3", 1.5, 2**70):
        r = client.post(f"/api/games/{gid}/moves", json={"move": "turn", "version": bad})
        assert r.status_code == 422 and r.json()["code"] == "request.value", (bad, r.json())
        assert r.json()["params"]["field"] == "version"
    # A bad move is still said as one.
    r = client.post(f"/api/games/{gid}/moves", json={"move": "Q9", "version": 0})
    assert r.status_code == 422 and r.json()["code"] == "move.invalid"


def test_integers_past_64_bits_are_range_errors_not_bad_json(client: TestClient) -> None:
    """A 5,000-digit number is valid JSON: it is out of its field's range (issue: it was
    answered 400, "not valid JSON")."""
    huge = "9" * 5000
    r = client.post("/api/games", content=f'{{"deal": {huge}}}', headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["code"] == "deal.range", r.json()
    gid = new_game(client, str(PLAY_FIRST_DEAL))["id"]
    r = client.post(f"/api/games/{gid}/moves", content=f'{{"move": "turn", "version": -{huge}}}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["params"]["field"] == "version", r.json()
    # Broken JSON is still broken JSON.
    r = client.post("/api/games", content='{"deal": 12', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "request.json"


def test_an_empty_settings_change_makes_no_player(clients: Callable[..., TestClient], store: GameStore) -> None:
    """(issue: ``PUT /api/settings {}`` created a player.)"""
    before = store.transaction
    fresh = clients()
    with before() as tx:
        players = tx.db.execute("SELECT count(*) FROM players").fetchone()[0]
    r = fresh.put("/api/settings", json={})
    assert r.status_code == 200 and "set-cookie" not in r.headers
    with before() as tx:
        assert tx.db.execute("SELECT count(*) FROM players").fetchone()[0] == players
    r = fresh.put("/api/settings", json={"lang": "ru"})
    assert r.status_code == 200 and "set-cookie" in r.headers


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("DELETE", "/api/games", "GET, HEAD, POST"), ("DELETE", "/api/settings", "GET, HEAD, PUT"),
    ("PUT", "/api/games/import", "POST"), ("PUT", "/api/games/abc/step", "POST"),
    ("POST", "/api/stats", "GET, HEAD"), ("POST", "/api/games/current", "GET, HEAD"),
    ("POST", "/static/js/api.js", "GET, HEAD"),
    # A concrete path is not a template's value (OpenAPI): /api/games/import is no game id.
    ("GET", "/api/games/import", "POST"), ("OPTIONS", "/api/games/import", "POST"),
])
def test_a_405_names_every_method_served_at_the_path(client: TestClient, method: str, path: str,
                                                     allow: str) -> None:
    """(issue: ``Allow: POST`` for /api/games, ``GET, HEAD`` for settings.)"""
    r = client.request(method, path)
    assert r.status_code == 405 and r.json()["code"] == "request.method"
    assert r.headers["allow"] == allow


def test_an_error_that_slips_past_the_play_layer_is_still_its_refusal(app: Starlette) -> None:
    # No route lets one through today: the last-resort handlers answer as the play layer
    # would have, an engine refusal with its rule and a storage fault as a JSON 503.
    try:
        Move.parse("R9")
    except InvalidMoveError as e:
        invalid = e
    slipped: dict[str, Exception] = {"/illegal": IllegalMoveError("R6.waste"), "/invalid": invalid,
                                     "/storage": StoreError("disk I/O error"),
                                     "/unknown": UnknownGame("no such game")}

    def raising(exc: Exception) -> Callable[[Any], Any]:
        async def endpoint(request: Any) -> Any:
            raise exc
        return endpoint

    app.router.routes.extend(Route(path, raising(exc)) for path, exc in slipped.items())
    with TestClient(app, base_url="http://127.0.0.1") as c:
        illegal, bad, storage, unknown = (c.get(path) for path in slipped)
    assert illegal.status_code == 409 and illegal.json()["code"] == "move.illegal", illegal.text
    assert illegal.json()["rule"] == "R6" and illegal.json()["params"]["refusal"] == "R6.waste"
    assert bad.status_code == 422 and bad.json()["code"] == "move.invalid", bad.text
    assert bad.json()["params"]["invalid"] == "move.syntax" and bad.json()["params"]["text"] == "R9"
    assert storage.status_code == 503 and storage.json()["code"] == "storage", storage.text
    assert unknown.status_code == 404 and unknown.json()["code"] == "game.unknown", unknown.text
