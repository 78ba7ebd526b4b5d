"""The record and notation readers on hostile text: only the project's own errors.

Whatever the text, ``game_from_record``, ``position_from_text`` and
``Variant.from_token`` either succeed or raise a ``FirstLastError`` subclass (a
``RecordError`` or an ``InvalidPositionError``; ``ValueError`` for ``from_token``,
its documented error) — never a plain ``ValueError`` from ``int()`` of 5,000 digits,
an ``IndexError``, a ``KeyError``, an ``OverflowError`` or a ``RecursionError``.
The first tests pin the defects QA measured; the Hypothesis tests look for more.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firstlast.engine import MAX_REDEALS, Game, Position, Variant, position_from_text
from firstlast.engine.cards import CARDS, MAX_DIGITS, Card, next_rank, parse_whole
from firstlast.engine.errors import FirstLastError, InvalidNotationError, InvalidPositionError, RecordError
from firstlast.engine.notation import position_to_text, validate
from firstlast.engine.record import game_from_record, record_to_text

HUGE = "9" * 5000  # over Python's 4,300-digit limit for int()


def _record(deal: int) -> str:
    game = Game(deal)
    game.autoplay()
    return record_to_text(game, date="2026-11-29")


RECORD = _record(1)  # lost after 310 moves, 4 passes
SHORT_RECORD = _record(3)


def _positions() -> list[str]:
    out = [str(Position.deal(1)), str(Position.deal(2**64 - 1, Variant(None, True, False)))]
    game = Game(5, Variant(redeals=None, waste_playable=True))
    for i in range(200):
        if game.position.status != "playing":
            break
        game.step()
        if i % 40 == 39:
            out.append(str(game.position))
    return out


POSITIONS = _positions()
START = POSITIONS[0]


# ------------------------------------------------------------------ parse_whole


def test_parse_whole_bounds_digits_before_int() -> None:
    assert parse_whole("0") == 0 and parse_whole("007") == 7
    assert parse_whole("18446744073709551615", 2**64 - 1) == 2**64 - 1
    assert parse_whole("0" * 5000 + "12") == 12  # leading zeros are not digits that count
    assert parse_whole("1" + "0" * (MAX_DIGITS - 1)) == 10 ** (MAX_DIGITS - 1)
    for bad in (HUGE, "1" + "0" * MAX_DIGITS, "18446744073709551616", "", "-1", "+1", "1_0", " 1", "٣", "５", "²"):
        with pytest.raises(ValueError) as info:
            parse_whole(bad, 2**64 - 1 if bad == "18446744073709551616" else None)
        assert "\n" not in str(info.value) and len(str(info.value)) < 200


# ---------------------------------------------------------- records: huge numbers


@pytest.mark.parametrize(("change", "line", "message"), [
    (lambda t: t.replace('[Deal "1"]', f'[Deal "{HUGE}"]'), 4, "Deal must be a whole number"),
    (lambda t: t.replace('[Deal "1"]', '[Deal "18446744073709551616"]'), 4, "Deal must be a whole number"),
    (lambda t: t.replace('[Redeals "3"]', f'[Redeals "{HUGE}"]'), 5, "Redeals must be unlimited or a whole number"),
    (lambda t: t.replace("\n11. turn", f"\n{HUGE}. turn", 1), 14, "move number 9999"),
    (lambda t: t.replace("\n11. turn", f"\n0{HUGE}. turn", 1), 14, "move number 0999"),
    (lambda t: t.replace("\n11. turn", "\n11 turn", 1), 14, "starts with its first move's number and a dot"),
    (lambda t: t.replace("\n11. turn", "\n11. " + "turn" * 3000, 1), 14, "not a move"),
])
def test_huge_numbers_in_records_are_record_errors(change: Callable[[str], str], line: int, message: str) -> None:
    # Regression: each of these escaped as Python's own ValueError ("Exceeds the limit
    # (4300 digits) for integer string conversion"), a traceback in `firstlast replay`.
    with pytest.raises(RecordError) as info:
        game_from_record(change(RECORD))
    assert info.value.line == line and message in str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_records_hold_the_redeal_counts_new_games_may_have() -> None:
    # Records hold 0…MAX_REDEALS redeals or unlimited (the cap of new games); the writer
    # refuses a game past it rather than write a record that does not read back.
    for redeals in (0, MAX_REDEALS, None):
        game = game_from_record(record_to_text(Game(7, Variant(redeals))))
        assert game.variant.redeals == redeals and len(game) == 0
    for redeals in (MAX_REDEALS + 1, 10 ** (MAX_DIGITS - 1)):
        with pytest.raises(ValueError, match=f"at most {MAX_REDEALS} redeals"):
            record_to_text(Game(7, Variant(redeals)))


def test_a_byte_order_mark_is_not_part_of_the_record() -> None:
    # Regression: a record saved by a Windows editor was "line 2: header after the moves began".
    game = game_from_record("\ufeff" + RECORD)
    assert game.deal == 1 and len(game) == 310


# -------------------------------------------------------- notation: huge numbers, piles


def _fields(text: str) -> list[str]:
    return text.split(" ")


def _with_field(text: str, i: int, value: str) -> str:
    fields = _fields(text)
    fields[i] = value
    return " ".join(fields)


@pytest.mark.parametrize(("field", "value", "message"), [
    (5, HUGE, "redeals used must be a whole number"),
    (5, "٣", "character U+0663 is not part of position notation"),
    (5, "007", "no leading zero"),
    (6, "r" + HUGE, "redeals: number too large"),
    (6, "r" + HUGE + "wn", "redeals: number too large"),
])
def test_huge_numbers_in_notation_are_invalid_position_errors(field: int, value: str, message: str) -> None:
    # Regression: int() of 5,000 digits escaped as a plain ValueError.
    with pytest.raises(InvalidPositionError) as info:
        position_from_text(_with_field(START, field, value))
    assert message in str(info.value) and len(str(info.value)) < 300


def test_a_huge_but_allowed_redeal_count_round_trips() -> None:
    pos = position_from_text(_with_field(_with_field(START, 5, "1" + "0" * 3000), 6, "ru"))
    assert pos.redeals_used == 10**3000 and position_from_text(str(pos)) == pos


def _pile_of(base: Card, count: int, pool: list[Card]) -> list[Card]:
    """``count`` cards of ``pool`` (taken out of it): R4's ranks up from ``base``, then any."""
    pile: list[Card] = []
    rank = base.rank
    for _ in range(count):
        rank = next_rank(rank)
        card = next((c for c in pool if c.rank == rank), pool[0]) if len(pile) < 12 else pool[0]
        pool.remove(card)
        pile.append(card)
    return pile


