"""Build hand-made positions for rule tests.

Cards are named by plain symbols (``7h``); the first unused physical copy is taken.
Piles are given as a number of cards: they are built by R4 from their base, using any
unused cards of the right ranks. Every card not named goes under the waste (or to the
end of the stock with ``rest="stock"``), so each position holds all 104 cards (E6).
"""

from __future__ import annotations

from typing import Literal

from firstlast.engine import CANONICAL, CARDS, Card, Position, Variant
from firstlast.engine.cards import next_rank

_SYMBOL_TO_COPIES = {}
for _c in CARDS:
    _SYMBOL_TO_COPIES.setdefault(_c.symbol, []).append(_c)


class _Pool:
    def __init__(self) -> None:
        self.free = list(CARDS)

    def take(self, symbol: str) -> Card:
        for c in _SYMBOL_TO_COPIES[symbol]:
            if c in self.free:
                self.free.remove(c)
                return c
        raise ValueError(f"both copies of {symbol} are used")

    def take_rank(self, rank: int) -> Card:
        for c in self.free:
            if c.rank == rank:
                self.free.remove(c)
                return c
        raise ValueError(f"no free card of rank {rank}")


def _row(pool: _Pool, text: str) -> list[Card | None]:
    return [None if t == "--" else pool.take(t) for t in text.split()]


def build(
    first: str,
    reserve: str,
    *,
    piles: tuple[int, ...] = (),
    stock: str = "",
    waste: str = "",
    rest: Literal["waste", "stock"] = "waste",
    variant: Variant = CANONICAL,
    redeals_used: int = 0,
    rng: tuple[int, int, int, int] = (1, 2, 3, 4),
) -> Position:
    pool = _Pool()
    f = _row(pool, first)
    r = _row(pool, reserve)
    s = _row(pool, stock)
    w = _row(pool, waste)
    built: list[tuple[Card, ...]] = []
    for k, n in enumerate(piles):
        base = f[k]
        assert base is not None
        rank = base.rank
        pile = []
        for _ in range(min(n, 12)):
            rank = next_rank(rank)
            pile.append(pool.take_rank(rank))
        if n == 13:
            pile.append(base)
            f[k] = None
        built.append(tuple(pile))
    built += [()] * (8 - len(built))
    rest_cards = list(pool.free)
    if rest == "waste":
        w = rest_cards + w
    else:
        s = s + rest_cards
    return Position(
        first=tuple(f), reserve=tuple(r),
        stock=tuple(c for c in s if c is not None), waste=tuple(c for c in w if c is not None),
        piles=tuple(built), redeals_used=redeals_used, rng=rng, variant=variant,
    )


def symbols(cards: tuple[Card | None, ...]) -> str:
    return " ".join("--" if c is None else c.symbol for c in cards)
