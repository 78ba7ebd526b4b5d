"""The table in words (``i18n.table``): the hint, the table's summary and a pile's
review, the same sentences in every face, in both languages."""

from __future__ import annotations

import pytest

from firstlast.engine import Game, Position
from firstlast.i18n import LANGS, card_name
from firstlast.i18n.table import hint_text, pile_review, table_summary


def after(deal: int, steps: int) -> Position:
    game = Game(deal)
    for _ in range(steps):
        move = game.position.forced_move()
        assert move is not None
        game.push(move)
    return game.position


def test_the_hint_names_the_card_and_both_places() -> None:
    pos = Position.deal(1)
    assert hint_text(pos, "en") == "Hint: turn a card from the stock"
    # The first play of deal 1's forced line, in words (never a turned card's name).
    game = Game(1)
    while (move := game.position.forced_move()) is not None and move.kind != "play":
        game.push(move)
    assert move is not None and move.source is not None
    card = game.position.card_at(move.source)
    assert card is not None
    en = hint_text(game.position, "en")
    assert en.startswith("Hint: play the ") and card_name(card, "en") in en and "onto pile" in en
    assert card_name(card, "ru", "acc") in hint_text(game.position, "ru")


def test_the_end_has_no_hint() -> None:
    game = Game(1)
    game.autoplay()
    assert hint_text(game.position, "en") == "No move is left: the game is over"
    assert table_summary(game.position, "en").startswith("The game did not come out: 52 of 104")


@pytest.mark.parametrize("lang", LANGS)
def test_the_summary_says_the_pile_the_rank_where_it_lies_and_the_counts(lang: str) -> None:
    pos = after(1, 30)
    text = table_summary(pos, lang)
    k, need = pos.active, pos.need
    assert k is not None and need is not None
    assert f" {k + 1} " in text
    # Every face-up copy of the rank it needs is named: reserve, first row, waste.
    copies = [c for c in (*pos.reserve, *pos.first, *pos.waste) if c is not None and c.rank == need]
    assert copies
    for card in copies:
        assert card_name(card, lang) in text
    assert str(len(pos.stock)) in text and str(len(pos.waste)) in text
    assert str(pos.redeals_left) in text


def test_the_summary_in_english_reads_as_a_sentence() -> None:
    pos = after(1, 30)
    text = table_summary(pos, "en")
    assert "Pile 1 is being built (2 of 13, its base the jack of clubs) and needs an ace." in text
    assert "first row 3, the ace of spades" in text and "the waste, 12th from the top, the ace of diamonds" in text
    assert "Stock 59, waste 27, score 2 of 104. 3 redeals left." in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_review_reads_a_pile_bottom_up_and_the_waste_top_down(lang: str) -> None:
    pos = after(1, 30)
    pile = pile_review(pos, "P1", lang)
    names = [card_name(c, lang) for c in pos.piles[0]]
    assert ", ".join(names) in pile
    waste = pile_review(pos, "waste", lang)
    assert ", ".join(card_name(c, lang) for c in reversed(pos.waste)) in waste
    assert pile_review(pos, "P8", lang) != pile  # empty or another pile
    with pytest.raises(ValueError):
        pile_review(pos, "R1", lang)


def test_an_empty_pile_and_an_empty_waste_say_so() -> None:
    pos = Position.deal(1)
    assert pile_review(pos, "P3", "en") == "Pile 3 is empty."
    assert pile_review(pos, "waste", "ru") == "Сборная кучка пуста."
