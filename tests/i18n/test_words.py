"""Cards, places, refusals, announcements, variants and help, in both languages."""

from __future__ import annotations

import itertools
from importlib import resources
from pathlib import Path
from typing import get_args

import pytest

from firstlast.engine import MAX_REDEALS, Game, Variant
from firstlast.engine.cards import CARDS, Card
from firstlast.engine.errors import REFUSALS, IllegalMoveError
from firstlast.engine.places import Place
from firstlast.engine.position import Movement
from firstlast.i18n import (
    LANGS,
    PlaceForm,
    announce,
    book_text,
    card_name,
    describe_variant,
    help_markdown,
    ordinal,
    place_name,
    rank_name,
    refusal_text,
    t,
)
from firstlast.play.actions import help_html

PLACES = ("stock", "waste", *(f"{k}{i}" for k in "FRP" for i in range(1, 9)))


def c(token: str) -> Card:
    return Card.from_token(token)


def mv(token: str, source: str, target: str, face_up: bool = True) -> Movement:
    return Movement(c(token), Place(source), Place(target), face_up)


@pytest.mark.parametrize("lang", LANGS)
def test_all_52_cards_have_distinct_full_names(lang: str) -> None:
    names = [card_name(card, lang) for card in CARDS[:52]]
    assert len(set(names)) == 52
    # Both decks read alike: the deck shows only on the back.
    assert [card_name(card, lang) for card in CARDS[52:]] == names
    assert all(name == name.strip() and "{" not in name for name in names)


@pytest.mark.parametrize(("token", "en", "ru"), [
    ("Qh", "queen of hearts", "дама червей"), ("Td", "ten of diamonds", "десятка бубен"),
    ("4s", "four of spades", "четвёрка пик"), ("Ac", "ace of clubs", "туз треф"),
    ("KS", "king of spades", "король пик"), ("Jd", "jack of diamonds", "валет бубен"),
])
def test_card_names(token: str, en: str, ru: str) -> None:
    assert card_name(c(token), "en") == en
    assert card_name(token, "ru") == ru


def test_rank_cases() -> None:
    assert rank_name(12, "ru", "acc") == "даму"
    assert rank_name(1, "ru", "acc") == "туза"
    assert rank_name(13, "ru", "gen") == "короля"
    assert rank_name(12, "ru", article=True) == "дама"
    assert rank_name(12, "en", "acc") == "queen"
    assert [rank_name(r, "en", article=True) for r in (1, 8, 11, 12)] == ["an ace", "an eight", "a jack", "a queen"]
    for rank in range(1, 14):
        assert card_name(CARDS[rank - 1], "ru", "acc").startswith(rank_name(rank, "ru", "acc") + " ")
    assert [rank_name(r, "ru", "pl") for r in (1, 10, 11, 12, 13)] == ["тузы", "десятки", "валеты", "дамы", "короли"]
    assert [rank_name(r, "en", "pl") for r in (1, 6, 10, 12)] == ["aces", "sixes", "tens", "queens"]
    with pytest.raises(ValueError):
        rank_name(14, "en")


@pytest.mark.parametrize(("n", "en", "ru"), [
    (1, "1st", "1-я"), (2, "2nd", "2-я"), (3, "3rd", "3-я"), (4, "4th", "4-я"), (11, "11th", "11-я"),
    (12, "12th", "12-я"), (13, "13th", "13-я"), (21, "21st", "21-я"), (22, "22nd", "22-я"), (40, "40th", "40-я"),
    (101, "101st", "101-я"), (111, "111th", "111-я"),
])
def test_ordinals_of_a_card(n: int, en: str, ru: str) -> None:
    assert ordinal(n, "en") == en
    assert ordinal(n, "ru") == ru  # карта: feminine, whatever the number


@pytest.mark.parametrize("lang", LANGS)
def test_every_place_has_every_form(lang: str) -> None:
    for form in get_args(PlaceForm):
        names = [place_name(p, lang, form) for p in PLACES]
        assert len(set(names)) == len(PLACES), (lang, form)
    with pytest.raises(ValueError):
        place_name("W", lang)  # the waste's old name is the engine's to read, in old records alone
    with pytest.raises(ValueError):
        place_name("P9", lang)
    with pytest.raises(ValueError):
        place_name("R", lang)


@pytest.mark.parametrize(("place", "en", "ru"), [
    ("P1", "pile 1", "кучка 1"), ("R2", "reserve 2", "место 2 нижнего ряда"),
    ("F8", "first row 8", "место 8 верхнего ряда"), ("waste", "the waste", "сборная кучка"),
    ("stock", "the stock", "колода"),
])
def test_place_names(place: str, en: str, ru: str) -> None:
    assert place_name(place, "en") == en
    assert place_name(place, "ru") == ru


