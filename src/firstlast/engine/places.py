"""The places of the table, each with exactly one name (python-chess style, like its
``Square`` and ``SQUARE_NAMES``; docs/rules.md §2 *Terms*).

A ``Place`` is a ``StrEnum``, so it can go anywhere a place's name went before (JSON,
comparisons). The name is also the move that plays a card from that place (R6).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Literal

PlaceKind = Literal["stock", "waste", "first", "reserve", "pile"]

#: Places in a row: the first row, the reserve and the piles each have eight (R2, R3).
ROW: Final = 8


class Place(StrEnum):
    """One place of the table; its value is its one name."""

    STOCK = "stock"
    WASTE = "waste"
    F1 = "F1"
    F2 = "F2"
    F3 = "F3"
    F4 = "F4"
    F5 = "F5"
    F6 = "F6"
    F7 = "F7"
    F8 = "F8"
    R1 = "R1"
    R2 = "R2"
    R3 = "R3"
    R4 = "R4"
    R5 = "R5"
    R6 = "R6"
    R7 = "R7"
    R8 = "R8"
    P1 = "P1"
    P2 = "P2"
    P3 = "P3"
    P4 = "P4"
    P5 = "P5"
    P6 = "P6"
    P7 = "P7"
    P8 = "P8"

    def __repr__(self) -> str:
        return f"Place.{self.name}"


STOCK: Final = Place.STOCK
WASTE: Final = Place.WASTE
FIRST: Final[tuple[Place, ...]] = tuple(Place(f"F{i}") for i in range(1, ROW + 1))
RESERVE: Final[tuple[Place, ...]] = tuple(Place(f"R{i}") for i in range(1, ROW + 1))
PILES: Final[tuple[Place, ...]] = tuple(Place(f"P{i}") for i in range(1, ROW + 1))

#: Every place, stock and waste first, then F1…F8, R1…R8, P1…P8.
PLACES: Final[tuple[Place, ...]] = tuple(Place)
#: Every place's one name, in the order of ``PLACES``.
PLACE_NAMES: Final[tuple[str, ...]] = tuple(p.value for p in PLACES)

#: The places a card can be played from (R6): the reserve, the first row (the
#: privileged card, R8, or a full pile's own base, R5) and the waste top (V2).
SOURCES: Final[frozenset[Place]] = frozenset((*RESERVE, *FIRST, WASTE))

_KIND: Final[dict[Place, PlaceKind]] = {
    STOCK: "stock", WASTE: "waste",
    **{p: "first" for p in FIRST}, **{p: "reserve" for p in RESERVE}, **{p: "pile" for p in PILES},
}
_INDEX: Final[dict[Place, int]] = {p: i for row in (FIRST, RESERVE, PILES) for i, p in enumerate(row)}


def kind(place: Place) -> PlaceKind:
    return _KIND[place]


def index(place: Place) -> int:
    """0-based position of an F, R or P place in its row (``P1`` → 0, ``F8`` → 7)."""
    try:
        return _INDEX[place]
    except KeyError:
        raise ValueError(f"{place} is not in a row: it has no index") from None
