"""Position notation is read exactly as docs/notation.md writes it, and nothing looser.

The reader takes what ``position_to_text`` writes, character for character: single ASCII
spaces, upper-case ranks, the suit's case for the deck, lower-case hex, numbers without
leading zeros. Everything else is an ``InvalidNotationError`` (bad syntax), never read
as something close to it; and every text the writer makes reads back to itself.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firstlast.cli.main import main
from firstlast.engine import (
    CARDS,
    MAX_DEAL,
    Card,
    Game,
    InvalidNotationError,
    InvalidPositionError,
    Position,
    Variant,
    position_from_text,
    position_to_text,
)

START = str(Position.deal(1))


def _field(i: int, change: Callable[[str], str]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        fields = text.split(" ")
        fields[i] = change(fields[i])
        return " ".join(fields)

    return edit


def _later() -> str:
    """A position with an empty waste pile between cards (piles, stock, waste all used)."""
    game = Game(5, Variant(redeals=None, waste_playable=True))
    for _ in range(120):
        game.step()
    return str(game.position)


LATER = _later()


@pytest.mark.parametrize(("change", "words"), [
    pytest.param(lambda t: t.replace(" ", "\t", 1), "U+0009", id="tab"),
    pytest.param(lambda t: t.replace(" ", "  ", 1), "single spaces", id="two spaces"),
    pytest.param(lambda t: " " + t, "single spaces", id="leading space"),
    pytest.param(lambda t: t + " ", "single spaces", id="trailing space"),
    pytest.param(lambda t: t + "\n", "U+000A", id="line end"),
    pytest.param(lambda t: t.replace(" ", "\r\n", 1), "U+000D", id="CRLF"),
    pytest.param(lambda t: t.replace(" ", "\u00a0", 1), "U+00A0", id="NBSP"),
    pytest.param(lambda t: t.replace(" ", "\u2003", 1), "U+2003", id="em space"),
    pytest.param(lambda t: t.replace(" ", "\u2028", 1), "U+2028", id="line separator"),
    pytest.param(lambda t: "\ufeff" + t, "U+FEFF", id="BOM"),
    pytest.param(lambda t: "", "8 space-separated fields", id="empty"),
    pytest.param(lambda t: t.rsplit(" ", 1)[0], "8 space-separated fields", id="seven fields"),
    pytest.param(_field(0, lambda f: f[:1].lower() + f[1:]), "not a card", id="lower-case rank"),
    pytest.param(_field(0, lambda f: "th" + f[2:]), "not a card", id="th for Th"),
    pytest.param(_field(7, str.upper), "lower-case hex", id="upper-case hex"),
    pytest.param(_field(7, lambda f: "0x" + f[2:]), "lower-case hex", id="0x"),
    pytest.param(_field(5, lambda f: "0" + f), "no leading zero", id="redeals used 00"),
    pytest.param(_field(5, lambda f: "+0"), "U+002B", id="redeals used +0"),
    pytest.param(_field(6, lambda f: "r03"), "is written 'r3'", id="variant r03"),
    pytest.param(_field(6, lambda f: "R3"), "not a variant", id="variant R3"),
    pytest.param(_field(2, lambda f: "-" + f), "an empty pile is written as nothing", id="a dash for an empty pile"),
    pytest.param(_field(4, lambda f: ""), "single spaces", id="an empty waste as nothing"),
])
def test_anything_but_the_written_form_is_bad_syntax(change: Callable[[str], str], words: str) -> None:
    text = change(START)
    with pytest.raises(InvalidNotationError) as info:
        position_from_text(text)
    assert words in str(info.value), str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_a_position_that_cannot_occur_is_not_a_syntax_error() -> None:
    # Two aces of clubs of deck 1 (E6): readable notation, impossible position.
    text = START.replace(START[:2], "Ac", 1) if not START.startswith("Ac") else START.replace("Ad", "Ac", 1)
    with pytest.raises(InvalidPositionError) as info:
        position_from_text(text)
    assert type(info.value) is InvalidPositionError and "E6" in str(info.value)


def test_card_tokens_take_the_written_case_only() -> None:
    for card in CARDS:
        assert Card.from_token(card.token) is card
    for bad in ("th", "tH", "aS", "1c", "Tx", "T", "Thh", "", "Ｔh", "Tſ"):
        with pytest.raises(ValueError, match="not a card"):
            Card.from_token(bad)


def test_the_variant_and_empty_places_read_as_written() -> None:
    for text in (START, LATER):
        assert position_to_text(position_from_text(text)) == text
    assert "//" in LATER or LATER.split(" ")[2].endswith("/")  # empty piles are written as nothing


variants = st.builds(Variant, redeals=st.one_of(st.none(), st.integers(0, 5), st.just(10**30)),
                     waste_playable=st.booleans(), privileged_last=st.booleans())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, MAX_DEAL), variants, st.integers(0, 400))
def test_every_written_position_reads_back_to_its_own_text(deal: int, variant: Variant, steps: int) -> None:
    game = Game(deal, variant)
    for _ in range(steps):
        if game.position.status != "playing":
            break
        game.step()
    text = position_to_text(game.position)
    pos = position_from_text(text)
    assert pos == game.position and position_to_text(pos) == text


blank = st.sampled_from(["\t", "\n", "\r", "\x0b", "\x0c", "\x85", "\u00a0", "\u1680", "\u2000", "\u2003",
                         "\u2009", "\u200b", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", "  "])


@settings(max_examples=80, deadline=None)
@given(blank, st.integers(0, 6))
def test_no_other_blank_separates_fields(sep: str, at: int) -> None:
    fields = START.split(" ")
    text = " ".join(fields[:at + 1]) + sep + " ".join(fields[at + 1:])
    with pytest.raises(InvalidNotationError):
        position_from_text(text)


@pytest.mark.parametrize("text", [START.replace(" ", "\t", 1), START + "\n", START.replace("A", "a", 1)])
def test_odds_position_refuses_what_the_reader_refuses(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    # The one face that reads notation typed by a person: a usage error, one line.
    assert main(["odds", "--samples", "10", "--position", text]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "--position" in err
