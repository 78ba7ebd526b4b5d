"""The message catalogs: both languages say the same things, and every string a face
looks up is there (docs/i18n.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from firstlast.engine import REDEAL, Game, Move
from firstlast.engine.errors import REFUSALS, InvalidMoveError
from firstlast.i18n import (
    GRAMMAR,
    LANGS,
    catalog,
    file_error_text,
    fill,
    invalid_text,
    number,
    placeholders,
    plural,
    plural_category,
    rank_name,
    t,
)

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "firstlast" / "web" / "static"


def _has(lang: str, key: str) -> bool:
    """``key`` itself, or a family of keys under it (``keys`` → ``keys.turn.key`` …): the
    page's arrays became one flat key per element."""
    cat = catalog(lang)
    return key in cat or any(k.startswith(key + ".") for k in cat)


def _meanings(lang: str) -> set[str]:
    """The keys of ``lang`` with each family's forms (``.one/.few/.many``, a rank's
    ``.acc``, ``.a`` …) folded into the family: what both catalogs must share."""
    grammar, out = GRAMMAR[lang], set()
    for key in catalog(lang):
        family, _, form = key.rpartition(".")
        rank_form = key.startswith("rank.") and key.count(".") == 2 and form in grammar.rank_forms
        out.add(family if form in grammar.plurals or rank_form else key)
    return out


def test_both_catalogs_have_the_same_meanings() -> None:
    en, ru = _meanings("en"), _meanings("ru")
    assert en - ru == set(), "missing in ru.json"
    assert ru - en == set(), "missing in en.json"
    assert len(en) > 400


#: English that stands under two keys because the Russian says two things (checked:
#: the Russian texts differ): the reason for each.
SAME_ENGLISH: dict[str, str] = {
    "{n} already here": "a plural family: Russian agrees the verb (была / были)",
    "{n} redeal": "the short variant label puts the count last (перекладок 1)",
    "{n} redeals": "the short variant label puts the count last (перекладок 3)",
    "waste": "the odds table's column head is cut short (сбор.)",
    "Hint": "the phone's short toolbar label (Совет)",
    "Undo": "the phone's short toolbar label (Отмена)",
    "New": "the terminal's key bar names a new deal, feminine (Новая), the page a new game (Новый)",
    "Next deal": "the terminal's end bar is short (Следующая)",
    "Play again": "the terminal's end bar is short (Ещё раз)",
    "Restart": "the confirmation's button says the whole verb (Начать заново)",
    "off": "the speed setting 0 says no animation (без анимации), a toggle off (выкл.)",
    "Redeal": "the key bar's noun (Перекладка), the table's verb (Переложить)",
    "{reason}": "the import's and the move's frames differ (файл не прочитан / ход не понят)",
    "Next": "the side bar's next move (Ход), the tour's next step (Далее)",
    "deal {deal}": "the confirmation takes the genitive (раскладки)",
    "unlimited": "the odds table writes ∞",
    "Waste": "the terminal's key bar is short (Сборная)",
    "won": "the terminal's statistics column counts the cards (104)",
}


def test_every_sentence_once() -> None:
    """One key per sentence (issue 25.4): no English text stands under two keys, the
    forms a language lacks are not written out (English has no ``.few`` and no cases,
    Russian no article), and what a face shows in the same words takes the same key."""
    by_text: dict[str, list[str]] = {}
    for key, text in catalog("en").items():
        by_text.setdefault(text, []).append(key)
    repeated = {text: keys for text, keys in by_text.items() if len(keys) > 1}
    assert {text: keys for text, keys in repeated.items() if text not in SAME_ENGLISH} == {}
    # Each pair left says different things in Russian: the reason is kept beside it.
    for text in SAME_ENGLISH:
        assert text in repeated, f"{text!r} is no longer repeated: drop it from SAME_ENGLISH"
        assert len({catalog("ru")[k] for k in repeated[text]}) == len(repeated[text]), repeated[text]


