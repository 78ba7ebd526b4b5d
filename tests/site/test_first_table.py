"""The first visit's table (docs/site.md, "Loading"): made at build time by the app the
site runs, for the welcome deal, in both languages; a deal that comes out."""

from __future__ import annotations

import json
import re
from pathlib import Path

from firstlast.engine import Game
from firstlast.play.deals import WELCOME_DEAL
from firstlast.play.settings import Settings
from firstlast.site.build import FIRST_ID, FIRST_TIME, first_table

ELEMENT = re.compile(r'<script type="application/json" id="site-first-table">(.*?)</script>', re.S)


def test_the_welcome_deal_comes_out_under_the_books_rules() -> None:
    game = Game(WELCOME_DEAL)
    game.autoplay()
    assert game.position.status == "won"


def test_the_page_holds_the_table_the_app_deals(site_dir: Path) -> None:
    found = ELEMENT.findall((site_dir / "index.html").read_text(encoding="utf-8"))
    assert len(found) == 1 and "<" not in found[0]
    first = json.loads(found[0])
    assert first == json.loads(json.dumps(first_table()))  # the same bytes each build
    assert first["id"] == FIRST_ID and first["deal"] == {"how": "number", "deal": str(WELCOME_DEAL), "variant": "r3"}
    assert first["settings"] == Settings().to_json()
    en, ru = first["tables"]["en"], first["tables"]["ru"]
    for table in (en, ru):
        assert (table["id"], table["created"], table["updated"]) == (FIRST_ID, FIRST_TIME, FIRST_TIME)
        assert table["deal"] == str(WELCOME_DEAL) and table["moves"] == 0 and table["status"] == "playing"
    # The same cards; the words in each language.
    assert {k: v for k, v in en.items() if k not in ("refusals", "hint")} == \
        {k: v for k, v in ru.items() if k not in ("refusals", "hint")}
    assert en["refusals"] != ru["refusals"]
