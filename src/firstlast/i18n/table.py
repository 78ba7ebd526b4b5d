"""The table in words, for the ear: the hint, the table's summary and a pile's review.

One implementation for every face: the terminal says these in its status line and the
page announces them (the server sends them with the game's state), so a player hears
the same sentences in either. Everything said is read from the engine's ``Position``
(``forced_move``, ``active``, ``need``…); nothing here decides a rule.
"""

from __future__ import annotations

from typing import Final

from ..engine.places import FIRST, PILES, RESERVE, WASTE
from ..engine.position import Position
from . import card_name, ordinal, place_name, plural, rank_name, t

__all__ = ["REVIEW_PLACES", "hint_text", "pile_review", "table_summary"]

#: The places a review can look into: the eight piles and the waste.
REVIEW_PLACES: Final = (*PILES, WASTE)


def hint_text(pos: Position, lang: str) -> str:
    """The forced line's next move as advice: "Hint: play the king of hearts from
    reserve 2 onto pile 1"; a turn never names the card it will show."""
    move = pos.forced_move()
    if move is None:
        return t(lang, "hint.say.none")
    if move.kind == "turn":
        return t(lang, "hint.say.turn")
    if move.kind == "redeal":
        return t(lang, "hint.say.redeal")
    _, movements = pos.apply(move)
    first = movements[0]
    return t(lang, "hint.say.play", card=card_name(first.card, lang, "acc"),
             **{"from": place_name(first.source, lang, "from"), "onto": place_name(first.target, lang, "onto")})


def _sightings(pos: Position, rank: int, lang: str) -> list[str]:
    """Where cards of ``rank`` lie face up: the reserve, the first row, the waste (how
    deep from its top)."""
    seen: list[str] = []
    for place, card in (*zip(RESERVE, pos.reserve, strict=True), *zip(FIRST, pos.first, strict=True)):
        if card is not None and card.rank == rank:
            seen.append(t(lang, "summary.seen.at", place=place_name(place, lang), card=card_name(card, lang)))
    for depth, card in enumerate(reversed(pos.waste), start=1):
        if card.rank == rank:
            where = t(lang, "summary.seen.waste", nth=ordinal(depth, lang))
            seen.append(t(lang, "summary.seen.at", place=where, card=card_name(card, lang)))
    return seen


def table_summary(pos: Position, lang: str) -> str:
    """The whole table in a few sentences: the pile being built and the rank it needs,
    where copies of that rank lie in sight, the stock and waste counts, redeals left."""
    parts: list[str] = []
    status = pos.status
    if status == "won":
        parts.append(t(lang, "summary.won"))
    elif status == "lost":
        parts.append(t(lang, "summary.lost", score=pos.score))
    k, need = pos.active, pos.need
    if k is not None and need is not None:
        base = pos.first[k]
        parts.append(t(lang, "summary.building", pile=k + 1, n=len(pos.piles[k]),
                       base=card_name(base, lang) if base is not None else "—",
                       rank=rank_name(need, lang, article=True)))
        seen = _sightings(pos, need, lang)
        parts.append(t(lang, "summary.seen", places="; ".join(seen)) if seen else t(lang, "summary.seen.none"))
    parts.append(t(lang, "summary.counts", stock=len(pos.stock), waste=len(pos.waste), score=pos.score))
    left = pos.redeals_left
    parts.append(t(lang, "summary.redeals.unlimited") if left is None else plural(lang, "summary.redeals", left))
    return " ".join(parts)


def pile_review(pos: Position, place: str, lang: str) -> str:
    """The cards of pile ``P1``…``P8`` in order, bottom up, or of the waste, top down."""
    if place == WASTE:
        cards = list(reversed(pos.waste))
        if not cards:
            return t(lang, "review.waste.empty")
        return plural(lang, "review.waste", len(cards), cards=", ".join(card_name(c, lang) for c in cards))
    if place not in PILES:
        raise ValueError(f"no review of {place!r} (expected P1–P8 or waste)")
    pile = pos.piles[PILES.index(place)]
    n = place[1]
    if not pile:
        return t(lang, "review.pile.empty", pile=n)
    return plural(lang, "review.pile", len(pile), pile=n, cards=", ".join(card_name(c, lang) for c in pile))

