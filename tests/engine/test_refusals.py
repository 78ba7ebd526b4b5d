"""Refusals as data: every refusal of the rules carries a stable code and exactly the
parameters ``REFUSALS`` declares for it; its words are the catalogs' (tests/i18n)."""

from __future__ import annotations

from firstlast.engine import Game, IllegalMoveError, Move, Variant
from firstlast.engine.errors import REFUSALS

TABLE_MOVES = ["turn", "redeal", "waste", *(f"R{i}" for i in range(1, 9)), *(f"F{i}" for i in range(1, 9))]


def test_every_refusal_is_a_code_with_its_parameters() -> None:
    seen: set[str] = set()
    for deal, variant in [(0, Variant()), (1, Variant()), (7, Variant()), (1285, Variant()),
                          (6, Variant(waste_playable=True)), (3, Variant(privileged_last=False)),
                          (2, Variant(redeals=0))]:
        game = Game(deal, variant)
        positions = [game.position]
        while game.step() is not None:
            positions.append(game.position)
        for pos in positions[::7] + [positions[-1]]:
            legal = set(pos.legal_moves())
            for text in TABLE_MOVES:
                move = Move.parse(text)
                if move in legal:
                    continue
                why = pos.refusal(move, pos.legal_moves())  # the same refusal, as data
                try:
                    pos.apply(move)
                except IllegalMoveError as e:
                    assert why == (e.code, e.params)
                    assert e.rule == e.code.partition(".")[0] and set(e.params) == set(REFUSALS[e.code])
                    assert str(e).startswith(e.code)
                    assert all(isinstance(v, str | int) for v in e.params.values())
                    seen.add(e.code)
                else:
                    raise AssertionError(f"{text} is not legal but was not refused")
    # The walk meets nearly every refusal there is (R5.done/R10 variants need rarer spots).
    assert len(seen) >= len(REFUSALS) - 4, sorted(set(REFUSALS) - seen)


def test_a_rank_refusal_names_card_pile_and_rank() -> None:
    game = Game(1)  # P1 needs a queen; R1 holds an eight
    try:
        game.push("R1")
    except IllegalMoveError as e:
        assert e.code == "R4.rank" and e.rule == "R4"
        assert e.params["pile"] == "P1" and e.params["need"] == 12 and e.params["card"] == "8s"
        assert str(e) == "R4.rank (card=8s, pile=P1, need=12)"  # language-free: the words are i18n's
    else:
        raise AssertionError("R1 was accepted")