@pytest.mark.parametrize("extra", [1, 2, 5])
def test_a_pile_holds_at_most_13_cards(extra: int) -> None:
    # Regression: only pile[:12] was checked, so a 14-card P1 under its base was accepted.
    start = Position.deal(1)
    pool = list(start.stock)
    base = start.first[0]
    assert base is not None
    pile = _pile_of(base, 13 + extra, pool)
    pos = Position(start.first, start.reserve, tuple(pool), (), (tuple(pile),) + ((),) * 7, 0, start.rng,
                   start.variant)
    text = position_to_text(pos)
    with pytest.raises(InvalidPositionError, match="a pile holds at most 13"):
        position_from_text(text)
    with pytest.raises(InvalidPositionError, match=f"P1 holds {13 + extra} cards, but a pile holds at most 13"):
        validate(pos)  # positions built in code, not read from text
    # The same cards as a legal 12-card pile are accepted: the pile's length is the fault.
    ok_pile = pile[:12]
    ok = Position(start.first, start.reserve, tuple(pool) + tuple(pile[12:]), (), (tuple(ok_pile),) + ((),) * 7,
                  0, start.rng, start.variant)
    assert position_from_text(position_to_text(ok)) == ok


@pytest.mark.parametrize("word", [
    "-000000000000001",  # int(w, 16) read a negative word
    "0x00000000000001", "+000000000000001", "0000_00000000001", "٣000000000000001", "00000000000000０1",
])
def test_rng_words_are_hex_digits_only(word: str) -> None:
    # Regression: int(w, 16) took signs, '0x', '_' and other scripts' digits, so a
    # position was read that it cannot write back (a negative generator word).
    rng = _fields(START)[7].split(".")
    rng[1] = word
    with pytest.raises(InvalidNotationError, match=r"rng: expected four 16-digit|not part of position notation"):
        position_from_text(_with_field(START, 7, ".".join(rng)))
    rng[1] = "abcdef0123456789"  # lower-case hex, as written
    assert position_from_text(_with_field(START, 7, ".".join(rng))).rng[1] == 0xABCDEF0123456789
    rng[1] = "ABCDEF0123456789"  # upper case would give the same state a second text
    with pytest.raises(InvalidNotationError, match="lower-case hex"):
        position_from_text(_with_field(START, 7, ".".join(rng)))


