"""The table in words (``i18n.table``): the hint, the table's summary and a place's
review say in the terminal what the page says (``web/static/js/words.js``): both are
run on the same positions, in both languages, and must agree word for word."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import msgspec
import pytest

from firstlast.engine import Game, Position, Variant
from firstlast.i18n import LANGS, card_name
from firstlast.i18n.table import REVIEW_PLACES, hint_text, pile_review, table_summary
from firstlast.play import GameStore, PlayService, command
from firstlast.web import shapes

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tools" / "js" / "test" / "words-runner.js"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("FIRSTLAST_NO_SKIP"):
            raise RuntimeError("node is not installed: the page's words cannot be compared")
        pytest.skip("node is not installed")
    return found


def positions(tmp_path: Path) -> list[tuple[dict[str, object], Position]]:
    """Games at many moments (the deal, mid-game, the end, a won game, the waste playable,
    unlimited redeals, no privilege): the state the page is sent, in each language, and
    the position. The state is taken at once (a stored game's moves go on)."""
    play = PlayService(GameStore(tmp_path / "games.sqlite3"))
    player = play.local_player()
    out: list[tuple[dict[str, object], Position]] = []
    for deal, variant, steps in ((1, Variant(), (0, 1, 18, 30, 60, 120, 400)), (7, Variant(), (0, 50, 1000)),
                                 (1285, Variant(), (5, 40, 500)), (3, Variant(redeals=None, waste_playable=True),
                                                                   (10, 90)), (5, Variant(privileged_last=False),
                                                                               (25, 300))):
        stored = play.start(player, "number", deal, variant)
        done = 0
        for n in steps:
            if n > done:
                stored = play.act(player, stored.id, command("step", n - done), stored.version).stored
                done = n
            states = {lang: msgspec.to_builtins(shapes.state(stored, lang)) for lang in LANGS}  # type: ignore[arg-type]
            out.append((states, stored.game.position))
    return out


def test_the_terminal_says_what_the_page_says(tmp_path: Path) -> None:
    cases = positions(tmp_path)
    lines = []
    for states, _ in cases:
        for lang in LANGS:
            lines.append(json.dumps({"lang": lang, "state": states[lang]}))
    run = subprocess.run([node(), str(RUNNER), str(ROOT)], input="\n".join(lines), capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    answers = [json.loads(x) for x in run.stdout.splitlines() if x.strip()]
    assert len(answers) == len(lines)
    i = 0
    for _, pos in cases:
        for lang in LANGS:
            page = answers[i]
            i += 1
            assert hint_text(pos, lang) == page["hint"]
            assert hint_text(pos, lang, "brief") == page["hint_brief"]
            assert table_summary(pos, lang) == page["summary"]
            assert table_summary(pos, lang, "brief") == page["summary_brief"]
            assert set(page["reviews"]) == set(REVIEW_PLACES)
            for place in REVIEW_PLACES:
                assert pile_review(pos, place, lang) == page["reviews"][place], (place, lang)


def test_the_hint_never_names_a_card_still_face_down() -> None:
    pos = Position.deal(1)
    assert hint_text(pos, "en", "brief") == "Hint: turn the stock"
    game = Game(1)
    while (move := game.position.forced_move()) is not None and move.kind != "play":
        game.push(move)
    assert move is not None and move.source is not None
    card = game.position.card_at(move.source)
    assert card is not None
    assert card_name(card, "en") in hint_text(game.position, "en") and "onto pile" in hint_text(game.position, "en")


def test_a_review_of_something_else_is_refused() -> None:
    with pytest.raises(ValueError):
        pile_review(Position.deal(1), "R1", "en")
