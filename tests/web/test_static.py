"""Checks of the shipped front end that need no browser: both languages define the same
strings, every string the page asks for exists, every file the page loads is shipped,
and the art licence and the book's text are there. (tests/web/test_e2e.py drives the
page itself in Chromium.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "web" / "static"
# The book's text as the spec gives it, kept beside the tests.
SPEC = Path(__file__).parent.parent / "data" / "seed-ru.txt"


def _language_keys(lang: str) -> set[str]:
    src = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    block = re.search(rf"\n  {lang}: \{{\n(.*?)\n  \}},\n", src, re.S)
    assert block, f"no {lang} block in i18n.js"
    # Drop the string literals first, so that a colon inside a text is not read as a key.
    body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', block.group(1))
    return set(re.findall(r"(?:^|[\s,{])(\w+):", body))


def test_both_languages_have_the_same_strings() -> None:
    en, ru = _language_keys("en"), _language_keys("ru")
    assert len(en) > 100
    assert en - ru == set(), "strings missing in Russian"
    assert ru - en == set(), "strings missing in English"


def _used_keys() -> set[str]:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'data-i18n(?:-title|-aria)?="(\w+)"', html))
    for name in ("app.js", "stats.js", "help.js"):
        js = (STATIC / "js" / name).read_text(encoding="utf-8")
        keys |= set(re.findall(r'\bt\("(\w+)"', js))
    return keys


def test_every_string_used_is_defined() -> None:
    used = _used_keys()
    assert {"title", "undo", "won_title", "pile_needs"} <= used
    missing = used - _language_keys("en")
    assert missing == set(), f"strings used but not defined: {sorted(missing)}"


def test_every_file_the_page_loads_is_shipped() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    paths = set(re.findall(r'(?:href|src)="/static/([^"]+)"', html))
    for name in ("app.js", "help.js", "stats.js"):
        js = (STATIC / "js" / name).read_text(encoding="utf-8")
        paths |= {m.replace("${getLang()}", lang) for m in re.findall(r"/static/([\w/.${}()-]+)", js)
                  for lang in ("en", "ru")}
        paths |= {f"js/{m}" for m in re.findall(r'from "\./([\w.]+)"', js)}
    assert {"css/table.css", "js/app.js", "help/rules-ru.html", "help/seed-ru.txt"} <= paths
    for p in paths:
        assert (STATIC / p).is_file(), f"index.html or the scripts load {p}, which is not shipped"


def test_help_covers_every_rule_in_both_languages() -> None:
    for lang in ("en", "ru"):
        text = (STATIC / "help" / f"rules-{lang}.html").read_text(encoding="utf-8")
        for rule in [f"R{i}" for i in range(1, 12)] + ["V1", "V2", "V3"]:
            assert f"<dt>{rule} ·" in text, f"rules-{lang}.html does not explain {rule}"


def test_art_licence_and_book_text_are_shipped() -> None:
    licence = (STATIC / "LICENSE-art.md").read_text(encoding="utf-8")
    assert "MIT" in licence and "our" in licence
    book = (STATIC / "help" / "seed-ru.txt").read_text(encoding="utf-8")
    assert "Первые и последние" in book
    assert book == SPEC.read_text(encoding="utf-8")
    tui_book = STATIC.parents[1] / "tui" / "data" / "seed-ru.txt"
    assert tui_book.read_text(encoding="utf-8") == book


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_russian_indices_in_card_art(lang: str) -> None:
    cards = (STATIC / "js" / "cards.js").read_text(encoding="utf-8")
    expected = {"en": '"A", "2"', "ru": '"Т", "2"'}[lang]
    assert f"{lang}: [{expected}" in cards
    assert '"В", "Д", "К"' in cards and '"10"' in cards


def test_hover_looks_only_for_hovering_pointers() -> None:
    """On touch screens :hover sticks to the last tapped button, which then looks pressed
    (found in QA on a tablet): every :hover rule sits in an @media (hover: hover) block."""
    css = (STATIC / "css" / "table.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    depth, guarded, bad = 0, [], []
    for m in re.finditer(r"[^{}]*\{|\}", css):
        tok = m.group(0).strip()
        if tok == "}":
            depth -= 1
            if guarded and guarded[-1] == depth:
                guarded.pop()
            continue
        if tok.startswith("@media") and "hover: hover" in tok:
            guarded.append(depth)
        elif ":hover" in tok and not guarded:
            bad.append(tok.strip())
        depth += 1
    assert depth == 0
    assert bad == [], f":hover outside @media (hover: hover): {bad}"
