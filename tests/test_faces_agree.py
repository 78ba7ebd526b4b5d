"""Both faces play one game the same way: a scripted sequence driven through the web API
and through the terminal's pilot leaves identical stored games, statistics and settings.

The sequence: a new deal, moves, an undo, the game played to its end, a restart of the
finished game (a new attempt), a variant change, another deal started mid-game (the
attempt is abandoned), and an import. Each face runs on its own database; what is stored
is compared field by field (ids and times aside).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

import loops
import msgspec
import pytest
from starlette.testclient import TestClient
from textual.pilot import Pilot

from firstlast.engine import Game, Variant
from firstlast.engine.record import record_to_text
from firstlast.play import PlayService
from firstlast.play.settings import Settings
from firstlast.store import GameStore
from firstlast.tui import FirstLastApp
from firstlast.tui.dialogs import ConfirmDialog, EndDialog
from firstlast.web import create_app

warnings.filterwarnings("ignore", message=".*httpx.*")

FIRST, SECOND, IMPORTED = 1, 5, 7
#: A typed address (what the browser `firstlast play` opens says): signs in at once.
TYPED = {"sec-fetch-site": "none"}


def record_text() -> str:
    game = Game(IMPORTED)
    game.autoplay()
    return record_to_text(game, date="2026-01-01")


def stored_picture(store: GameStore) -> dict[str, object]:
    """Everything the store holds for the local player, without ids and times."""
    play = PlayService(store)
    player = play.local_player()
    with store.transaction() as tx:
        rows = tx.db.execute(
            "SELECT deal, variant, moves, redo, status, score, passes, origin, result, result_score,"
            " result_passes, abandoned IS NOT NULL, id = (SELECT current FROM players WHERE id=?)"
            " FROM games WHERE player=? ORDER BY rowid", (player, player)).fetchall()
    return {
        "games": rows,
        "stats": msgspec.to_builtins(play.stats(player)),
        "settings": play.settings(player).to_json(),
    }


def through_the_web(store: GameStore, record: Path) -> None:
    player = PlayService(store).local_player()
    with TestClient(create_app(store), base_url="http://127.0.0.1") as c:
        assert c.get(f"/?player={player}", follow_redirects=False, headers=TYPED).status_code == 303
        gid = c.post("/api/games", json={"deal": str(FIRST)}).json()["id"]
        for _ in range(3):
            assert c.post(f"/api/games/{gid}/step").status_code == 200
        assert c.post(f"/api/games/{gid}/undo").status_code == 200
        end = c.post(f"/api/games/{gid}/step", json={"n": 100_000}).json()["state"]
        assert end["status"] != "playing"
        attempt = c.post(f"/api/games/{gid}/restart").json()
        assert attempt["new_game"]
        aid = attempt["state"]["id"]
        assert c.put("/api/settings", json={"variant": "r0w"}).status_code == 200
        assert c.post(f"/api/games/{aid}/step").status_code == 200
        assert c.post("/api/games", json={"deal": str(SECOND)}).status_code == 201
        assert c.post("/api/games/import", json={"record": record.read_text(encoding="utf-8")}).status_code == 201


def through_the_terminal(store: GameStore, record: Path) -> None:
    app = FirstLastApp(store, deal=FIRST, chance=False)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await script(pilot)

    async def wait(pilot: Pilot[None], cond: object) -> None:
        for _ in range(2000):
            if cond():  # type: ignore[operator]
                return
            await pilot.pause(0.01)
        raise AssertionError("timed out")

    async def script(pilot: Pilot[None]) -> None:
        screen = app.game_screen
        await pilot.press("s", "s", "s", "u")
        for _ in range(10):
            await pilot.press("plus")
        await pilot.press("a")
        await wait(pilot, lambda: isinstance(pilot.app.screen, EndDialog))
        await pilot.press("c")  # close the end panel, look at the table
        await pilot.press("ctrl+r")  # restart the finished game: a new attempt
        assert len(screen.session.game) == 0
        await pilot.press("v")
        await pilot.pause()
        pilot.app.screen.query_one("#redeals").value = "0"  # type: ignore[attr-defined]
        await pilot.click("#waste")
        await pilot.click("#ok")
        await pilot.pause()
        await pilot.press("s")
        await pilot.press("g", *str(SECOND), "enter")
        # The game under way is left only once the player says so (the page asks too).
        await wait(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog))
        await pilot.press("y")
        await wait(pilot, lambda: screen.session.game.deal == SECOND)
        await pilot.press("o")
        await pilot.pause()
        pilot.app.screen.query_one("#import-input").value = str(record)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert "imported deal" in screen.message

    loops.run(main())


def test_the_web_and_the_terminal_store_the_same_games(tmp_path: Path) -> None:
    record = tmp_path / "record.txt"
    record.write_text(record_text(), encoding="utf-8")
    web, tui = GameStore(tmp_path / "web.sqlite3"), GameStore(tmp_path / "tui.sqlite3")
    through_the_web(web, record)
    through_the_terminal(tui, record)
    w, t = stored_picture(web), stored_picture(tui)
    assert w == t
    # And what they agree on is the policy (docs/play.md).
    games = w["games"]
    assert isinstance(games, list) and len(games) == 4
    first, attempt, second, imported = games
    assert first[8] == first[4] == "lost" and first[11] == 0  # finished: its result kept, not abandoned
    assert attempt[11] == 1 and attempt[8] is None  # left mid-game for deal 5: abandoned
    assert second[0] == str(SECOND) and second[1] == Variant(redeals=0, waste_playable=True).token and second[12]
    assert imported[7] == "imported"
    assert w["settings"] == {**Settings().to_json(), "variant": "r0w"}
    [canonical] = w["stats"]  # type: ignore[misc]
    assert (canonical["played"], canonical["abandoned"]) == (1, 1)


# ---------------------------------------------------------------- one chance and story policy
def test_both_faces_show_the_same_chance_and_the_same_story(tmp_path: Path) -> None:
    """Issue 18, item 3: the page and the terminal take the chance and the story from the
    play layer's one policy (``play.chance``): for the same position, round by round,
    the same pooled figure; for the same finished game, the same story. The page keeps
    no policy of its own (chance.js asks for the round the server names)."""
    from firstlast.engine import Position
    from firstlast.play import chance as policy
    from firstlast.play.chance import Pooled
    from firstlast.play.view import table_view
    from firstlast.tui.chance import Answer, ChanceClock, describe_answer

    store = GameStore(tmp_path / "g.sqlite3")
    player = PlayService(store).local_player()
    with TestClient(create_app(store), base_url="http://127.0.0.1") as c:
        assert c.get(f"/?player={player}", follow_redirects=False, headers=TYPED).status_code == 303
        gid = c.post("/api/games", json={"deal": str(FIRST)}).json()["id"]
        # As chance.js does: round 0, then the round each answer names next.
        page: list[dict[str, object]] = []
        round_: object = 0
        while round_ is not None and len(page) < 3:
            page.append(c.get(f"/api/games/{gid}/chance?round={round_}").json())
            round_ = page[-1]["next_round"]
        assert [a["round"] for a in page] == [0, 1, 2]
        end = c.post(f"/api/games/{gid}/step", json={"n": 100_000}).json()["state"]
        assert end["status"] == "lost"
        story = {lang: c.get(f"/api/games/{gid}/story", headers={"accept-language": lang}).json()
                 for lang in ("en",)}["en"]

    # The terminal's clock, as the table drives it: the position, then refinements.
    answers: list[Answer] = []

    class Screen:  # stands in for the game screen: its worker runs at once, its figures come at once
        auto = False

        def __init__(self) -> None:
            self.app, self.pos, self.view = self, Position.deal(FIRST), table_view(Game(FIRST))

        @property
        def chance_answer(self) -> Answer:
            raise NotImplementedError

        @chance_answer.setter
        def chance_answer(self, answer: Answer) -> None:
            answers.append(answer)

        def run_worker(self, fn: Callable[[], None], **_: object) -> None:
            fn()

        def call_from_thread(self, fn: Callable[..., None], *args: object) -> None:
            fn(*args)

        def set_timer(self, *_: object) -> None:
            return None  # no refinement timer: the refinements are asked for below

    clock = ChanceClock(Screen())  # type: ignore[arg-type]
    clock.request()
    for _ in range(2):
        clock.request(refine=True)
    assert len(answers) == 3
    for shown, web in zip(answers, page, strict=True):
        assert isinstance(shown, Pooled)
        pooled = web["pooled"]
        assert isinstance(pooled, dict)
        assert (shown.estimate.samples, shown.estimate.wins, shown.rounds) == (pooled["samples"], pooled["wins"],
                                                                       pooled["rounds"])
        assert describe_answer(shown, "en") == f"Chance {pooled['text']}"
        assert shown.next_round == web["next_round"]
    assert page[0]["pooled"]["samples"] == policy.SAMPLES_PER_ROUND  # type: ignore[index]

    # The same story in the terminal's end panel.
    app = FirstLastApp(GameStore(tmp_path / "tui.sqlite3"), deal=FIRST, chance=False)

    async def main() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = app.game_screen
            screen.session.act("step", 100_000)
            screen._shown()
            def shown() -> str:
                panel = pilot.app.screen.query("#end-story") if isinstance(pilot.app.screen, EndDialog) else None
                return str(panel.first().render()) if panel else ""  # "" until the panel is up

            for _ in range(3000):
                if "•" in shown():
                    break
                await pilot.pause(0.02)
            plain = shown()
            # The first view, in plain words (issue 26), after how it ended (the end panels'
            # result, in both faces), and the details a key away.
            assert [ln.removeprefix("• ") for ln in plain.splitlines()[1:]] == [*story["plain"][1:], story["where"]]
            await pilot.press("d")
            await pilot.pause()
            both = shown()
            assert both.startswith(plain + "\n\n")
            assert [ln.removeprefix("• ") for ln in both[len(plain) + 2:].splitlines()] == story["sentences"]

    loops.run(main())
    assert story["what_if"] == {"fewest_redeals": 7, "comes_out_on_pass": 8,
                                "variants_that_come_out": ["ru", "ruw", "run", "ruwn"]}


def test_the_page_keeps_no_chance_policy_of_its_own() -> None:
    js = (Path(__file__).resolve().parents[1] / "src" / "firstlast" / "web" / "static" / "js" / "chance.js").read_text(
        encoding="utf-8")
    assert "SAMPLES" not in js and "MAX_ROUND" not in js, "the policy is play/chance.py's"
    assert "api.chance(id, 0)" in js and "next_round" in js


# ---------------------------------------------------------------- one renderer of the table's words
def test_both_faces_say_the_same_table_words(tmp_path: Path) -> None:
    """Issue 18, "One renderer of words per language": for the same position, in both
    languages and both verbosities, the terminal says the hint, the table summary and
    each place's review in exactly the words the server sends the page (``GET
    /api/games/{id}/words``), which the page shows and says as they come
    (tests/web/test_ear.py checks the page against them)."""
    from firstlast.tui.dialogs import WordsDialog

    store = GameStore(tmp_path / "g.sqlite3")
    player = PlayService(store).local_player()
    page: dict[tuple[str, int], dict[str, object]] = {}
    with TestClient(create_app(store), base_url="http://127.0.0.1") as c:
        assert c.get(f"/?player={player}", follow_redirects=False, headers=TYPED).status_code == 303
        gid = c.post("/api/games", json={"deal": str(FIRST)}).json()["id"]
        done = 0
        for n in (0, 18, 60):
            if n > done:
                c.post(f"/api/games/{gid}/step", json={"n": n - done})
                done = n
            for lang in ("en", "ru"):
                c.put("/api/settings", json={"lang": lang})
                page[lang, n] = c.get(f"/api/games/{gid}/words").json()

    app = FirstLastApp(GameStore(tmp_path / "tui.sqlite3"), deal=FIRST, chance=False)

    async def main() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = app.game_screen
            done = 0
            for n in (0, 18, 60):
                if n > done:
                    screen.session.act("step", n - done)
                    done = n
                for lang in ("en", "ru"):
                    await screen.set_language(lang)
                    words = page[lang, n]
                    for verbosity in ("brief", "full"):
                        screen.session.save_settings(verbosity=verbosity)
                        suffix = "_brief" if verbosity == "brief" else ""
                        screen.action_hint()
                        assert screen.message == words[f"hint{suffix}"], (n, lang, verbosity)
                        screen.action_summary()
                        await pilot.pause()
                        dialog = pilot.app.screen
                        assert isinstance(dialog, WordsDialog) and screen.message == words[f"summary{suffix}"]
                        reviews = words["reviews"]
                        assert isinstance(reviews, list)
                        for review in reviews:
                            dialog.action_review(review["place"])
                            assert dialog.text == review["sentence"], (n, lang, review["place"])
                        dialog.action_close()
                        await pilot.pause()

    loops.run(main())


@pytest.mark.parametrize(("deal", "token", "steps"), [(1, "r2", 0), (1, "r2", 40), (5, "r0n", 25), (7, "r1w", 120),
                                                      (42, "ru", 1000)])
def test_both_faces_draw_the_table_from_one_view(deal: int, token: str, steps: int) -> None:
    """The page's state and the terminal's table and side bar are made from the same
    view model (``play.view.TableView``): what each shows of counts, the needed rank and
    what answers a press is the view's."""
    from firstlast.engine.places import FIRST as FIRSTS
    from firstlast.engine.places import PILES, RESERVE
    from firstlast.i18n import t
    from firstlast.play import StoredGame
    from firstlast.play.view import table_view
    from firstlast.tui import cards as C
    from firstlast.tui.table import marks, paint_slot
    from firstlast.tui.widgets import side_text
    from firstlast.web import shapes

    game = Game(deal, Variant.from_token(token))
    for _ in range(steps):
        if game.position.status != "playing":
            break
        game.step()
    stored = StoredGame.new("p", game, dealt="chosen")
    view = table_view(game, stored=stored)
    # The page: its answer is the view's, field for field, each in its JSON form.
    page = shapes.state(stored, "en")
    assert {f: getattr(page, f) for f in view.__struct_fields__} == shapes.fields_json(view)
    assert (page.stock_count, page.stock_decks, len(page.waste)) == (view.stock_count, list(view.stock_decks),
                                                                     len(view.waste))
    assert (page.active, page.need, page.need_char) == (view.active, view.need, view.need_char)
    assert page.pressable == list(view.pressable) and page.stock_move == str(view.stock_move)
    assert page.legal_moves == [str(m) for m in view.legal_moves] and page.hint == (view.hint and str(view.hint))
    assert (page.score, page.passes, page.redeals_left, page.moves) == (view.score, view.passes, view.redeals_left,
                                                                        view.moves)
    assert page.comes_out == view.comes_out and page.deal == view.deal
    # The terminal: its table and side bar, drawn from the same view.
    label, _ = paint_slot("stock", view, C.MEDIUM)
    assert label.plain == (t("en", "tui.table.stock", n=view.stock_count) if view.stock_count
                           else t("en", "tui.table.redeal") if view.stock_live else t("en", "tui.table.stock", n=0))
    side = side_text(view, game.steps, "en", None, False, 1, "", 40, 30).plain
    assert t("en", "tui.side.stock_waste", stock=view.stock_count, waste=len(view.waste)) in side
    assert f"{view.score}/104" in side
    if view.active is not None and view.need is not None and view.status == "playing":
        pile, _ = paint_slot(PILES[view.active], view, C.MEDIUM)
        assert C.rank_text(view.need) in pile.plain
        assert f"{t('en', 'tui.side.needs')}" in side and C.rank_text(view.need) in side
    for place in (*FIRSTS, *RESERVE, "waste"):
        slot, _ = paint_slot(place, view, C.MEDIUM)
        assert (slot.spans[0].style == marks()["playable"][2]) == (place in view.playable), place