def test_place_phrases() -> None:
    assert place_name("waste", "ru", "at") == "в сборной кучке"
    assert place_name("R3", "ru", "at") == "на месте 3 нижнего ряда"
    assert place_name("P2", "en", "at") == "on pile 2"
    assert place_name("waste", "ru", "from") == "со сборной кучки"
    assert place_name("P3", "ru", "onto") == "на кучку 3"
    assert place_name("stock", "en", "from") == "from the stock"


# ---------------------------------------------------------------- refusals
#: A value for each parameter a refusal may carry (``REFUSALS`` names them).
_VALUES: dict[str, str | int] = {"card": "8s", "pile": "P1", "need": 12, "source": "F1", "place": "R3", "base": "F2"}
#: ... as the words say them.
_WORDS = {"en": {"card": "eight of spades", "need": "a queen"}, "ru": {"card": "восьмёрка пик", "need": "дама"}}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_is_said_in_words(code: str, lang: str) -> None:
    """Every refusal of the rules, in both languages: cards and the needed rank in
    words (never ``8s``), the rule named, nothing left unfilled."""
    rule, names = code.partition(".")[0], REFUSALS[code]
    params = {name: _VALUES[name] for name in names}
    text = refusal_text(code, params, lang)
    assert text and "{" not in text and f"({rule}" in text, text
    assert "8s" not in text, text  # a card is never in notation
    for name in names:
        if name in _WORDS[lang]:
            assert str(_WORDS[lang][name]) in text, (name, text)
    if lang == "en":  # English names the places in words too ("pile 1", "reserve 3")
        for name in set(names) & {"pile", "place", "source", "base"}:
            assert place_name(str(params[name]), "en") in text, (name, text)


def test_a_rank_refusal_in_both_languages() -> None:
    params = {"card": "8s", "pile": "P1", "need": 12}
    assert refusal_text("R4.rank", params, "en") == "the eight of spades does not fit pile 1, which needs a queen (R4)"
    assert refusal_text("R4.rank", params, "ru") == "восьмёрка пик не подходит: на кучку P1 идёт только дама (R4)"
    assert refusal_text("R4.rank", {"card": "Ac", "pile": "P2", "need": 1}, "en") == \
        "the ace of clubs does not fit pile 2, which needs an ace (R4)"
    assert refusal_text("R6.empty", {"place": "waste"}, "en") == "the waste is empty (R6)"
    assert refusal_text("R6.empty", {"place": "waste"}, "ru") == "сборная кучка: здесь нет карты (R6)"


def test_refusals_of_real_games() -> None:
    seen: set[str] = set()
    game = Game(1)
    for move in ("R1", "F8", "waste", "redeal", "F1"):
        with pytest.raises(IllegalMoveError) as info:
            game.push(move)
        e = info.value
        seen.add(e.code)
        assert set(e.params) == set(REFUSALS[e.code])
        assert str(e).startswith(e.code)  # the exception says the code and parameters, language-free
        for lang in LANGS:
            assert refusal_text(e.code, e.params, lang)
    assert len(seen) >= 3


def test_unknown_refusal_code() -> None:
    with pytest.raises(KeyError):
        refusal_text("R99.nope", {}, "ru")


def test_every_error_is_said_by_one_renderer() -> None:
    """The play layer's refusals say the engine's refusal behind them in words, in
    English (their ``str``) and in Russian."""
    from firstlast.i18n import error_text
    from firstlast.play import PlayError

    e = PlayError("move.illegal", rule="R4", move="R1", refusal="R4.rank", card="8s", pile="P1", need=12)
    assert str(e) == "the eight of spades does not fit pile 1, which needs a queen (R4)"
    assert error_text(e.code, e.params, "ru") == "восьмёрка пик не подходит: на кучку P1 идёт только дама (R4)"
    b = PlayError("backup.game", n=2, deal="7", move=3, token="R1", reason="R4.rank", rule="R4", refusal="R4.rank",
                  card="8s", pile="P1", need=12)
    assert str(b) == "move 3 (R1) does not replay: the eight of spades does not fit pile 1, which needs a queen (R4)"


# ---------------------------------------------------------------- announcements
PLAY = (mv("Qh", "R2", "P1"), mv("4s", "waste", "R2"))
REDEAL = tuple(Movement(CARDS[i], Place.WASTE, Place.STOCK, face_up=False) for i in range(41))