@pytest.mark.parametrize("key", sorted(k for k in catalog("ru") if not k.startswith(("error.", "refusal."))))
def test_same_placeholders_in_both_languages(key: str) -> None:
    # Refusals are said by the server alone (i18n.error_text): their parameters are
    # declared (tests/i18n/test_error_codes.py, test_every_refusal_code_has_both_sentences).
    # A form English lacks is compared with the English that stands for it.
    family, _, form = key.rpartition(".")
    en = key if key in catalog("en") else f"{family}.{GRAMMAR['en'].other}" if form in GRAMMAR["ru"].plurals else family
    assert placeholders(catalog("ru")[key]) == placeholders(catalog("en")[en]), key


def test_no_empty_strings_and_no_stray_braces() -> None:
    for lang in LANGS:
        for key, text in catalog(lang).items():
            if key != "list.join":
                assert text.strip(), (lang, key)
            # Every brace belongs to a {name} placeholder: the page fills them with one regex.
            assert re.sub(r"\{\w+\}", "", text).count("{") == 0, (lang, key)
            assert re.sub(r"\{\w+\}", "", text).count("}") == 0, (lang, key)


def test_plural_families_are_complete() -> None:
    families = {k.rsplit(".", 1)[0] for lang in LANGS for k in catalog(lang)
                if k.rsplit(".", 1)[-1] in ("one", "few", "many")}
    assert families, "no plural keys at all"
    for lang in LANGS:
        keys = set(catalog(lang))
        for family in families:
            present = {form for form in ("one", "few", "many") if f"{family}.{form}" in keys}
            assert present == set(GRAMMAR[lang].plurals), (lang, family)


@pytest.mark.parametrize(("n", "ru", "en"), [
    (0, "many", "many"), (1, "one", "one"), (2, "few", "many"), (4, "few", "many"), (5, "many", "many"),
    (11, "many", "many"), (12, "many", "many"), (14, "many", "many"), (21, "one", "many"), (22, "few", "many"),
    (41, "one", "many"), (111, "many", "many"), (112, "many", "many"), (1001, "one", "many"),
])
def test_plural_categories(n: int, ru: str, en: str) -> None:
    assert plural_category("ru", n) == ru
    assert plural_category("en", n) == en


def test_plural_renders_the_count() -> None:
    assert plural("ru", "announce.cards", 3, **{"from": "из колоды", "onto": "на сборную кучку"}) == \
        "3 карты из колоды на сборную кучку"
    assert plural("en", "variant.redeals", 1) == "1 redeal"
    assert plural("en", "variant.redeals", 3) == "3 redeals"
    assert plural("ru", "variant.redeals", 5) == "5 перекладок"


def test_numbers_are_written_as_the_language_writes_them() -> None:
    """Russian groups digits with a no-break space and writes a decimal comma, as the
    page's toLocaleString("ru") does; English keeps "1,001" and "25.5" (regression:
    Russian sentences said "1,001 игра" and "520,103 игр/с")."""
    nb = "\u00a0"
    assert [number(1001, "en"), number(1001, "ru")] == ["1,001", f"1{nb}001"]
    assert [number(2**64 - 1, "en"), number(2**64 - 1, "ru")] == [f"{2**64 - 1:,}", f"{2**64 - 1:,}".replace(",", nb)]
    assert [number(520103.4, "en", 0), number(1234.5, "ru", 2)] == ["520,103", f"1{nb}234,50"]
    assert number(7, "ru", 1) == "7,0"
    assert [number(999, lang) for lang in LANGS] == ["999"] * len(LANGS)
    # plural() writes its count so itself: no caller passes n=f"{n:,}" any more.
    assert plural("ru", "count.games", 1001) == f"1{nb}001 игра"
    assert plural("en", "count.games", 1001) == "1,001 games"
    assert file_error_text("too_large", "x", 65536, "ru", os_error=None).endswith(f"(больше 65{nb}536 байт)")
    assert file_error_text("too_large", "x", 65536, "en", os_error=None).endswith("(over 65,536 bytes)")


def test_a_form_the_language_lacks_is_the_nominative() -> None:
    assert [rank_name(12, "en", "acc"), rank_name(12, "en", article=True)] == ["queen", "a queen"]
    assert [rank_name(12, "ru", "acc"), rank_name(12, "ru", article=True)] == ["даму", "дама"]
    # An article where the language has one, else the case asked for.
    assert [rank_name(12, lang, "acc", article=True) for lang in ("en", "ru")] == ["a queen", "даму"]


