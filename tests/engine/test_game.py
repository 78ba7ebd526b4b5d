"""Games: the forced line, undo/redo, golden playthroughs, the fast path, records, notation,
and the redeal as a chance event whose shuffle can be supplied from outside."""

from __future__ import annotations

import random
import re

import naive
import pytest
from golden import CASES, path_for, playthrough

from firstlast.engine import (
    MAX_DEAL,
    REDEAL,
    FirstLastError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Position,
    RecordError,
    Variant,
    play_out,
    position_from_text,
)
from firstlast.engine.record import game_from_record, record_to_text
from firstlast.engine.rng import shuffle

ALL_VARIANTS = [
    Variant(redeals, waste, privilege)
    for redeals in (0, 1, 3, None)
    for waste in (False, True)
    for privilege in (True, False)
]


@pytest.mark.parametrize(("deal", "variant"), CASES, ids=[f"{d}-{v.token}" for d, v in CASES])
def test_golden_playthroughs(deal: int, variant: Variant) -> None:
    expected = path_for(deal, variant).read_text(encoding="utf-8").splitlines()
    actual = playthrough(deal, variant)
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"line {i + 1} differs"
    assert len(actual) == len(expected)


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.token)
def test_fast_path_equals_the_move_by_move_game(variant: Variant) -> None:
    # play_forced skips the checks and the movement lists, not a single rule: it ends in
    # the very position the move-by-move game reaches. The naive rank-list reference
    # (tests/naive.py) agrees, which is what lets it stand in for the engine in the
    # kernel's long cross-checks.
    for i, deal in enumerate([MAX_DEAL, MAX_DEAL - 1, 2**63, *range(100)]):
        game = Game(deal, variant)
        game.autoplay()
        pos = game.position
        outcome = (pos.status == "won", pos.score, pos.passes)
        assert Position.deal(deal, variant).play_forced() == pos, deal
        assert naive.play_out(deal, variant) == outcome, deal
        if i < 20:
            assert play_out(deal, variant) == outcome, deal


def test_unlimited_redeals_win_every_deal() -> None:
    # The engine on a few hundred deals; the kernel checks 200,000 (tests/odds).
    unlimited = Variant(redeals=None)
    for deal in range(400):
        outcome = play_out(deal, unlimited)
        assert outcome.won and outcome.score == 104, deal


def test_illegal_moves_change_nothing_and_name_the_rule() -> None:
    game = Game(1)
    before = game.position
    with pytest.raises(IllegalMoveError) as info:
        game.push("R1")
    assert info.value.rule == "R4" and game.position == before and len(game) == 0
    with pytest.raises(InvalidMoveError):
        game.push("R9")
    with pytest.raises(InvalidMoveError):
        Move.parse("xyzzy")
    assert Move.parse(" t ") == Move("turn") and Move.parse("r3") == Move("play", "R3")
    for kind, source in (("play", "X9"), ("play", None), ("turn", "R1"), ("jump", None)):
        with pytest.raises(InvalidMoveError):
            Move(kind, source)  # type: ignore[arg-type]


def test_undo_redo_and_restart() -> None:
    game = Game(3)
    with pytest.raises(FirstLastError):
        game.undo()
    with pytest.raises(FirstLastError):
        game.redo()
    game.autoplay()
    end, n = game.position, len(game)
    last = game.steps[-1]
    movements = game.undo()
    # Undo takes the last move's cards back, last card first, each from where it went to
    # where it came from.
    assert movements and len(movements) == len(last.movements)
    assert [(m.card, m.source, m.target) for m in movements] == [
        (m.card, m.target, m.source) for m in reversed(last.movements)
    ]
    assert game.position == game.positions[-1] and len(game) == n - 1
    assert game.can_redo and game.redo_moves[0] == game.position.forced_move()
    game.redo()
    assert game.position == end
    while game.can_undo:
        game.undo()
    assert len(game) == 0 and len(game.redo_moves) == n
    # A different move clears the redo line; the same one keeps it.
    game.redo()
    assert len(game.redo_moves) == n - 1
    game.undo()
    game.push(game.redo_moves[0])
    assert len(game.redo_moves) == n - 1


