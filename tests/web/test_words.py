"""The words the server speaks (docs/web-api.md, docs/i18n.md): the shared catalogs and
the help served to the page, move announcements and refusals in the player's language,
the story of a game, the chance by refinement round, and the sign-in that keeps a deal."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import loops
import msgspec
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from firstlast import i18n
from firstlast.engine import Game, Position
from firstlast.odds.live import ChanceEstimate
from firstlast.play import PlayService, actions
from firstlast.play.chance import story_key
from firstlast.play.errors import CODES
from firstlast.play.story import story_of
from firstlast.store import GameStore
from firstlast.web.context import WebGame
from firstlast.web.errors import KIND_STATUS, WEB_CODES, WebError
from firstlast.web.routes import story as story_route
from firstlast.web.server import sign_in_url

warnings.filterwarnings("ignore", message=".*httpx.*")

BASE = "http://127.0.0.1"
NBSP = "\u00a0"
LOST_DEAL = 1  # canonical rules: lost, P5 waiting for a ten
PLAY_FIRST_DEAL = 0  # the first legal move is a reserve play, so "turn" is refused (R9)


def new_game(c: TestClient, deal: int) -> dict[str, Any]:
    r = c.post("/api/games", json={"deal": str(deal)})
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def set_lang(c: TestClient, lang: str | None) -> None:
    assert c.put("/api/settings", json={"lang": lang}).json()["lang"] == lang


# ---------------------------------------------------------------------------- catalogs and help
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_catalog_is_the_packages_file_with_a_validator(client: TestClient, lang: str) -> None:
    r = client.get(f"/i18n/{lang}.json")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.content == resources.files("firstlast.i18n").joinpath(f"{lang}.json").read_bytes()
    assert r.json()["announce.turn"] == i18n.catalog(lang)["announce.turn"]
    tag = r.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{24}"', tag) and r.headers["cache-control"] == "no-cache"
    again = client.get(f"/i18n/{lang}.json", headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    assert client.get(f"/i18n/{lang}.json", headers={"if-none-match": '"other"'}).status_code == 200
    # The two languages are two files: a validator of one is not the other's.
    other = "en" if lang == "ru" else "ru"
    assert client.get(f"/i18n/{other}.json", headers={"if-none-match": tag}).status_code == 200


@pytest.mark.parametrize("path", ["/i18n/de.json", "/i18n/RU.json", "/i18n/ru.js.json", "/help/de", "/help/ru.json",
                                  "/i18n/%2e%2e.json"])
def test_an_unknown_language_is_a_json_404(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    body = r.json()
    assert body["code"] in ("request.lang", "request.not_found")
    if body["code"] == "request.lang":
        assert body["params"]["expected"] == "ru or en" and "no language" in body["error"]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_help_is_a_safe_html_fragment(client: TestClient, lang: str) -> None:
    r = client.get(f"/help/{lang}")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    html = r.text
    assert html == actions.help_html(lang)
    hint = next(a for a in actions.ACTIONS if a.id == "hint")
    assert actions.keys_display(hint, lang) in html  # the one table of keys
    assert "<h1" in html or "<h2" in html
    assert "R11" in html  # the rules are in it
    # Nothing the page's CSP (script-src/style-src 'self') would refuse, nothing active.
    assert not re.search(r"<\s*(script|style|iframe|object|embed|link|meta)\b", html, re.I)
    assert not re.search(r"\s(on\w+|style)\s*=", html, re.I)
    assert "javascript:" not in html.lower()
    assert "<!doctype" not in html.lower() and "<html" not in html.lower()  # a fragment
    assert r.headers["content-security-policy"].startswith("default-src 'self'")
    tag = r.headers["etag"]
    assert client.get(f"/help/{lang}", headers={"if-none-match": f"W/{tag}"}).status_code == 304


def test_the_book_is_served_once_from_the_package(client: TestClient) -> None:
    r = client.get("/book.txt")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert r.text == i18n.book_text()
    assert r.text.startswith("Первые и последние\n\n")
    assert client.get("/book.txt", headers={"if-none-match": r.headers["etag"]}).status_code == 304


def test_the_words_are_declared_in_the_schema(client: TestClient) -> None:
    paths = client.get("/api/schema").json()["paths"]
    catalog = paths["/i18n/{lang}.json"]["get"]
    assert catalog["parameters"] == [{"name": "lang", "in": "path", "required": True,
                                      "schema": {"type": "string", "enum": ["ru", "en"]}}]
    assert set(catalog["responses"]) == {"200", "304", "404", "421"}
    assert "text/html" in paths["/help/{lang}"]["get"]["responses"]["200"]["content"]
    story = paths["/api/games/{id}/story"]["get"]["responses"]
    assert story["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Story")
    assert {"404", "503"} <= set(story)


# ---------------------------------------------------------------------------- announcements
def test_a_move_is_announced_in_the_players_language(client: TestClient) -> None:
    gid = new_game(client, LOST_DEAL)["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": "turn"})
    assert r.json()["announcement"] == "ten of diamonds turned onto the waste"
    set_lang(client, "ru")
    r = client.post(f"/api/games/{gid}/undo", json={})
    assert r.json()["announcement"] == "отменено: десятка бубен со сборной кучки в колоду"
    r = client.post(f"/api/games/{gid}/redo", json={})
    assert r.json()["announcement"] == "десятка бубен из колоды на сборную кучку"
    set_lang(client, "en")
    r = client.post(f"/api/games/{gid}/undo", json={})
    assert r.json()["announcement"] == "undone: ten of diamonds from the waste onto the stock"


def test_a_language_changed_elsewhere_is_followed_from_the_next_read(client: TestClient, store: GameStore) -> None:
    # A move's answer is worded in the language the play layer last read or wrote for the
    # player (no settings read in the move's write job): another process's change (the
    # terminal's) is followed from the page's next read of the settings.
    gid = new_game(client, LOST_DEAL)["id"]
    assert client.post(f"/api/games/{gid}/moves", json={"move": "turn"}).json()["announcement"].startswith("ten")
    player = client.cookies[next(iter(client.cookies.keys()))].rpartition(".")[0]  # TOKEN.MAC
    PlayService(store).update_settings(player, {"lang": "ru"})  # the terminal, say
    assert client.get("/api/settings").json()["lang"] == "ru"
    r = client.post(f"/api/games/{gid}/undo", json={})
    assert r.json()["announcement"] == "отменено: десятка бубен со сборной кучки в колоду"


def test_every_action_answer_has_one_announcement(client: TestClient) -> None:
    gid = new_game(client, LOST_DEAL)["id"]
    # Three forced moves: each move's words, in order, in one string.
    r = client.post(f"/api/games/{gid}/step", json={"n": 3}).json()
    assert r["steps"] == ["turn", "turn", "turn"]
    assert r["announcement"] == ("ten of diamonds turned onto the waste; four of spades turned onto the waste; "
                                 "three of diamonds turned onto the waste")
    # Advance: the turns until a card fits, each announced (a card onto a pile says so).
    r = client.post(f"/api/games/{gid}/advance", json={}).json()
    game = Game(LOST_DEAL, moves=["turn"] * 3)
    expected = []
    for move in r["steps"]:
        expected.append(i18n.announce(game.push(move), "en"))
    assert r["announcement"] == "; ".join(expected) and "pile" in r["announcement"]
    # Restart of an unfinished game takes every move back: each announced as undone.
    r = client.post(f"/api/games/{gid}/restart", json={}).json()
    assert r["announcement"].count("undone: ") == len(r["steps"]) == 3 + len(expected)
    assert r["announcement"].startswith("undone: ")


def test_without_a_language_setting_the_browsers_is_used(clients: Callable[..., TestClient]) -> None:
    russian = clients(**{"accept-language": "ru-RU,ru;q=0.9,en;q=0.8"})
    gid = new_game(russian, LOST_DEAL)["id"]
    r = russian.post(f"/api/games/{gid}/moves", json={"move": "turn"})
    assert r.json()["announcement"] == "десятка бубен из колоды на сборную кучку"
    # English preferred over Russian by weight, not by order.
    english = clients(**{"accept-language": "ru;q=0.5, en-GB"})
    gid = new_game(english, LOST_DEAL)["id"]
    assert english.post(f"/api/games/{gid}/moves", json={"move": "turn"}).json()["announcement"].startswith("ten")
    # The setting wins over the browser.
    set_lang(russian, "en")
    r = russian.post(f"/api/games/{new_game(russian, LOST_DEAL)['id']}/moves", json={"move": "turn"})
    assert r.json()["announcement"] == "ten of diamonds turned onto the waste"


# ---------------------------------------------------------------------------- refusals
def test_an_engine_refusal_carries_its_text_in_the_players_language(client: TestClient) -> None:
    state = new_game(client, PLAY_FIRST_DEAL)
    gid = state["id"]
    r = client.post(f"/api/games/{gid}/moves", json={"move": "turn"})
    assert r.status_code == 409
    body = r.json()
    assert body["code"] == "move.illegal" and body["params"]["refusal"] == "R9.play_before_turn"
    assert body["text"] == "a card that fits must be played before turning (R9)" == body["error"]
    # The table's refusals are exactly the bodies the requests answer, text and all.
    assert state["refusals"]["turn"] == body
    set_lang(client, "ru")
    body = client.post(f"/api/games/{gid}/moves", json={"move": "turn"}).json()
    assert body["text"] == "сначала сыграйте подходящую карту, потом открывайте колоду (R9)"
    assert body["error"] == "a card that fits must be played before turning (R9)"  # the English stays
    state = client.get(f"/api/games/{gid}").json()
    assert state["refusals"]["turn"] == body
    # Every refusal of the table has its words, from its code and params.
    for move, refusal in state["refusals"].items():
        assert refusal["text"] == i18n.refusal_text(refusal["params"]["refusal"], refusal["params"], "ru"), move
        assert refusal["text"] and not re.search(r"\{\w+\}", refusal["text"])


def test_every_refusal_carries_its_text_in_the_players_language(client: TestClient) -> None:
    gid = new_game(client, LOST_DEAL)["id"]
    body = client.post(f"/api/games/{gid}/undo", json={}).json()
    assert body["code"] == "undo.empty" and body["text"] == body["error"] == "nothing to undo: no move has been made"
    set_lang(client, "ru")
    body = client.post(f"/api/games/{gid}/undo", json={}).json()
    assert body["text"] == "отменять нечего: ходов ещё не было" and body["error"].startswith("nothing to undo")
    body = client.post(f"/api/games/{gid}/moves", json={"move": "R9"}).json()
    assert body["code"] == "move.invalid" and body["text"].startswith("ход не понят")
    # The web's own refusals: in the language the page asks in (Accept-Language).
    body = client.post("/api/games", content=b"{", headers={"content-type": "application/json",
                                                             "accept-language": "ru"}).json()
    assert body["code"] == "request.json" and body["text"] == "тело запроса — не JSON"


def test_the_web_codes_have_english_sentences_for_every_param() -> None:
    # Each web code's sentence is the catalog's; its params are its placeholders, no other.
    for code, status in WEB_CODES.items():
        assert 400 <= status < 600, code
        names = i18n.placeholders(i18n.catalog("en")[f"error.{code}"])
        e = WebError(code, **dict.fromkeys(names, "x"))
        assert str(e) == i18n.error_text(code, e.params, "en") and "{" not in str(e), code
    with pytest.raises(TypeError):
        WebError("request.value", field="deal")  # its sentence says a reason too


def test_the_doc_lists_every_web_code_with_its_params() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "web-api.md").read_text(encoding="utf-8")
    section = doc.split("### The web's own codes", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1): m for m in re.finditer(r"^\| `([a-z_.]+)` \| (\d+) \| ([^|]*) \|", section, re.M)}
    assert set(rows) == set(WEB_CODES)
    for code, status in WEB_CODES.items():
        assert int(rows[code].group(2)) == status, code
        said = i18n.placeholders(i18n.catalog("en")[f"error.{code}"])
        assert set(re.findall(r"`(\w+)`", rows[code].group(3))) == said, code



def test_the_doc_gives_every_refusal_code_its_status() -> None:
    # The status table is written by hand: each code (or its family, ``deal.*``) is named
    # in the row of the status it answers.
    doc = (Path(__file__).resolve().parents[2] / "docs" / "web-api.md").read_text(encoding="utf-8")
    section = doc.split("### Status codes", 1)[1].split("\n### ", 1)[0]
    rows = {int(status): row for statuses, row in re.findall(r"^\| ([0-9, ]+) \| (.*) \|$", section, re.M)
            for status in statuses.split(", ")}
    for code, status in {**{c: KIND_STATUS[kind] for c, kind in CODES.items()}, **WEB_CODES}.items():
        assert f"`{code}`" in rows[status] or f"`{code.split('.')[0]}.*`" in rows[status], (code, status)

# ---------------------------------------------------------------------------- the story
def test_the_story_of_a_lost_game(client: TestClient, clients: Callable[..., TestClient], app: Starlette) -> None:
    gid = new_game(client, LOST_DEAL)["id"]
    state = client.post(f"/api/games/{gid}/step", json={"n": 100_000}).json()["state"]
    assert state["status"] == "lost"
    r = client.get(f"/api/games/{gid}/story")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    story = r.json()
    assert story["deal"] == str(LOST_DEAL) and story["status"] == "lost" and story["variant"] == "r3"
    assert story["moves"] == state["moves"] and story["score"] == state["score"] == 52
    stop = story["stop"]
    assert stop["pile"] == "P5" and stop["need"] == 10 and stop["need_char"] == "T"
    assert stop["code"] == "R11.no_redeal" and len(stop["copies"]) == 8
    assert story["current"] == story["points"][-1] and story["current"]["probability"] == 0.0
    assert story["points"][0]["move"] == 0 and 0 < story["points"][0]["probability"] < 1
    assert "It stopped (R11): pile 5 needed a ten" in " ".join(story["sentences"])
    # Every key of the play layer's Story is sent (and nothing else but its words).
    played = Game(LOST_DEAL)
    played.autoplay()
    expected: dict[str, Any] = msgspec.to_builtins(story_of(played, max_points=2, samples=8))
    assert set(story) == {*expected, "sentences", "conclusion", "details", "chart_name", "plain", "where"}
    assert story["sentences"] == story["conclusion"] + story["details"]
    assert story["what_if"] == {"fewest_redeals": 7, "comes_out_on_pass": 8,
                                "variants_that_come_out": ["ru", "ruw", "run", "ruwn"]}
    assert story["won_on_pass"] is None
    assert story["conclusion"][2].startswith("What would have brought it out: 7 redeals instead of 3")
    assert story["chart_name"].startswith("The chance to come out over 310 moves: ") and len(story["chart_name"]) < 120
    assert set(story["stop"]) == set(expected["stop"])
    assert set(story["points"][0]) == set(expected["points"][0])
    assert set(story["stop"]["copies"][0]) == set(expected["stop"]["copies"][0])
    # Kept per game and version: asked again (in Russian), the same story, other words.
    web = app.state.web
    assert isinstance(web, WebGame) and web.stories.get(story_key(played)) is not None
    set_lang(client, "ru")
    again = client.get(f"/api/games/{gid}/story").json()
    words = {"sentences", "conclusion", "details", "chart_name", "plain", "where"}
    assert {k: v for k, v in again.items() if k not in words} == {k: v for k, v in story.items() if k not in words}
    assert "кучка 5 ждала десятку" in " ".join(again["sentences"])
    # Another player's game answers as an unknown one.
    stranger = clients()
    r = stranger.get(f"/api/games/{gid}/story")
    assert r.status_code == 404 and r.json()["code"] == "game.unknown"
    new_game(stranger, LOST_DEAL)  # a known player now: still 404
    assert stranger.get(f"/api/games/{gid}/story").status_code == 404
    assert client.get("/api/games/nope/story").status_code == 404


def test_the_story_of_a_game_under_way_follows_its_version(client: TestClient, app: Starlette,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[int] = []

    def tell(game: Game) -> Any:
        told.append(len(game.moves))
        return story_of(game, max_points=8, samples=64)

    monkeypatch.setattr(story_route, "tell_story", tell)
    gid = new_game(client, LOST_DEAL)["id"]
    client.post(f"/api/games/{gid}/step", json={"n": 20})
    story = client.get(f"/api/games/{gid}/story").json()
    assert story["status"] == "playing" and story["moves"] == 20 and story["stop"] is None
    assert story["sentences"][0].startswith("Deal 1 (3 redeals, privileged last card) is under way: 20 moves so far")
    client.get(f"/api/games/{gid}/story")
    assert told == [20]  # the same version: told once
    client.post(f"/api/games/{gid}/moves", json={"move": "turn"})
    assert client.get(f"/api/games/{gid}/story").json()["moves"] == 21
    assert told == [20, 21]


def test_a_story_asked_for_twice_at_once_is_told_once(client: TestClient, app: Starlette,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[int] = []
    # The story is told only once the other two requests looked for it and did not find
    # it (they then wait for the player's turn): a condition, not a time. The teller
    # itself looks twice, before its turn and in it.
    missed = threading.Semaphore(0)
    stories = app.state.web.stories

    class Book:
        def get(self, key: Any) -> Any:
            story = stories.get(key)
            if story is None:
                missed.release()
            return story

        def put(self, key: Any, story: Any) -> None:
            stories.put(key, story)

    def tell(game: Game) -> Any:
        told.append(len(game.moves))
        # The first telling waits; the bound only turns the fault under test (a second
        # telling) into a failure, not a hang.
        if len(told) == 1:
            for _ in range(4):  # its own two looks and the other two requests'
                if not missed.acquire(timeout=60):
                    break
        return story_of(game, max_points=8, samples=64)

    monkeypatch.setattr(app.state.web, "stories", Book())
    monkeypatch.setattr(story_route, "tell_story", tell)
    gid = new_game(client, LOST_DEAL)["id"]
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda _: client.get(f"/api/games/{gid}/story"), range(3)))
    assert [a.status_code for a in answers] == [200] * 3
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert told == [0]


def test_a_story_told_for_a_cancelled_request_is_kept(app: Starlette, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server stopping cancels a request whose story the worker is telling: the
    story told is kept all the same, so the next asker does not tell it again."""
    started, release = threading.Event(), threading.Event()
    told: list[int] = []

    def tell(game: Game) -> Any:
        told.append(len(game.moves))
        started.set()
        release.wait(timeout=60)  # bounded only so that a fault fails, not hangs
        return story_of(game, max_points=8, samples=64)

    stories = app.state.web.stories
    kept = asyncio.Event()

    class Book:
        def get(self, key: Any) -> Any:
            return stories.get(key)

        def put(self, key: Any, story: Any) -> None:
            stories.put(key, story)
            kept.set()

    monkeypatch.setattr(app.state.web, "stories", Book())
    monkeypatch.setattr(story_route, "tell_story", tell)

    async def scenario() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as c:
            r = await c.post("/api/games", json={"deal": str(LOST_DEAL)}, headers={"origin": BASE})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            asking = asyncio.ensure_future(c.get(f"/api/games/{gid}/story"))
            await asyncio.to_thread(started.wait, 60)
            asking.cancel()
            release.set()
            with contextlib.suppress(asyncio.CancelledError):
                await asking
            await asyncio.wait_for(kept.wait(), timeout=30)  # bounded: without the story kept, fails
            assert (await c.get(f"/api/games/{gid}/story")).status_code == 200
        assert told == [0]

    loops.run(scenario())


