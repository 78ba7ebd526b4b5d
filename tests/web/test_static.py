"""Checks of the shipped front end that need no browser: both languages define the same
strings, every string the page asks for exists, every file the page loads is shipped,
and the art licence and the book's text are there. (tests/web/test_e2e.py drives the
page itself in Chromium.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from firstlast.i18n import GRAMMAR, LANGS

STATIC = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "web" / "static"
# The book's text as the spec gives it, kept beside the tests.
SPEC = Path(__file__).parent.parent / "data" / "seed-ru.txt"


CATALOGS = STATIC.parents[1] / "i18n"


def _language_keys(lang: str) -> set[str]:
    """The keys of a language's catalog, which the page fetches (GET /i18n/{lang}.json)."""
    data = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return set(data)


def test_the_page_keeps_no_copy_of_the_strings() -> None:
    """One catalog per language (docs/i18n.md): i18n.js loads it, and holds no table of
    its own (the old STR and RULE_RU)."""
    src = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    assert "/i18n/${lang}.json" in src
    for gone in ("const STR", "RULE_RU", "Первые и последние", "First and Last"):
        assert gone not in src, f"i18n.js still holds {gone!r}"


def _scripts() -> list[Path]:
    """Every module of the page (docs/page.md), the entry point among them."""
    scripts = sorted((STATIC / "js").glob("*.js"))
    assert STATIC / "js" / "app.js" in scripts and len(scripts) > 10
    return scripts


def _used_keys(lang: str = "ru") -> set[str]:
    """Every key the page names: data-i18n attributes, t("key"), plural("key") (its
    family: the forms of ``lang``'s grammar), and t(cond ? "a" : "b")."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'data-i18n(?:-title|-aria)?="([\w.]+)"', html))
    for path in _scripts():
        js = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'\bt\("([\w.]+)"', js))
        for a, b in re.findall(r'\bt\([\w. ]+(?:===|!==)[^?]*\? "([\w.]+)" : "([\w.]+)"', js):
            keys |= {a, b}
        for family in re.findall(r'\bplural\("([\w.]+)"', js):
            keys |= {f"{family}.{form}" for form in GRAMMAR[lang].plurals}
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_string_used_is_defined(lang: str) -> None:
    used = _used_keys(lang)
    assert {"title", "undo", "won_title", "pile_needs", "changed", "only_active", "replay_step", "aria.pile.needs",
            "aria.stock.many", "share_bad", "confirm_new_ok", "redeal_hint"} <= used
    missing = used - _language_keys(lang)
    assert missing == set(), f"strings used but not defined: {sorted(missing)}"


def test_every_file_the_page_loads_is_shipped() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    # Relative addresses (the static site may live under a sub-path: docs/site.md).
    paths = set(re.findall(r'(?:href|src)="(?:/)?static/([^"]+)"', html))
    assert not re.findall(r'(?:href|src)="/static/', html), "absolute /static/ addresses break the site"
    for path in _scripts():
        js = path.read_text(encoding="utf-8")
        paths |= {m.replace("${getLang()}", lang) for m in re.findall(r"/static/([\w/.${}()-]+)", js)
                  for lang in ("en", "ru")}
        paths |= {f"js/{m}" for m in re.findall(r'(?:from|import) "\./([\w.]+)"', js)}
    assert {"css/table.css", "js/app.js", "js/controller.js", "js/model.js"} <= paths
    for p in paths:
        assert (STATIC / p).is_file(), f"index.html or the scripts load {p}, which is not shipped"


def test_every_module_is_loaded_from_the_entry_point_without_cycles() -> None:
    """The page's modules (docs/page.md) hang together from app.js: none is shipped and
    left unloaded, and none imports a module that imports it back (layers, not a knot).
    (api-types.d.ts, the API's generated typedefs, is read by the type check only.)"""
    imports = {p.name: set(re.findall(r'^import[^;]*? from "\./([\w.]+)";', p.read_text(encoding="utf-8"), re.M | re.S))
               for p in _scripts()}
    # transport.js loads site.js itself, and only on the static site (``await import``).
    assert 'await import("./site.js")' in (STATIC / "js" / "transport.js").read_text(encoding="utf-8")
    imports["transport.js"].add("site.js")
    seen, todo = set(), ["app.js"]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imports[name])
    assert set(imports) - seen == set()

    def cycle(name: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        if name in path:
            return (*path, name)
        return next((c for dep in sorted(imports[name]) if (c := cycle(dep, (*path, name)))), None)

    assert cycle("app.js", ()) is None, f"modules import each other: {cycle('app.js', ())}"
    assert (STATIC / "js" / "api-types.d.ts").is_file()


def test_help_covers_every_rule_in_both_languages() -> None:
    """The page shows the server's help (GET /help/{lang}, play.actions.help_html)."""
    from firstlast.play import actions

    for lang in ("en", "ru"):
        text = actions.help_html(lang)
        for rule in [f"R{i}" for i in range(1, 12)] + ["V1", "V2", "V3"]:
            assert rule in text, f"the {lang} help does not explain {rule}"
    help_js = (STATIC / "js" / "help.js").read_text(encoding="utf-8")
    assert "/help/${getLang()}" in help_js


def test_art_licence_and_book_text_are_shipped() -> None:
    licence = (STATIC / "LICENSE-art.md").read_text(encoding="utf-8")
    assert "MIT" in licence and "our" in licence
    # The book's text is shipped once (i18n.book_text): the page reads it at /book.txt,
    # the terminal and the command line from the package.
    book = (CATALOGS / "seed-ru.txt").read_text(encoding="utf-8")
    assert "Первые и последние" in book
    assert book == SPEC.read_text(encoding="utf-8")
    assert not (STATIC / "help").exists()
    assert 'fetchText("/book.txt")' in (STATIC / "js" / "help.js").read_text(encoding="utf-8")


def test_russian_indices_in_card_art() -> None:
    """The card art draws the catalogs' indices (rank.N.short), generated into vocabulary.js."""
    assert "RANK_INDICES[lang]" in (STATIC / "js" / "cards.js").read_text(encoding="utf-8")
    vocabulary = (STATIC / "js" / "vocabulary.js").read_text(encoding="utf-8")
    assert '"ru": Object.freeze(["Т", "2"' in vocabulary and '"В", "Д", "К"' in vocabulary
    assert '"en": Object.freeze(["A", "2"' in vocabulary


def test_hover_looks_only_for_hovering_pointers() -> None:
    """On touch screens :hover sticks to the last tapped button, which then looks pressed
    (found in QA on a tablet): every :hover rule sits in an @media (hover: hover) block."""
    css = (STATIC / "css" / "table.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    depth = 0
    guarded: list[int] = []
    bad: list[str] = []
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
