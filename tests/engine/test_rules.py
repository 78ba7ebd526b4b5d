"""One test per canonical rule R1–R11 and edge case E1–E6 (docs/rules.md §2, §5)."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import build, symbols

from firstlast.engine import (
    CARDS,
    REDEAL,
    TURN,
    Card,
    Game,
    IllegalMoveError,
    Move,
    Movement,
    Position,
    Variant,
    places,
)
from firstlast.engine.notation import validate
from firstlast.engine.rng import seed, shuffle


def play(pos: Position, move: str) -> tuple[Position, tuple[Movement, ...]]:
    return pos.apply(Move.parse(move))


def refused(pos: Position, move: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        pos.apply(Move.parse(move))
    return info.value


def test_r1_two_decks_104_cards_8_of_each_rank() -> None:
    assert len(CARDS) == 104 == len(set(CARDS))
    assert Counter(c.rank for c in CARDS) == {r: 8 for r in range(1, 14)}
    # §4.4 order: deck 1 then deck 2; clubs, diamonds, hearts, spades; A..K.
    assert [CARDS[i].symbol for i in (0, 12, 13, 51, 52, 103)] == ["Ac", "Kc", "Ad", "Ks", "Ac", "Ks"]
    assert [CARDS[i].deck for i in (0, 51, 52, 103)] == [1, 1, 2, 2]
    assert Card.from_token("Th") == CARDS[13 * 2 + 9] and Card.from_token("TH") == CARDS[52 + 13 * 2 + 9]


def test_r2_deal_layout_and_check_vector() -> None:
    pos = Position.deal(1)
    assert symbols(pos.first) == "Jc 5d As Qh 9h Kc Jc 9s"
    assert symbols(pos.reserve) == "8s Kh 6d 5h 7s 5c 5s 4h"
    assert len(pos.stock) == 88 and pos.waste == () and all(p == () for p in pos.piles)
    cards = list(CARDS)
    assert shuffle(seed(1), cards) == pos.rng  # the stream continues into the redeals (§4.6)
    assert pos.stock == tuple(cards[16:])  # card 16 is turned first (§4.5)


def test_r3_only_the_active_pile_takes_cards() -> None:
    # P1 (base 5) needs a 6; R1 is a 9, which would fit P2 (base 8) but P2 is not active.
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 2d 3c 3c 3d", stock="6h")
    assert pos.active == 0 and pos.need == 6
    err = refused(pos, "R1")
    assert err.rule == "R4" and err.params["need"] == 6
    # Complete P1 (12 cards, then its base): P2 becomes active and takes the 9.
    full = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 2d 3c 3c 3d", piles=(12,))
    done, _ = play(full, "F1")
    assert done.active == 1 and done.need == 9
    assert play(done, "R1")[0].piles[1][0].symbol == "9c"


def test_r4_building_follows_rank_order_regardless_of_suit() -> None:
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "6h 6s 7d 2c 2d 3c 3d 3h")
    pos, _ = play(pos, "R1")
    assert pos.need == 7
    pos, _ = play(pos, "R3")  # a 7 of another suit
    assert [c.rank for c in pos.piles[0]] == [6, 7]
    assert refused(pos, "R2").rule == "R4"  # a second 6 no longer fits


def test_r5_first_becomes_last() -> None:
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "5h 9c 2c 2d 3c 3d 3h 3s", piles=(12,))
    assert pos.need == 5 and pos.legal_moves() == [Move("play", "F1")]
    assert pos.need_card == pos.first[0]  # the one card that fits, said to every face
    err = refused(pos, "R1")  # a 5 of the right rank, but not F1 itself
    assert err.rule == "R5"
    assert refused(pos, TURN.kind).rule == "R9"
    after, movements = play(pos, "F1")
    assert movements == (Movement(pos.first[0], places.FIRST[0], places.PILES[0]),)  # type: ignore[arg-type]
    assert after.first[0] is None and len(after.piles[0]) == 13 and after.piles[0][-1].symbol == "5c"
    assert after.waste == pos.waste  # the base's place is not refilled
    # The base cannot go early.
    early = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", piles=(5,))
    assert refused(early, "F1").rule == "R5" and early.need_card is None


def test_r6_sources_waste_is_not_one_in_the_canonical_rules() -> None:
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", waste="6h", stock="Jc")
    err = refused(pos, "waste")
    assert err.rule == "R6"
    assert pos.legal_moves() == [TURN]  # the waste's 6 does not fit anything canonically
    v2 = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", waste="6h", stock="Jc",
               variant=Variant(waste_playable=True))
    assert v2.legal_moves() == [Move("play", places.WASTE)]
    after, movements = play(v2, "waste")
    assert [str(m) for m in movements] == ["6h waste→P1"] and after.waste == v2.waste[:-1]
    # Other first-row cards never move.
    assert refused(pos, "F3").rule == "R8"


def test_r7_refill_from_waste_top_then_stock_then_gap() -> None:
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "6h 9c 2c 2d 3c 3d 3h 3s", waste="Jd", stock="Tc")
    after, movements = play(pos, "R1")
    assert [str(m) for m in movements] == ["6h R1→P1", "Jd waste→R1"]
    assert after.reserve[0].symbol == "Jd"  # type: ignore[union-attr]
    # Empty waste: from the stock, face up (E4 below covers the rest).
    nowaste = build("5c 8d Kh Kh 2s 3s 4s Qd", "6h 9c 2c 2d 3c 3d 3h 3s", stock="Tc", rest="stock")
    after, movements = play(nowaste, "R1")
    assert [str(m) for m in movements] == ["6h R1→P1", "Tc stock→R1"]


def test_r8_privileged_card_precedence_and_its_end() -> None:
    # E2-like: P1 needs a 6; F8 is a 6 and R1 is a 6: the privileged card must go first.
    pos = build("5c 8d Kh Kh 2s 3s 4s 6d", "6h 9c 2c 2d 3c 3d 3h 3s", waste="Jd")
    assert pos.privileged is not None and pos.legal_moves() == [Move("play", "F8")]
    err = refused(pos, "R1")
    assert err.rule == "R8" and err.code == "R8.first"
    _, movements = play(pos, "F8")
    assert [str(m) for m in movements] == ["6d F8→P1", "Jd waste→F8"]
    # V3 off: F8 behaves like F1…F7.
    off = build("5c 8d Kh Kh 2s 3s 4s 6d", "6h 9c 2c 2d 3c 3d 3h 3s", variant=Variant(privileged_last=False))
    assert off.privileged is None and off.legal_moves() == [Move("play", "R1")]
    assert refused(off, "F8").rule == "V3"
    # When P8 is active, F8 is its base and no longer privileged.
    last = build("5c 8d Kh Kh 2s 3s 4s 6d", "7h 9c Tc Jd Qc 2d 3d 4d", piles=(13,) * 7)
    assert last.active == 7 and last.privileged is None and last.need == 7
    assert refused(last, "F8").rule == "R5"


def test_r9_turning_is_forced() -> None:
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", stock="Jc 6h 7h")
    assert pos.legal_moves() == [TURN]
    pos, movements = play(pos, "turn")
    assert [str(m) for m in movements] == ["Jc stock→waste"]
    pos, movements = play(pos, "turn")  # a 6 fits: played at once
    assert [str(m) for m in movements] == ["6h stock→P1"] and pos.need == 7
    fits = build("5c 8d Kh Kh 2s 3s 4s Qd", "6c 2c 2c 2d 3c 3d 3h 3s", stock="Jc")
    err = refused(fits, "turn")
    assert err.rule == "R9" and err.code == "R9.play_before_turn"


def test_r10_redeal_shuffles_the_waste_with_the_deal_stream() -> None:
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", rng=(11, 22, 33, 44))
    assert pos.stock == () and pos.legal_moves() == [REDEAL]
    after, movements = play(pos, "redeal")
    expected = list(pos.waste)
    rng = shuffle(pos.rng, expected)
    assert after.stock == tuple(expected) and after.rng == rng and after.waste == ()
    assert after.redeals_used == 1 and after.passes == 2
    assert len(movements) == len(pos.waste) and all(m.target == "stock" and not m.face_up for m in movements)
    assert refused(after, "redeal").rule == "R10"  # stock not empty
    spent = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", redeals_used=3)
    assert spent.legal_moves() == [] and spent.status == "lost"
    unlimited = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", redeals_used=50,
                      variant=Variant(redeals=None))
    assert unlimited.legal_moves() == [REDEAL]


def test_r11_end_won_lost_score_passes() -> None:
    won = build("5c 8d Kh Kh 2s 3s 4s 6d", "-- -- -- -- -- -- -- --", piles=(13,) * 7 + (12,))
    assert won.status == "playing"
    won, _ = play(won, "F8")
    assert won.status == "won" and won.score == 104 and won.legal_moves() == []
    assert refused(won, "turn").rule == "R11"
    lost = build("5c 8d Kh Kh 2s 3s 4s Qd", "9c 2c 2c 2d 3c 3d 3h 3s", piles=(4,), redeals_used=3)
    assert lost.status == "lost" and lost.score == 4 and lost.passes == 4
    game = Game(1)
    game.autoplay()
    assert (game.position.status, game.position.score, game.position.passes) == ("lost", 52, 4)


def test_e1_wrap_from_king_to_ace() -> None:
    pos = build("Qc 8d Kh Kh 2s 3s 4s 5d", "Kd Ah 2c 3d 4c 4d 4h 9s", rest="waste")
    assert pos.need == 13
    pos, _ = play(pos, "R1")
    assert pos.need == 1
    pos, _ = play(pos, "R2")
    assert [c.symbol for c in pos.piles[0][:2]] == ["Kd", "Ah"] and pos.need == 2
    full = build("Qc 8d Kh Kh 2s 3s 4s 5d", "9c 2c 2c 2d 3c 3d 3h 3s", piles=(12,))
    assert [c.rank for c in full.piles[0]] == [13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    done, _ = play(full, "F1")
    assert done.piles[0][-1].symbol == "Qc"


def test_e2_privileged_seven_goes_before_the_reserve_seven() -> None:
    pos = build("6c 8d Kh Kh 2s 3s 4s 7s", "2c 2c 7h 2d 3c 3d 3h 3s", waste="Jd")
    assert pos.need == 7 and pos.legal_moves() == [Move("play", "F8")]
    pos, _ = play(pos, "F8")
    assert pos.first[7].symbol == "Jd" and pos.reserve[2].symbol == "7h"  # type: ignore[union-attr]


def test_e3_privileged_card_ends_p7_then_its_refill_is_p8s_base() -> None:
    # P7 (base 8s) needs its 12th card, a 7; F8 is a 7.
    pos = build("5c 8d Kh Kh 2s 3s 8s 7d", "2c 3c 4c 5c 6c 9c Tc Kc", piles=(13,) * 6 + (11,), waste="Jd")
    assert pos.active == 6 and pos.need == 7
    pos, movements = play(pos, "F8")
    assert [str(m) for m in movements] == ["7d F8→P7", "Jd waste→F8"]  # refill first (R7)
    assert pos.legal_moves() == [Move("play", "F7")]
    pos, _ = play(pos, "F7")
    assert pos.active == 7 and pos.first[7].symbol == "Jd" and pos.need == 12  # type: ignore[union-attr]
    assert pos.privileged is None


def test_e4_empty_waste_refills_from_the_stock_and_may_play_again() -> None:
    pos = build("5c 8d Kh Kh 2s 3s 4s Qd", "6h 9c 2c 2d 3c 3d 3h 3s", stock="7c Jh", rest="stock")
    pos, movements = play(pos, "R1")
    assert [str(m) for m in movements] == ["6h R1→P1", "7c stock→R1"]
    assert pos.legal_moves() == [Move("play", "R1")]  # the refilled 7 fits: played next
    pos, movements = play(pos, "R1")
    assert [str(m) for m in movements] == ["7c R1→P1", "Jh stock→R1"]


def test_e5_gaps_only_once_waste_and_stock_are_empty() -> None:
    # Every card but the reserve's is on the piles: stock and waste are empty.
    pos = build("5c 8d Kh Kh 2s 3s 4s 6d", "Jc Qc Kc Ac 2c 3c 4c 5c", piles=(13,) * 7 + (4,))
    validate(pos)
    assert pos.stock == () and pos.waste == () and pos.need == 11
    after, movements = play(pos, "R1")
    assert after.reserve[0] is None and [str(m) for m in movements] == ["Jc R1→P8"]  # no refill: a gap
    validate(after)
    # In real play a gap never coexists with cards in the waste or the stock.
    for deal in range(30):
        game = Game(deal)
        while game.step() is not None:
            p = game.position
            if None in p.reserve or p.first[7] is None:
                assert p.stock == () and p.waste == ()


def test_e6_card_count_through_whole_games() -> None:
    for deal in (1, 2, 3, 2**64 - 1):
        game = Game(deal, Variant(redeals=None))
        while game.step() is not None:
            validate(game.position)
        assert game.position.status == "won"
