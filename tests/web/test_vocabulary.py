"""The page says what the server says and decides no rule (issue 18): it renders no
refusal of its own, and what it needs of the game's vocabulary is generated from the
engine, never retyped."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "web" / "static" / "js"


def _scripts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(JS.glob("*.js"))}


def test_the_page_renders_no_refusal() -> None:
    """Refusals are said by the server alone (``i18n.error_text``): the page shows the
    ``text`` of an error body and looks up no ``refusal.*`` or ``error.*`` sentence."""
    scripts = _scripts()
    assert "err.text" in scripts["controller.js"] and "this.text" in scripts["api.js"]
    for name, js in scripts.items():
        assert not re.search(r"[`\"']refusal\.", js), f"{name} words a refusal itself"
        assert not re.search(r"[`\"']error\.\$?\{?", js), f"{name} words an error itself"
        assert "refusalText" not in js and "parseCard" not in js, name


# ---------------------------------------------------------------------------- the vocabulary
def test_the_generated_vocabulary_is_fresh() -> None:
    from firstlast.web import vocabulary

    assert vocabulary.MODULE.read_text(encoding="utf-8") == vocabulary.module(), (
        "run: python -m firstlast.web.generated")


def test_the_vocabulary_is_the_engines() -> None:
    """What the page is given is what the engine declares; its token grammar reads
    every token the engine writes, and the same way."""
    from firstlast.engine import MAX_REDEALS, PLACE_NAMES, Variant
    from firstlast.engine.errors import REFUSALS
    from firstlast.engine.position import TABLE_MOVES
    from firstlast.play import START_KINDS
    from firstlast.web.vocabulary import names

    v = names()
    assert v["PLACES"] == list(PLACE_NAMES) and v["TABLE_MOVES"] == list(TABLE_MOVES) and "W" not in v["TABLE_MOVES"]
    assert v["MAX_REDEALS"] == MAX_REDEALS and set(v["REFUSALS"]) == set(REFUSALS)  # type: ignore[arg-type]
    assert len(START_KINDS) == 6 and "winnable" in START_KINDS
    token = re.compile(str(v["VARIANT_TOKEN"]))
    for redeals in (0, 1, 3, 999, MAX_REDEALS, None):
        for waste in (False, True):
            for privileged in (False, True):
                variant = Variant(redeals, waste, privileged)
                m = token.fullmatch(variant.token)
                assert m is not None and Variant.from_token(variant.token) == variant
                assert (m[1] == "u") == (redeals is None) and bool(m[2]) == waste and (not m[3]) == privileged
    assert token.fullmatch("r10000") is None and token.fullmatch("rx") is None


def test_no_face_retypes_the_vocabulary() -> None:
    """The grammar of a variant token, the canonical rules, the waste's old name and the
    rules of what a press does are declared once (engine; play.view): the page imports
    them from the generated module or reads them from the state, and no Python face
    declares them again."""
    scripts = {name: js for name, js in _scripts().items() if name != "vocabulary.js"}
    for name, js in scripts.items():
        assert not re.search(r"[\"'`]W[\"'`]", js), f"{name}: the waste's old name"
        assert "w?n?" not in js and "(w?)" not in js and r"(\d+|u)" not in js, f"{name}: the variant token's grammar"
        assert not re.search(r"redeals\s*===?\s*3", js), f"{name}: the canonical rules"
        assert "[0-9]{1,20}" not in js, f"{name}: the deal number's digits"
    model = scripts["model.js"]
    for rule in ('place[0] === "R"', '=== "F8"', "waste_playable", 'privileged === '):
        assert rule not in model, f"model.js decides what a press does ({rule})"
    assert 'from "./vocabulary.js"' in model and 'from "./vocabulary.js"' in scripts["i18n.js"]
    src = JS.parents[2]
    for path in src.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(src).as_posix()
        if rel != "engine/variant.py":
            assert "w?n?" not in text and "(w?)" not in text, f"{rel}: the variant token's grammar"
        if rel != "play/deals.py":
            assert 'Literal["number", "random"' not in text, f"{rel}: the start kinds"
        if rel not in ("engine/places.py",):
            assert not re.search(r"""(?<![\w/])["']W["']""", text), f"{rel}: the waste's old name"
        if rel not in ("engine/variant.py", "play/settings.py"):
            assert "def parse_redeals" not in text, f"{rel}: a second redeals reader"


def test_one_redeals_reader_with_one_limit() -> None:
    """``engine.parse_redeals`` is the one reader (the play layer only words its
    refusal): unlimited by its words, else 0…MAX_REDEALS, the cap every stored game keeps."""
    import pytest

    from firstlast.engine import MAX_REDEALS, parse_redeals
    from firstlast.play import PlayError
    from firstlast.play.settings import parse_redeals as play_redeals

    for text in ("unlimited", " U ", "∞", "Unlimited"):
        assert parse_redeals(text) is None and play_redeals(text) is None
    assert parse_redeals("0") == 0 and parse_redeals(f" {MAX_REDEALS} ") == MAX_REDEALS == play_redeals("1000")
    for bad in ("inf", str(MAX_REDEALS + 1), "-1", "５", "1_0", "", "9" * 5000):
        with pytest.raises(ValueError):
            parse_redeals(bad)
        with pytest.raises(PlayError) as info:
            play_redeals(bad)
        assert info.value.code == "variant.redeals"


def test_what_a_press_does_is_the_play_layers() -> None:
    """``play.view.TableView.pressable`` says which cards answer a press (the page only
    reads it): legal plays, every reserve card, the privileged card, the waste's top under V2."""
    from firstlast.engine import Game, Variant, places
    from firstlast.play.view import table_view

    game = Game(1)  # P1 needs a queen: nothing fits, turn
    pos = game.position
    assert set(table_view(game).pressable) == set(places.RESERVE) | (
        {places.FIRST[-1]} if pos.privileged is not None else set())
    game = Game(1, Variant(waste_playable=True))
    game.push("turn")
    assert places.WASTE in table_view(game).pressable
    canonical = Game(1)
    canonical.push("turn")
    assert places.WASTE not in table_view(canonical).pressable  # R6: no source here
    over = Game(1)
    over.autoplay()
    assert table_view(over).pressable == ()  # R11: nothing answers a press at the end