def test_overlong_card_fields_are_refused_before_reading() -> None:
    with pytest.raises(InvalidPositionError, match="more than 104 cards"):
        position_from_text(_with_field(START, 3, "Ac" * 100_000))
    with pytest.raises(InvalidPositionError, match="a pile holds at most 13"):
        position_from_text(_with_field(START, 2, "Ac" * 50_000 + "///////"))


# ------------------------------------------------------------------- fuzzing

NUMBERS = (HUGE, "0" * 5000 + "1", "1" + "0" * 4400, "18446744073709551616", "18446744073709551615", "٣", "５",
           "²", "-1", "1_000", "0x10", "", "00", "4294967296", "9223372036854775808")
ALPHABET = st.sampled_from(list('[]" .\n\r\t#/-0123456789turnedalRFWwAcdhsTJQKCDHSxyz٣５²\ufeff\x00')
                           + ["\ud800", "\udfff"])  # a lone surrogate: text no UTF-8 writer writes


def _only_own_errors(parse: Callable[[str], object], text: str) -> None:
    """``parse(text)`` succeeds or raises a FirstLastError whose words can be written
    (UTF-8: a lone surrogate of the text is never echoed raw); anything else fails the test."""
    try:
        parse(text)
    except FirstLastError as e:
        str(e).encode("utf-8")


def _variant_token(text: str) -> object:
    try:
        return Variant.from_token(text)
    except ValueError as e:  # its documented error: must still be one short line
        assert type(e) is ValueError and "\n" not in str(e) and len(str(e)) < 300
        raise FirstLastError(str(e)) from None


PARSERS: tuple[Callable[[str], object], ...] = (game_from_record, position_from_text, _variant_token)