def test_undo_returns_the_reverse_movements() -> None:
    game = Game(1)
    forward = game.push(game.position.legal_moves()[0])
    back = game.undo()
    assert [(m.card, m.source, m.target) for m in back] == [(m.card, m.target, m.source) for m in reversed(forward)]


def test_redeal_redo_repeats_the_same_shuffle() -> None:
    game = Game(1)
    while game.position.forced_move() != Move("redeal"):
        game.step()
    game.push("redeal")
    stock = game.position.stock
    game.undo()
    game.redo()
    assert game.position.stock == stock


def _before_redeal(deal: int, variant: Variant = Variant()) -> Position:  # noqa: B008
    """The position of ``deal`` at its first redeal along the forced line."""
    pos = Position.deal(deal, variant)
    while (m := pos.forced_move()) != REDEAL:
        assert m is not None, "the game ended before a redeal"
        pos, _ = pos.apply(m)
    return pos


def test_a_redeal_is_a_chance_event_the_deals_stream_decides_by_default() -> None:
    pos = _before_redeal(1)
    n = len(pos.waste)
    # §4.6: the waste, bottom to top, Fisher–Yates with the deal's stream; element 0 first.
    order = list(range(n))
    rng = shuffle(pos.rng, order)
    cards = list(pos.waste)
    assert shuffle(pos.rng, cards) == rng
    default, moved = pos.apply(REDEAL)
    assert default.stock == tuple(cards) == tuple(pos.waste[i] for i in order)
    assert default.rng == rng and default.waste == () and default.redeals_used == pos.redeals_used + 1
    # The same outcome supplied from outside: the same table; the deal's stream is not drawn.
    supplied, moved_too = pos.apply(REDEAL, shuffle=order)
    assert supplied.stock == default.stock and supplied.rng == pos.rng
    assert moved_too == moved and len(moved) == n
    # Any other outcome: the cards in that order, the first turned first.
    rev = list(reversed(range(n)))
    other, _ = pos.apply(REDEAL, shuffle=rev)
    assert other.stock == tuple(reversed(pos.waste))
    assert other.forced_move() is not None and other.stock[0] == pos.waste[-1]


def test_supplied_shuffles_are_checked() -> None:
    pos = _before_redeal(2)
    n = len(pos.waste)
    for bad in ([*range(n - 1)], [0, *range(n - 1)], [*range(1, n + 1)], []):
        with pytest.raises(InvalidMoveError, match="permutation"):
            pos.apply(REDEAL, shuffle=bad)
    start = Position.deal(2)
    with pytest.raises(InvalidMoveError, match="only a redeal"):
        start.apply(start.legal_moves()[0], shuffle=[0])
    with pytest.raises(IllegalMoveError):  # the move itself is judged first
        start.apply(REDEAL, shuffle=[0])


@pytest.mark.parametrize("variant", [Variant(), Variant(None, True), Variant(1, False, False)], ids=lambda v: v.token)
def test_redeals_fed_the_deals_own_shuffles_replay_the_game(variant: Variant) -> None:
    # Supplying at every redeal the outcome the stream would have drawn, and drawing the
    # stream alongside, reaches the same end as the plain game: the default is §4.6.
    for deal in (0, 1, 7, 2024):
        game = Game(deal, variant)
        game.autoplay()
        pos, stream = Position.deal(deal, variant), Position.deal(deal, variant).rng
        while (m := pos.forced_move()) is not None:
            if m == REDEAL:
                order = list(range(len(pos.waste)))
                stream = shuffle(stream, order)
                pos, _ = pos.apply(m, shuffle=order)
            else:
                pos, _ = pos.apply(m)
        assert (pos.status, pos.score, pos.passes, pos.piles) == (
            game.position.status, game.position.score, game.position.passes, game.position.piles)


def test_other_shuffles_change_the_game_not_the_rules() -> None:
    # Random outcomes for the redeals: still a legal game to its end, every card kept.
    rnd = random.Random(4)
    for deal in range(20):
        pos = Position.deal(deal, Variant(None))
        while (m := pos.forced_move()) is not None:
            order = None
            if m == REDEAL:
                order = list(range(len(pos.waste)))
                rnd.shuffle(order)
            pos, _ = pos.apply(m, shuffle=order)
        assert pos.status == "won" and pos.score == 104