def test_a_story_the_odds_cannot_tell_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import firstlast.play.story as story_module

    def fail(game: Game, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("no")

    monkeypatch.setattr(story_module, "story_of", fail)
    gid = new_game(client, LOST_DEAL)["id"]
    r = client.get(f"/api/games/{gid}/story")
    assert r.status_code == 503 and r.json()["code"] == "chance.unavailable"


@pytest.mark.parametrize(("failure", "code"), [(ValueError, "chance.unavailable"), (ImportError, "chance.missing")])
@pytest.mark.parametrize(("ask", "sampler"), [("story", "firstlast.play.story.story_of"),
                                              ("chance?samples=100", "firstlast.odds.live.chance_to_come_out")])
def test_the_odds_failing_in_the_sites_computing_worker_is_503(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, failure: type[Exception], code: str, ask: str,
        sampler: str) -> None:
    """As on the static site: each computation goes to the computing worker pickled and its
    failure comes back pickled (``runtime.call_pickled``), then is refused as everywhere
    (a refusal raised in the worker could not be unpickled: a crash, not a 503)."""
    from firstlast import runtime

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise failure("no")

    async def computing_worker(payload: str) -> str:
        return runtime.call_pickled(payload)

    monkeypatch.setattr(sampler, fail)
    monkeypatch.setattr(runtime, "THREADS", False)
    monkeypatch.setattr(runtime, "_offload", computing_worker)
    gid = new_game(client, LOST_DEAL)["id"]
    r = client.get(f"/api/games/{gid}/{ask}")
    assert r.status_code == 503 and r.json()["code"] == code


# ---------------------------------------------------------------------------- the chance by round
def test_each_round_is_a_new_sample_set(client: TestClient) -> None:
    from firstlast.odds import fastline
    from firstlast.odds.live import chance_to_come_out, refine_seed

    gid = new_game(client, LOST_DEAL)["id"]
    pos = Position.deal(LOST_DEAL)
    answers = [client.get(f"/api/games/{gid}/chance?samples=2000&round={r}").json() for r in range(4)]
    assert [a["round"] for a in answers] == [0, 1, 2, 3]
    for a in answers:
        assert a["samples"] > 0 and not a["certain"]
        assert a["probability"] == pytest.approx(a["wins"] / a["samples"])
        assert a["text"] == i18n.chance_text(_estimate(a), "en") and a["text"].endswith(f"{NBSP}%")
    if fastline.available():  # within the budget: every sample asked for, so exactly reproducible
        for r, a in enumerate(answers):
            est = chance_to_come_out(pos, samples=2000, seed=refine_seed(pos, r))
            assert (a["wins"], a["samples"]) == (est.wins, est.samples)
        # 2,000 samples at about 25 %: four rounds with one win count are as good as impossible.
        assert len({a["wins"] for a in answers}) > 1
    # Each answer pools the rounds before it (what the page shows while it refines),
    # worded by the one display rule: the page counts and words nothing itself.
    merged = _estimate(answers[0])
    for r, a in enumerate(answers):
        if r:
            merged = merged.merge(_estimate(a))
        pooled = a["pooled"]
        assert (pooled["rounds"], pooled["samples"], pooled["wins"]) == (r + 1, merged.samples, merged.wins)
        assert pooled["text"] == i18n.chance_text(merged, "en")
    # Asked again, round 0 is the same (cached, and reproducible anyway).
    assert client.get(f"/api/games/{gid}/chance?samples=2000").json() == answers[0]
    set_lang(client, "ru")
    ru = client.get(f"/api/games/{gid}/chance?samples=2000&round=1").json()
    assert {**ru, "text": None, "pooled": None} == {**answers[1], "text": None, "pooled": None}
    assert {**ru["pooled"], "text": None} == {**answers[1]["pooled"], "text": None}
    assert ru["text"] == i18n.chance_text(_estimate(ru), "ru")


def _estimate(answer: dict[str, Any]) -> ChanceEstimate:
    return ChanceEstimate(answer["probability"], answer["low"], answer["high"], answer["samples"], answer["wins"],
                          answer["certain"])


def test_a_decided_game_is_certain_in_every_round(client: TestClient) -> None:
    gid = new_game(client, LOST_DEAL)["id"]
    client.post(f"/api/games/{gid}/step", json={"n": 100_000})
    for r in (0, 5):
        a = client.get(f"/api/games/{gid}/chance?round={r}").json()
        assert a == {"probability": 0.0, "low": 0.0, "high": 0.0, "samples": 0, "wins": 0, "certain": True,
                     "round": r, "text": f"0{NBSP}%",
                     "pooled": {"probability": 0.0, "low": 0.0, "high": 0.0, "samples": 0, "wins": 0, "rounds": 1,
                                "text": f"0{NBSP}%", "short": f"0{NBSP}%"}, "next_round": None}


# ---------------------------------------------------------------------------- opening on a deal
def test_the_sign_in_keeps_the_deal_to_open(client: TestClient, store: GameStore) -> None:
    player = PlayService(store).local_player()
    url = sign_in_url("http://127.0.0.1:8000/", player, 42, "r0w")
    assert url == f"http://127.0.0.1:8000/?player={player}&deal=42&variant=r0w"
    assert sign_in_url("http://h/", player) == f"http://h/?player={player}"
    assert sign_in_url("http://h/", player, None, "r0w") == f"http://h/?player={player}"  # no deal, no variant
    typed = {"sec-fetch-site": "none"}  # as the browser firstlast play opens says
    r = client.get(url.removeprefix("http://127.0.0.1:8000"), headers=typed)
    assert r.status_code == 303 and r.headers["location"] == "/?deal=42&variant=r0w"
    assert (r.cookies.get("fl_player_80") or "").rpartition(".")[0] == player
    # Only well-formed start parameters are kept; anything else is dropped.
    r = client.get(f"/?player={player}&deal=18446744073709551615&variant=evil&next=//x.example", headers=typed)
    assert r.headers["location"] == "/?deal=18446744073709551615"
    r = client.get(f"/?player={player}&deal=4x2&variant=r3", headers=typed)
    assert r.headers["location"] == "/?variant=r3"
    r = client.get("/?player=unknown&deal=7")
    assert r.status_code == 303 and r.headers["location"] == "/?deal=7" and "fl_player_80" not in r.cookies
