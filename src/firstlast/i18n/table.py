"""The table in words, for the ear: the hint, the table's summary and a place's review;
the one renderer of these words (keys ``say.*``, ``aria.*``), which the terminal and the
page both say (docs/i18n.md, "The API"). Everything said is read from the engine's
``Position``; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Final, Literal

from ..engine.places import FIRST, PILES, RESERVE, WASTE
from ..engine.position import Position
from . import card_name, place_name, plural, rank_name, t

#: How much a screen reader is told: ``brief`` (each move, the hint's move, a summary
#: when Auto stops) or ``full`` (also what the active pile needs after a move, a running
#: summary during Auto, why the hint turns). The page reads it (docs/page.md).
Verbosity = Literal["brief", "full"]

#: The places a player can look into, in the order the review offers them.
REVIEW_PLACES: Final = (*PILES, WASTE, "rows")


def _period(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def redeals_left_text(left: int | None, lang: str) -> str:
    """"3 redeals left", "1 redeal left", "no redeals left", "redeals unlimited"."""
    if left is None:
        return t(lang, "say.summary.unlimited")
    return t(lang, f"redeals_left_{left}" if left in (0, 1) else "redeals_left", n=left)


def _pile_words(pos: Position, lang: str) -> str:
    """The active pile: "pile 3, 5 of 13, needs a seven", or that all are done."""
    k = pos.active
    if k is None or pos.need is None:
        return t(lang, "say.summary.done")
    name = place_name(PILES[k], lang)
    n = len(pos.piles[k])
    if pos.need_card is not None:  # its own base (R5)
        return t(lang, "aria.pile.base", pile=name, card=card_name(pos.need_card, lang))
    return t(lang, "aria.pile.needs", pile=name, n=n, rank=rank_name(pos.need, lang, article=True))


def hint_text(pos: Position, lang: str, verbosity: Verbosity = "full") -> str:
    """The forced line's next move as advice: "Hint: play the king of hearts from
    reserve 2 onto pile 1"; a turn never names the card it will show (``full``: and why
    it is a turn)."""
    move = pos.forced_move()
    if pos.status != "playing" or move is None:
        return t(lang, "say.hint.none")
    if move.kind == "turn":
        if verbosity == "full" and pos.active is not None:
            return t(lang, "say.hint.turn.why", pile=_pile_words(pos, lang))
        return t(lang, "say.hint.turn")
    if move.kind == "redeal":
        return t(lang, "say.hint.redeal", left=redeals_left_text(pos.redeals_left, lang))
    source, k = move.source, pos.active
    card = None if source is None else pos.card_at(source)
    assert source is not None and card is not None and k is not None  # a play: a card onto the active pile
    return t(lang, "say.hint.play", card=card_name(card, lang, "acc"), **{"from": place_name(source, lang, "from"),
                                                                  "onto": place_name(PILES[k], lang, "onto")})


def _copies(pos: Position, rank: int, lang: str) -> tuple[list[str], int, int]:
    """Where the copies of ``rank`` can be seen (the reserve, the first row, the waste
    counted from its top), how many are on the piles, how many in the stock (two decks:
    eight copies; what is not face up is in the stock)."""
    places: list[str] = []
    for row, cards in ((RESERVE, pos.reserve), (FIRST, pos.first)):
        for place, c in zip(row, cards, strict=True):
            if c is not None and c.rank == rank:
                places.append(t(lang, "say.summary.at", place=place_name(place, lang), card=card_name(c, lang)))
    for depth, c in enumerate(reversed(pos.waste), start=1):
        if c.rank == rank:
            places.append(t(lang, "say.summary.waste.top", card=card_name(c, lang)) if depth == 1
                          else t(lang, "say.summary.waste.depth", n=depth, card=card_name(c, lang)))
    piles = sum(1 for p in pos.piles for c in p if c.rank == rank)
    return places, piles, max(0, 8 - len(places) - piles)


def table_summary(pos: Position, lang: str, verbosity: Verbosity = "full") -> str:
    """The table in a few sentences: the pile being built and the rank it needs, where
    the copies of that rank can be seen, the stock and the waste, the redeals left;
    ``full`` adds where the other copies are and the other piles."""
    out: list[str] = []
    if pos.status != "playing":
        out.append(t(lang, "won_title" if pos.status == "won" else "lost_title"))
    k = pos.active
    if k is None:
        out.append(t(lang, "say.summary.done"))
    else:
        out.append(t(lang, "say.summary.building", pile=_pile_words(pos, lang)))
        if pos.need_card is None and pos.need:  # any copy of the rank fits, not only the base (R5)
            places, piles, stock = _copies(pos, pos.need, lang)
            ranks = rank_name(pos.need, lang, "pl")
            out.append(t(lang, "say.summary.where", ranks=ranks, places=t(lang, "list.join.parts").join(places))
                       if places else t(lang, "say.summary.where.none", ranks=ranks))
            if verbosity == "full":
                out.append(t(lang, "say.summary.elsewhere", piles=piles, stock=stock))
    out.append(t(lang, "say.summary.counts", stock=plural(lang, "aria.stock", len(pos.stock)),
                 waste=plural(lang, "aria.waste", len(pos.waste))))
    out.append(redeals_left_text(pos.redeals_left, lang))
    if verbosity == "full":
        others = [t(lang, "aria.pile.done" if len(p) == 13 else "aria.pile.count", pile=place_name(PILES[i], lang),
                    n=len(p)) for i, p in enumerate(pos.piles) if i != k and p]
        if others:
            out.append(t(lang, "say.summary.others", piles=t(lang, "list.join.parts").join(others)))
    return " ".join(_period(x) for x in out)


def review_words(pos: Position, place: str, lang: str) -> tuple[str, list[str], str]:
    """A place's review as a title and its cards in order, each in words (a pile bottom
    to top, the waste top down, ``rows`` the first row and the reserve card by card), and
    both said as one sentence."""
    if place in PILES:
        pile = pos.piles[PILES.index(place)]
        name = place_name(place, lang)
        title = t(lang, "say.review.pile" if pile else "say.review.pile.empty", pile=name, n=len(pile))
        cards = [card_name(c, lang) for c in pile]
    elif place == WASTE:
        cards = [card_name(c, lang) for c in reversed(pos.waste)]
        title = t(lang, "say.review.waste" if cards else "say.review.waste.empty",
                  count=plural(lang, "aria.waste", len(cards)))
    elif place == "rows":
        title = t(lang, "say.review.rows")
        cards = [t(lang, "aria.place.card", place=place_name(f, lang),
                   card=card_name(c, lang) if c is not None else t(lang, "say.review.gone"))
                 for f, c in zip(FIRST, pos.first, strict=True)]
        cards += [t(lang, "aria.place.empty" if c is None else "aria.place.card", place=place_name(r, lang),
                    card="" if c is None else card_name(c, lang)) for r, c in zip(RESERVE, pos.reserve, strict=True)]
    else:
        raise ValueError(f"no review of {place!r} (expected P1–P8, waste or rows)")
    return title, cards, f"{title}: {t(lang, 'list.join.parts').join(cards)}." if cards else f"{title}."