def test_notation_round_trip_and_errors() -> None:
    game = Game(5, Variant(redeals=None, waste_playable=True))
    for _ in range(150):
        game.step()
    text = str(game.position)
    assert position_from_text(text) == game.position
    start = str(Position.deal(1))
    assert start.startswith("JC5dASQh9HKcJc9S 8SKH6D5H7S5c5s4H /////// ")
    bad = {
        "too few fields": "Jc5dAsQh9hKcJC9s",
        "bad card": start.replace("JC5d", "XC5d", 1),
        "duplicate": start.replace("JC", "Jc", 1),
        "bad variant": start.replace(" r3 ", " q3 "),
        "bad rng": start.rsplit(" ", 1)[0] + " 12.34",
    }
    for reason, text in bad.items():
        with pytest.raises(InvalidPositionError):
            position_from_text(text)
        assert reason


def test_record_round_trip_and_headers() -> None:
    game = Game(2**64 - 1, Variant(redeals=1, privileged_last=False))
    game.autoplay()
    text = record_to_text(game, date="2026-11-29")
    headers = dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.M))
    assert headers["Deal"] == str(2**64 - 1) and headers["Redeals"] == "1" and headers["PrivilegedLast"] == "no"
    assert headers["Result"] == game.position.status and headers["Date"] == "2026-11-29"
    again = game_from_record(text)
    assert again.moves == game.moves and again.position == game.position


@pytest.mark.parametrize(
    ("change", "line", "message"),
    [
        (lambda t: t.replace('[Score "52"]', '[Score "60"]'), 9, "Score says"),
        (lambda t: t.replace('[Result "lost"]', '[Result "won"]'), 8, "Result says"),
        (lambda t: t.replace("R2 turn", "R3 turn", 1), 14, "R4.rank"),
        (lambda t: t.replace("11. turn", "12. turn", 1), 14, "move number"),
        (lambda t: t.replace("11. turn", "11. tunr", 1), 14, "not a move"),
        (lambda t: t.replace('[Deal "1"]', '[Deal "-1"]'), 4, "Deal must be"),
        (lambda t: t.replace('[Deal "1"]', '[Deal "²"]'), 4, "Deal must be"),
        (lambda t: t.replace('[Redeals "3"]', '[Redeals "٣"]'), 5, "Redeals must be"),
        (lambda t: t.replace('[Format "firstlast-record 1"]', '[Format "chess"]'), 1, "unknown format"),
        (lambda t: t.replace('[Redeals "3"]', "[Redeals 3]"), 5, "malformed header"),
        (lambda t: t.replace('[WastePlayable "no"]', '[WastePlayable "maybe"]'), 6, "yes or no"),
        (lambda t: t + '[Extra "x"]\n', None, "header after"),
    ],
)
def test_corrupt_or_tampered_records_are_refused_with_the_line(change, line, message) -> None:  # type: ignore[no-untyped-def]
    game = Game(1)
    game.autoplay()
    text = record_to_text(game, date="2026-11-29")
    with pytest.raises(RecordError) as info:
        game_from_record(change(text))
    assert message in str(info.value)
    if line is not None:
        assert info.value.line == line


def test_records_missing_pieces() -> None:
    with pytest.raises(RecordError, match="the record is empty"):
        game_from_record("")
    with pytest.raises(RecordError, match="missing header Format"):
        game_from_record("# only a comment\n")
    with pytest.raises(RecordError, match="NUL"):
        game_from_record("\x00\x01")


def test_variant_text_takes_ascii_digits_only() -> None:
    from firstlast.engine import parse_redeals

    assert parse_redeals("3") == 3 and parse_redeals(" unlimited ") is None and parse_redeals("0") == 0
    for bad in ("５", "٣", "1_0", "-1", "", "three"):
        with pytest.raises(ValueError):
            parse_redeals(bad)
    assert Variant.from_token("r12wn") == Variant(12, True, False)
    for bad in ("r٣", "r", "r3x", "R3"):
        with pytest.raises(ValueError):
            Variant.from_token(bad)
