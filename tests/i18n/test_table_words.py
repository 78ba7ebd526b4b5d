"""The table in words (``i18n.table``) has one renderer: the hint, the table's summary and
a place's review are made in Python, said by the terminal and sent to the page by the
server (``GET /api/games/{id}/words``), which shows and says them as they come (issue 18,
"One renderer of words per language"). The words of many positions, in both languages,
are the server's exactly; a replay's step has its own table's words."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from firstlast.engine import Game, Position, Variant
from firstlast.i18n import LANGS, card_name, t
from firstlast.i18n.table import REVIEW_PLACES, hint_text, review_words, table_summary
from firstlast.play import GameStore, PlayService
from firstlast.web import create_app

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "src" / "firstlast" / "web" / "static" / "js"


def expected(pos: Position, lang: str, *, replay: bool = False) -> dict[str, object]:
    """The words of ``pos`` as i18n.table makes them, in the answer's shape."""
    return {
        "hint": t(lang, "say.hint.none") if replay else hint_text(pos, lang),
        "hint_brief": t(lang, "say.hint.none") if replay else hint_text(pos, lang, "brief"),
        "summary": table_summary(pos, lang), "summary_brief": table_summary(pos, lang, "brief"),
        "reviews": [dict(zip(("place", "title", "cards", "sentence"), (p, *review_words(pos, p, lang)), strict=True))
                    for p in REVIEW_PLACES],
    }


CASES = ((1, Variant(), (0, 1, 18, 30, 60, 120, 400)), (7, Variant(), (0, 50, 1000)), (1285, Variant(), (5, 40, 500)),
         (3, Variant(redeals=None, waste_playable=True), (10, 90)), (5, Variant(privileged_last=False), (25, 300)))


def test_the_server_sends_the_one_renderers_words(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    player = PlayService(store).local_player()
    with TestClient(create_app(store), base_url="http://127.0.0.1") as c:
        typed = {"sec-fetch-site": "none"}  # a typed address signs in at once (issue 29.6)
        assert c.get(f"/?player={player}", follow_redirects=False, headers=typed).status_code == 303
        checked = 0
        for deal, variant, steps in CASES:
            spec = {"redeals": variant.redeals, "waste_playable": variant.waste_playable,
                    "privileged_last": variant.privileged_last}
            gid = c.post("/api/games", json={"deal": str(deal), "variant": spec}).json()["id"]
            game, done = Game(deal, variant), 0
            for n in steps:
                if n > done:
                    c.post(f"/api/games/{gid}/step", json={"n": n - done})
                    for _ in range(n - done):
                        if (move := game.position.forced_move()) is None:
                            break
                        game.push(move)
                    done = n
                for lang in LANGS:
                    c.put("/api/settings", json={"lang": lang})
                    got = c.get(f"/api/games/{gid}/words")
                    assert got.status_code == 200, got.text
                    assert got.json() == expected(game.position, lang), (deal, n, lang)
                    checked += 1
            # A replay's step: the table after that many moves, without a hint.
            for lang in LANGS:
                c.put("/api/settings", json={"lang": lang})
                for step in (0, len(game) // 2, len(game)):
                    got = c.get(f"/api/games/{gid}/words?step={step}").json()
                    assert got == expected(game.positions[step], lang, replay=True), (deal, step, lang)
        assert checked > 30
        # A step past the game's moves (no such step), or not a number: a clear refusal, in the player's language.
        c.put("/api/settings", json={"lang": "en"})
        past = c.get(f"/api/games/{gid}/words?step={len(game) + 1}")
        assert past.status_code == 404 and past.json()["code"] == "words.step", past.text
        assert past.json()["text"] == f"there is no step {len(game) + 1}: the game has {len(game)} moves"
        for bad in ("-1", "x", "1.5"):
            assert c.get(f"/api/games/{gid}/words?step={bad}").status_code == 422
        assert c.get("/api/games/nope/words").status_code == 404


def test_the_words_in_both_languages() -> None:
    """Deal 1 after 18 turns: R2's king of hearts fits P1 (what the page used to word)."""
    game = Game(1)
    for _ in range(18):
        move = game.position.forced_move()
        assert move is not None
        game.push(move)
    pos = game.position
    assert hint_text(pos, "en") == "Hint: play the king of hearts from reserve 2 onto pile 1"
    assert hint_text(pos, "ru") == "Подсказка: положите короля червей с места 2 нижнего ряда на кучку 1"
    brief = table_summary(pos, "en", "brief")
    assert brief.startswith("Building pile 1, 1 of 13, needs a king. Kings in sight: reserve 2 (king of hearts)"), brief
    assert "Stock: 70 cards" in brief and brief.endswith("3 redeals left.")
    assert "on the piles" in table_summary(pos, "en") and "on the piles" not in brief
    assert table_summary(pos, "ru", "brief").startswith(
        "Собирается кучка 1, 1 из 13, ждёт карту: король. На виду короли: ")
    assert review_words(pos, "P1", "en")[2] == f"pile 1, 1 of 13, bottom to top: {card_name(pos.piles[0][0], 'en')}."
    assert review_words(pos, "P2", "en")[2] == "pile 2: empty."
    assert review_words(pos, "waste", "en")[1][0] == card_name(pos.waste[-1], "en")
    assert len(review_words(pos, "rows", "en")[1]) == 16
    assert "сверху вниз" in review_words(pos, "waste", "ru")[2]


def test_the_hint_never_names_a_card_still_face_down() -> None:
    pos = Position.deal(1)
    assert hint_text(pos, "en", "brief") == "Hint: turn the stock"
    assert "nothing fits" in hint_text(pos, "en")
    game = Game(1)
    while (move := game.position.forced_move()) is not None and move.kind != "play":
        game.push(move)
    assert move is not None and move.source is not None
    card = game.position.card_at(move.source)
    assert card is not None
    assert card_name(card, "en") in hint_text(game.position, "en") and "onto pile" in hint_text(game.position, "en")


def test_a_review_of_something_else_is_refused() -> None:
    with pytest.raises(ValueError):
        review_words(Position.deal(1), "R1", "en")


def test_the_page_words_none_of_it_itself() -> None:
    """No page module builds these sentences: their catalog keys are the server's alone."""
    for path in JS.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        for key in ("say.hint.play", "say.hint.turn", "say.summary.building", "say.summary.where", "say.review.pile",
                    "say.review.waste", "say.review.rows"):
            assert f'"{key}' not in text, (path.name, key)
    assert "api.words(" in (JS / "tablewords.js").read_text(encoding="utf-8")
    for module in ("review.js", "view.js"):
        assert "withWords(" in (JS / module).read_text(encoding="utf-8"), module