def test_missing_key_or_parameter_is_an_error_never_english() -> None:
    # The page's render() throws alike (tools/js/test/format.test.js).
    with pytest.raises(KeyError):
        t("ru", "no.such.key")
    with pytest.raises(KeyError):
        t("en", "deal_n")  # {n} not given
    with pytest.raises(ValueError, match="no catalog"):
        catalog("de")
    assert fill("{a}-{b}", {"a": 1, "b": "x"}) == "1-x"


def test_catalog_is_read_only() -> None:
    with pytest.raises(TypeError):
        catalog("en")["title"] = "x"  # type: ignore[index]


def test_every_refusal_code_has_both_sentences() -> None:
    for code, names in REFUSALS.items():
        for lang in LANGS:
            # Each placeholder is a declared parameter, in words or as its label ({pile_label}).
            used = {p.removesuffix("_label") for p in placeholders(catalog(lang)[f"refusal.{code}"])}
            assert used <= set(names), (code, lang)
    refusal_keys = {k.removeprefix("refusal.") for k in catalog("en") if k.startswith("refusal.")}
    assert refusal_keys == set(REFUSALS)


# ---------------------------------------------------------------- the page
def _page_literal_keys() -> set[str]:
    """Keys the page's scripts look up with a literal: ``t("key")``."""
    keys: set[str] = set()
    for path in (STATIC / "js").glob("*.js"):
        keys |= set(re.findall(r"(?<![\w.$])t\(\s*\"([\w.]+)\"", path.read_text(encoding="utf-8")))
    return keys


def test_the_page_looks_keys_up_with_literals() -> None:
    # The scan itself must see the page's lookups, or the next test proves nothing.
    assert {"pile_needs", "deal_n", "won_title", "st_none"} <= _page_literal_keys()


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_the_page_uses_exists(lang: str) -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'data-i18n(?:-[\w-]+)?="([^"]+)"', html))
    assert len(used) > 40
    used |= _page_literal_keys()
    missing = sorted(k for k in used if not _has(lang, k))
    assert missing == []


def test_the_page_keeps_no_copy_of_the_strings() -> None:
    """The page loads the catalogs (``/i18n/{lang}.json``): no string table and no
    Russian words of its own in its scripts."""
    js = STATIC / "js"
    scripts = sorted(js.glob("*.js"))
    assert len(scripts) > 10
    # Cyrillic that is not a string to translate: the generated files, made from Python
    # (the letters of the Russian keyboard layout in the key map, the catalogs' rank
    # indices for the card faces).
    allowed = {"vocabulary.js"}
    for path in scripts:
        text = path.read_text(encoding="utf-8")
        # The old string table was ``const STR``; ``const STREAM_GAP`` is a number.
        assert not re.search(r"\bconst STR\b", text) and "RULE_RU" not in text, path.name
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)  # comments may quote Russian
        if path.name not in allowed:
            assert not re.search("[А-Яа-яЁё]", code), path.name


def test_page_keys_table_and_rank_names_moved() -> None:
    """Every action of the one table of keys says what it does in both languages (the
    keys themselves are written by the table, not the catalog)."""
    from firstlast.play.actions import ACTIONS

    ids = {k.split(".")[1] for k in catalog("en") if k.startswith("keys.") and k.endswith(".does")}
    assert ids == {a.id for a in ACTIONS}
    assert not [k for k in catalog("en") if k.startswith("keys.") and k.endswith(".key")]
    assert [t("ru", f"rank.{r}") for r in (1, 10, 12, 13)] == ["туз", "десятка", "дама", "король"]


def test_faces_key_prefixes() -> None:
    keys = set(catalog("en"))
    assert sum(k.startswith("tui.") for k in keys) > 100
    assert sum(k.startswith("cli.") for k in keys) > 80


# ---------------------------------------------------------------- syntax errors
ENGINE = ROOT / "src" / "firstlast" / "engine"


def _engine_syntax_codes() -> set[str]:
    """Every code an ``InvalidMoveError`` is raised with: the string literals the engine
    passes it (``"move.syntax"``, ``"move.source"`` …), read from its source."""
    codes: set[str] = set()
    for path in ENGINE.glob("*.py"):
        codes |= set(re.findall(r"\"((?:move|place)\.[a-z_]+)\"", path.read_text(encoding="utf-8")))
    return codes