@pytest.mark.parametrize(("movements", "en", "ru"), [
    ((mv("Td", "stock", "waste"),), "ten of diamonds turned onto the waste",
     "десятка бубен из колоды на сборную кучку"),
    ((mv("Qc", "stock", "P1"),), "queen of clubs turned onto pile 1", "дама треф из колоды на кучку 1"),
    (PLAY, "queen of hearts from reserve 2 onto pile 1; reserve 2 refilled with the four of spades",
     "дама червей с места 2 нижнего ряда на кучку 1; место 2 нижнего ряда занимает четвёрка пик"),
    ((mv("Kd", "F8", "P3"), mv("2c", "stock", "F8")),
     "king of diamonds from first row 8 onto pile 3; first row 8 refilled with the two of clubs",
     "король бубен с места 8 верхнего ряда на кучку 3; место 8 верхнего ряда занимает двойка треф"),
    ((mv("5h", "F2", "P2"),), "five of hearts from first row 2 onto pile 2",
     "пятёрка червей с места 2 верхнего ряда на кучку 2"),
    ((mv("9s", "waste", "P4"),), "nine of spades from the waste onto pile 4",
     "девятка пик со сборной кучки на кучку 4"),
    (REDEAL, "redeal: 41 cards shuffled into the stock", "перекладка: 41 карта перетасована в колоду"),
    (REDEAL[:3], "redeal: 3 cards shuffled into the stock", "перекладка: 3 карты перетасованы в колоду"),
    (REDEAL[:1], "redeal: 1 card shuffled into the stock", "перекладка: 1 карта перетасована в колоду"),
    ((), "nothing moved", "ничего не сдвинулось"),
])
def test_announce(movements: tuple[Movement, ...], en: str, ru: str) -> None:
    assert announce(movements, "en") == en
    assert announce(movements, "ru") == ru


def test_announce_undo() -> None:
    back = tuple(m.reversed() for m in reversed(PLAY))
    assert announce(back, "en", undo=True) == \
        "undone: four of spades from reserve 2 onto the waste; queen of hearts from pile 1 onto reserve 2"
    assert announce(back, "ru", undo=True) == ("отменено: четвёрка пик с места 2 нижнего ряда на сборную кучку; "
                                              "дама червей с кучки 1 на место 2 нижнего ряда")
    unredeal = tuple(m.reversed() for m in reversed(REDEAL))
    assert announce(unredeal, "en", undo=True) == "undone: 41 cards from the stock onto the waste"
    assert announce(unredeal, "ru", undo=True) == "отменено: 41 карта из колоды на сборную кучку"
    unturn = (mv("Td", "stock", "waste").reversed(),)
    assert announce(unturn, "en", undo=True) == "undone: ten of diamonds from the waste onto the stock"


def test_announce_every_step_of_a_whole_game() -> None:
    game = Game(7)
    game.autoplay()
    for step in game.steps:
        for lang in LANGS:
            text = announce(step.movements, lang)
            assert text and "{" not in text
            if step.move.kind == "redeal":
                assert text.startswith(t(lang, "announce.redeal.one", n=1).split(":")[0] + ": ")


# ---------------------------------------------------------------- variants
@pytest.mark.parametrize("variant", [
    Variant(r, wp, priv)
    for r, wp, priv in itertools.product((0, 1, 2, 3, 5, 21, MAX_REDEALS, None), (False, True), (True, False))
])
def test_describe_variant(variant: Variant) -> None:
    assert describe_variant(variant, "en") == variant.describe()
    assert describe_variant(variant, "ru")


def test_describe_variant_in_russian() -> None:
    assert describe_variant(Variant(), "ru") == "3 перекладки, последняя карта идёт на любую кучку"
    assert describe_variant(Variant(21, True, False), "ru") == \
        "21 перекладка, сборная кучка в игре, последняя карта не идёт на другие кучки"


# ---------------------------------------------------------------- help and the book
@pytest.mark.parametrize("lang", LANGS)
def test_help_names_every_rule_and_the_chance(lang: str) -> None:
    html = help_html(lang)
    for n in range(1, 12):
        assert f"R{n} ·" in html, f"R{n}"
    for v in ("V1", "V2", "V3"):
        assert v in html
    assert "<h2>" in html
    assert "95 %" in html  # the chance figure's interval is explained
    assert help_markdown(lang).startswith("# ")


def test_help_html_passes_no_raw_html(monkeypatch: pytest.MonkeyPatch) -> None:
    from firstlast.play import actions

    keys = '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[x](javascript:alert(1))'
    monkeypatch.setattr(actions, "keys_markdown", lambda lang: keys)
    out = help_html("en")
    assert "<script" not in out and "<img" not in out and 'href="javascript' not in out
    assert "&lt;script&gt;" in out


def test_help_unknown_language() -> None:
    with pytest.raises(ValueError):
        help_html("de")


def test_the_book_once() -> None:
    text = book_text()
    assert "Первые и последние" in text and "сборную кучку" in text
    # The one copy in the package is the reprint kept with the tests (tests/data/seed-ru.txt);
    # the terminal's former copy is gone: its help reads ``book_text()``.
    spec = Path(__file__).resolve().parents[1] / "data" / "seed-ru.txt"
    # Every face gets the reprint's words but its section name, the title first.
    assert text.split() == spec.read_text(encoding="utf-8").split()[1:]
    assert "Библиотека" not in text and text.startswith("Первые и последние\n\nПасьянс")
    assert [p.strip() for p in text.split("\n\n")] == text.rstrip().split("\n\n")
    assert not resources.files("firstlast.tui").joinpath("data", "seed-ru.txt").is_file()