@st.composite
def edited_lines(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few line edits: delete, duplicate, swap, replace a number, insert or cut."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(("delete", "duplicate", "swap", "number", "insert", "cut", "junk")))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "number":
            runs = list(re.finditer(r"[0-9]+", lines[i]))
            if runs:
                m = draw(st.sampled_from(runs))
                lines[i] = lines[i][:m.start()] + draw(st.sampled_from(NUMBERS)) + lines[i][m.end():]
        elif op == "insert":
            lines.insert(i, draw(st.text(ALPHABET, max_size=40)))
        elif op == "cut":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        else:
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + draw(st.text(ALPHABET, min_size=1, max_size=8)) + lines[i][pos:]
    out = "\n".join(lines)
    if draw(st.booleans()):
        out = out[:draw(st.integers(0, len(out)))]  # a truncated file
    if draw(st.booleans()):
        out = "\ufeff" + out
    return out


@st.composite
def edited_notation(draw: st.DrawFn) -> str:
    """A valid position with a field or two changed: numbers, cards moved, cut or junk."""
    fields = _fields(draw(st.sampled_from(POSITIONS)))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(fields) - 1))
        op = draw(st.sampled_from(("number", "cut", "junk", "card", "pile", "drop", "variant")))
        f = fields[i]
        if op == "number":
            fields[i] = draw(st.sampled_from(NUMBERS))
        elif op == "cut":
            fields[i] = f[:draw(st.integers(0, len(f)))]
        elif op == "junk":
            pos = draw(st.integers(0, len(f)))
            fields[i] = f[:pos] + draw(st.text(ALPHABET, min_size=1, max_size=6)) + f[pos:]
        elif op == "card":  # move a card token from one field to another
            j = draw(st.integers(0, min(4, len(fields) - 1)))
            token = draw(st.sampled_from(CARDS)).token
            fields[j] = (fields[j] if fields[j] != "-" else "") + token
        elif op == "pile" and len(fields) > 2:  # cards piled on, sometimes too many
            piles = fields[2].split("/")
            k = draw(st.integers(0, len(piles) - 1))
            piles[k] += "".join(c.token for c in draw(st.lists(st.sampled_from(CARDS), max_size=16)))
            fields[2] = "/".join(piles)
        elif op == "drop" and len(fields) > 1:
            del fields[i]
        elif len(fields) > 6:
            fields[6] = draw(st.sampled_from(("r" + HUGE, "ru", "r0w", "r3wn", "r", "r-1", "r٣", "rU", "r1000000")))
    return " ".join(fields)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=300) | st.text(ALPHABET, max_size=300)
       | st.text(st.characters(codec=None, categories=["Cs", "Nd", "Lu", "Zs"]), max_size=60))
def test_arbitrary_text_gives_only_our_errors(text: str) -> None:
    for parse in PARSERS:
        _only_own_errors(parse, text)


@FUZZ
@given(edited_lines(SHORT_RECORD))
def test_edited_records_give_only_record_errors(text: str) -> None:
    try:
        game = game_from_record(text)
    except RecordError as e:
        assert "\n" not in str(e)
        return
    assert game.deal >= 0  # an edit that keeps the record valid (a comment, a blank line …)


@settings(max_examples=40, deadline=None)
@given(edited_lines(RECORD))
def test_edited_long_records_give_only_record_errors(text: str) -> None:
    _only_own_errors(game_from_record, text)


@FUZZ
@given(edited_notation())
def test_edited_notation_gives_only_invalid_position_errors(text: str) -> None:
    try:
        pos = position_from_text(text)
    except InvalidPositionError as e:
        assert "\n" not in str(e) and len(str(e)) < 400
        return
    assert str(pos) == text  # whatever is accepted is exactly what the writer writes


@FUZZ
@given(st.sampled_from(POSITIONS), st.sampled_from(NUMBERS), st.integers(0, 7))
def test_any_field_replaced_by_a_strange_number(text: str, number: str, field: int) -> None:
    _only_own_errors(position_from_text, _with_field(text, field, number))


@pytest.mark.parametrize("what", ["piles", "first", "reserve"])
def test_validate_wants_eight_places_everywhere(what: str) -> None:
    # Regression: a Position built in code with nine piles ended in an IndexError.
    start = Position.deal(1)
    first, reserve, piles = start.first, start.reserve, start.piles
    if what == "piles":
        piles = ((),) * 9
    elif what == "first":
        first, reserve = (*first, reserve[0]), reserve[1:] + (None,)
    else:
        reserve = (*reserve, first[0])
        first = (None, *first[1:])
    pos = Position(first, reserve, start.stock, (), piles, 0, start.rng, start.variant)
    with pytest.raises(InvalidPositionError, match="must each have 8 places"):
        validate(pos)