def _raised_syntax_errors() -> list[InvalidMoveError]:
    """One real error of every kind, raised by the engine itself."""
    pos = Game(1).position
    attempts: list[Callable[[], object]] = [
        lambda: Move.parse("xyz"), lambda: Move("play", "P1"), lambda: Move("turn", "R1"),
        lambda: Move("jump"),  # type: ignore[arg-type]
        lambda: pos.apply(Move.parse("turn"), shuffle=[0]),
    ]
    g = Game(1)  # up to its first redeal, whose shuffle must order the whole waste
    while g.position.forced_move() != REDEAL:
        g.step()
    attempts.append(lambda: g.position.apply(REDEAL, shuffle=[0, 0]))
    errors: list[InvalidMoveError] = []
    for attempt in attempts:
        with pytest.raises(InvalidMoveError) as info:
            attempt()
        errors.append(info.value)
    return errors


def test_every_syntax_error_code_has_both_sentences() -> None:
    codes = _engine_syntax_codes()
    assert {"move.syntax", "move.source", "move.kind"} <= codes  # the scan sees them
    invalid_keys = {k.removeprefix("invalid.") for k in catalog("en") if k.startswith("invalid.")}
    for lang in LANGS:
        for code in codes:
            assert f"invalid.{code}" in catalog(lang), (lang, code)
    # No key for a code the engine no longer raises (beyond a code's parameter variants).
    assert {k for k in invalid_keys if k not in codes and k.rsplit(".", 1)[0] not in codes} == set()


def test_every_raised_syntax_error_is_worded_from_its_code_and_params() -> None:
    errors = _raised_syntax_errors()
    assert {e.code for e in errors} == _engine_syntax_codes()  # every code, raised for real
    for e in errors:
        for lang in LANGS:
            text = invalid_text(e.code, e.params, lang)
            assert text and "{" not in text
            for value in e.params.values():
                assert str(value) in text, (e.code, lang)
    syntax = next(e for e in errors if e.code == "move.syntax")
    assert invalid_text(syntax.code, syntax.params, "ru") == \
        "это не ход: «xyz» (ходы: turn, redeal, R1–R8, F1–F8 или waste)"
    with pytest.raises(KeyError):
        invalid_text("move.syntax", {}, "en")  # its {text} missing: no half sentence
    with pytest.raises(KeyError):
        invalid_text("move.nope", {}, "ru")


# ---------------------------------------------------------------- one language rule
def test_one_language_rule() -> None:
    """Which language a tag names and the switch's other language are declared once
    (``i18n.lang_of_tag``, ``other_lang``; the page's ``langOf``/``otherLang`` in lang.js
    read the generated ``LANGS``): the command line's locale goes through the same rule."""
    from firstlast.cli.lang import lang_from_env
    from firstlast.i18n import DEFAULT_LANG, lang_of_tag, other_lang

    assert [lang_of_tag(x) for x in ("ru", "ru_RU.UTF-8", "RU-ru", "en-GB", "C", "", None, "rus")] == \
        ["ru", "ru", "ru", "en", None, None, None, None]
    assert {other_lang(lang) for lang in LANGS} == set(LANGS) and other_lang("ru") == "en"
    assert lang_from_env({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}) == DEFAULT_LANG
    assert lang_from_env({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert lang_from_env({"FIRSTLAST_LANG": "ru", "LANG": "en_US.UTF-8"}) == "ru"


def test_the_page_decides_no_language_rule_and_no_r5() -> None:
    """Outside lang.js (the one renderer) and the generated modules, the page compares
    no language by name, picks no plural by arithmetic and counts no pile for R5 (the
    state's ``need_card`` says the base)."""
    for path in sorted((STATIC / "js").glob("*.js")):
        if path.name in ("lang.js", "vocabulary.js"):
            continue
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.S)
        assert not re.search(r"""[!=]==?\s*["'](ru|en)["']|["'](ru|en)["']\s*[!=]==?""", code), path.name
        assert not re.search(r"%\s*10\b", code), f"{path.name}: a plural rule"
        assert not re.search(r"(length|\bn)\s*===?\s*12\b", code), f"{path.name}: R5 counted"
