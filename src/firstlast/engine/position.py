"""Positions, moves and the rules R2–R11 (docs/rules.md §2).

``Position`` *is* the rules: the one normative implementation. Every other way of
playing the game is derived from it and proven equal to it by tests: the compiled
forced line (``firstlast.odds.fastline``, for bulk odds and live chances) and the naive
rank-list reference the tests keep (``tests/naive.py``).

A ``Position`` is immutable: ``apply`` returns the next position together with the
elementary card movements the move caused, in order, so that interfaces can animate
them. Only the player's choices are moves (play a card, turn, redeal); refills (R7)
happen inside the move that caused them.

A redeal is a chance event (OpenSpiel style): by default its shuffle is drawn from
the deal's own random stream (§4.6), so deal N is the same game forever; a caller can
supply the shuffle instead (``apply(REDEAL, shuffle=order)``), which is how a sampler
of unknown shuffles is checked against the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from .cards import CARDS, Card, clip, next_rank
from .errors import IllegalMoveError, InvalidMoveError, not_a_move
from .places import FIRST, RESERVE, ROW, SOURCES, STOCK, WASTE, Place
from .places import PILES as PILE_PLACES
from .places import index as place_index
from .places import kind as place_kind
from .rng import RngState, seed, shuffle
from .variant import CANONICAL, Variant

Status = Literal["playing", "won", "lost"]
MoveKind = Literal["play", "turn", "redeal"]
PILES: Final = ROW  # how many piles (and first-row and reserve places) there are
PILE_SIZE: Final = 13
F8: Final = FIRST[ROW - 1]  # the privileged card's place (R8)


@dataclass(frozen=True, slots=True)
class Movement:
    """One card moving from one place to another; ``face_up`` tells how it lands."""

    card: Card
    source: Place
    target: Place
    face_up: bool = True

    def reversed(self) -> Movement:
        """The movement that takes the card back (for animating an undo)."""
        return Movement(self.card, self.target, self.source, self.source != STOCK)

    def __str__(self) -> str:
        return f"{self.card} {self.source}→{self.target}"


@dataclass(frozen=True, slots=True, init=False)
class Move:
    """A player's move. ``source`` is the place a played card comes from (R6, ``SOURCES``).
    ``Move("play", "R3")`` takes a place's one name as well as a ``Place``; old
    spellings (``W``) are read only from text (``MOVE_WORDS``)."""

    kind: MoveKind
    source: Place | None

    def __init__(self, kind: MoveKind, source: Place | str | None = None) -> None:
        place: Place | None = None
        if kind == "play":
            place = Place(source) if isinstance(source, str) and source in SOURCES else None
            if place is None:
                raise InvalidMoveError(
                    f"not a card source: {clip(str(source))!r} (expected R1–R8, F1–F8 or waste)",
                    "move.source", {"source": clip(str(source))},
                )
        elif kind in ("turn", "redeal"):
            if source is not None:
                raise InvalidMoveError(f"{kind} takes no source", "move.no_source", {"kind": kind})
        else:
            raise InvalidMoveError(f"not a kind of move: {clip(str(kind))!r}", "move.kind",
                                   {"kind": clip(str(kind))})
        # Frozen: the fields are set once, here.
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "source", place)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move as a player types it: a move word (``MOVE_WORDS``) in any letter
        case with blanks around, or the shorthand ``t`` (turn) or ``d`` (redeal)."""
        low = text.strip().lower()
        move = (MOVE_WORDS.get(low) or {"t": TURN, "d": REDEAL}.get(low)) if low.isascii() else None
        if move is None:
            raise not_a_move(text)
        return move

    def __str__(self) -> str:
        return self.source.value if self.source is not None else self.kind


TURN: Final = Move("turn")
REDEAL: Final = Move("redeal")
#: The move that plays the card at each source (R6), made once: moves are immutable.
PLAY: Final[dict[Place, Move]] = {p: Move("play", p) for p in SOURCES}
#: Every move a player can ask for, as the engine writes it: turn and redeal (R9, R10),
#: then a card played from each source (R6).
TABLE_MOVES: Final[tuple[str, ...]] = ("turn", "redeal", *(p.value for p in (*RESERVE, *FIRST, WASTE)))
#: The words of a move in text (a record's, a backup's, one typed), letter case folded:
#: the engine's own and ``w``, the waste's name in older records and clients, which is
#: read here alone and never written.
MOVE_WORDS: Final[dict[str, Move]] = {
    "turn": TURN, "redeal": REDEAL,
    **{p.value.lower(): PLAY[p] for p in SOURCES},
    "w": PLAY[WASTE],
}


@dataclass(frozen=True, slots=True)
class Position:
    """Everything on the table. ``stock`` is in turning order (``stock[0]`` is turned
    next); ``waste`` runs from its bottom card to its top card; ``rng`` is the state of
    the deal's random stream, which the next redeal continues (§4.6)."""

    first: tuple[Card | None, ...]
    reserve: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    redeals_used: int
    rng: RngState
    variant: Variant = CANONICAL
    #: Index (0-based) of the active pile (R3), ``None`` when all are complete. Derived
    #: once: asked for on every legality check.
    active: int | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        active = next((i for i, pile in enumerate(self.piles) if len(pile) < PILE_SIZE), None)
        object.__setattr__(self, "active", active)

    # ----------------------------------------------------------------- creation
    @classmethod
    def deal(cls, number: int, variant: Variant = CANONICAL) -> Position:
        """The starting position of deal ``number`` (R2, §4.5)."""
        cards = list(CARDS)
        rng = shuffle(seed(number), cards)
        return cls(
            first=tuple(cards[0:8]),
            reserve=tuple(cards[8:16]),
            stock=tuple(cards[16:]),
            waste=(),
            piles=((),) * PILES,
            redeals_used=0,
            rng=rng,
            variant=variant,
        )

    # ------------------------------------------------------------ derived facts
    @property
    def need(self) -> int | None:
        """Rank the active pile takes next (R4/R5), ``None`` when won. When the pile
        holds 12 cards this is its base's rank, and only the base itself fits (R5)."""
        k = self.active
        if k is None:
            return None
        # The base of an active pile is never missing: see E5 and the 104-card count.
        top = self.piles[k][-1] if self.piles[k] else self.first[k]
        assert top is not None, "active pile without a base"
        return next_rank(top.rank)

    @property
    def need_card(self) -> Card | None:
        """The one card the active pile takes when only one fits: its own base, once the
        pile holds 12 cards (R5); ``None`` when any card of rank ``need`` fits."""
        k = self.active
        return self.first[k] if k is not None and len(self.piles[k]) == PILE_SIZE - 1 else None

    @property
    def privileged(self) -> Card | None:
        """The privileged card (R8): the card at F8 while P8 is not active (V3)."""
        k = self.active
        if not self.variant.privileged_last or k is None or k == PILES - 1:
            return None
        return self.first[PILES - 1]

    @property
    def score(self) -> int:
        """Cards on the piles (R11), 104 when won."""
        return sum(len(p) for p in self.piles)

    @property
    def passes(self) -> int:
        """Passes through the stock used so far: 1 + redeals made (R11)."""
        return 1 + self.redeals_used

    @property
    def redeals_left(self) -> int | None:
        return self.variant.redeals_left(self.redeals_used)

    @property
    def status(self) -> Status:
        if self.active is None:
            return "won"
        return "playing" if self.legal_moves() else "lost"

    def card_at(self, place: Place) -> Card | None:
        """The card a move from ``place`` would play (the waste's top card for ``waste``);
        ``None`` for a gap, an empty waste, or a place no card is played from."""
        if place is WASTE:
            return self.waste[-1] if self.waste else None
        row = place_kind(place)
        if row == "reserve":
            return self.reserve[place_index(place)]
        if row == "first":
            return self.first[place_index(place)]
        return None

    # ------------------------------------------------------------ legal moves
    def legal_moves(self) -> list[Move]:
        """Every legal move; the first one is the one autoplay makes (the forced line).
        Plays come in autoplay's order of preference: base, privileged card, reserve
        left to right, waste."""
        k = self.active
        if k is None:
            return []
        if self.need_card is not None:
            return [PLAY[FIRST[k]]]  # R5: only the base itself
        need = self.need
        priv = self.privileged
        if priv is not None and priv.rank == need:
            return [PLAY[F8]]  # R8 precedence
        plays = [PLAY[RESERVE[i]] for i, c in enumerate(self.reserve) if c is not None and c.rank == need]
        if self.variant.waste_playable and self.waste and self.waste[-1].rank == need:
            plays.append(PLAY[WASTE])  # V2
        if plays:
            return plays  # R9: a card that fits must be played before turning
        if self.stock:
            return [TURN]
        if self.waste and self.redeals_left != 0:
            return [REDEAL]  # R10
        return []  # R11: lost

    def forced_move(self) -> Move | None:
        """The move of the forced line (leftmost of equal choices), ``None`` at the end."""
        moves = self.legal_moves()
        return moves[0] if moves else None

    def refusal(self, move: Move, legal: Sequence[Move]) -> tuple[str, dict[str, str | int]] | None:
        """Why ``move`` is not legal here, as data: the refusal's code (a key of
        ``errors.REFUSALS``) and its parameters; ``None`` if it is legal. ``legal`` is
        this position's ``legal_moves()`` (worked out once for many moves)."""
        if move in legal:
            return None
        k = self.active
        if k is None:
            return "R11.won", {}
        if not legal:
            return "R11.stuck", {}
        # The fitting plays are the legal moves when there are any (R9: they come first).
        fitting = legal[0].kind == "play"
        need = self.need
        assert need is not None
        pk = PILE_PLACES[k]
        full = len(self.piles[k]) == PILE_SIZE - 1
        if move.kind == "turn":
            return "R9.play_before_turn" if fitting else "R9.stock_empty", {}
        if move.kind == "redeal":
            if fitting:
                return "R9.play_before_redeal", {}
            if self.stock:
                return "R10.stock_left", {}
            return "R10.none_left" if self.waste else "R10.waste_empty", {}
        src = move.source
        assert src is not None  # a play always names its source (Move checks it)
        if src is WASTE and not self.variant.waste_playable:
            return "R6.waste", {}
        if place_kind(src) == "first":
            j = place_index(src)
            if j < k and self.first[j] is None:
                return "R5.done", {"source": src.value, "pile": PILE_PLACES[j].value}
            if j == k and not full:
                return "R5.early", {"source": src.value, "pile": pk.value}
            if j != k and not (src is F8 and self.privileged is not None):
                if src is F8 and not self.variant.privileged_last:
                    return "V3.not_privileged", {}
                return "R8.fixed", {}
        card = self.card_at(src)
        if card is None:
            return "R6.empty", {"place": src.value}
        if full:
            return "R5.base_only", {"pile": pk.value, "base": FIRST[k].value}
        if card.rank != need:
            return "R4.rank", {"card": str(card), "pile": pk.value, "need": need}
        return "R8.first", {"card": str(self.first[PILES - 1])}

    # ------------------------------------------------------------ applying
    def apply(self, move: Move, shuffle: Sequence[int] | None = None) -> tuple[Position, tuple[Movement, ...]]:
        """Play ``move``: the new position and the card movements, in order; raises
        ``IllegalMoveError`` if the move is not legal here. ``shuffle`` supplies a redeal's
        chance outcome: a permutation of the waste's indices giving the new stock in
        turning order (``waste[order[0]]`` first); without it, the deal's stream (§4.6)."""
        why = self.refusal(move, self.legal_moves())
        if why is not None:
            raise IllegalMoveError(why[0], **why[1])
        if shuffle is not None and move.kind != "redeal":
            raise InvalidMoveError(f"only a redeal takes a shuffle, not {move}", "move.shuffle", {"move": str(move)})
        out: list[Movement] = []
        return self._after(move, shuffle, out), tuple(out)

    def play_forced(self) -> Position:
        """The position at the end of the forced line from here: ``apply``'s code without
        the legality checks (the forced move is legal by construction) and movement lists."""
        pos = self
        while (move := pos.forced_move()) is not None:
            pos = pos._after(move, None, None)
        return pos

    def _after(self, move: Move, order: Sequence[int] | None, out: list[Movement] | None) -> Position:
        """The position after the legal ``move``; its movements go to ``out`` if given."""
        if move.kind == "turn":
            return self._turn(out)
        if move.kind == "redeal":
            return self._redeal(order, out)
        assert move.source is not None  # a play always names its source (Move checks it)
        return self._play(move.source, out)

    def _turn(self, out: list[Movement] | None) -> Position:  # R9
        card, stock = self.stock[0], self.stock[1:]
        k = self.active
        assert k is not None
        if card.rank == self.need:
            if out is not None:
                out.append(Movement(card, STOCK, PILE_PLACES[k]))
            return Position(self.first, self.reserve, stock, self.waste, _with_card(self.piles, k, card),
                            self.redeals_used, self.rng, self.variant)
        if out is not None:
            out.append(Movement(card, STOCK, WASTE))
        return Position(self.first, self.reserve, stock, self.waste + (card,), self.piles,
                        self.redeals_used, self.rng, self.variant)

    def _redeal(self, order: Sequence[int] | None, out: list[Movement] | None) -> Position:  # R10, §4.6
        waste = self.waste
        if order is None:
            # The deal's stream: Fisher–Yates on the waste from bottom to top (§4.6).
            cards = list(waste)
            rng = shuffle(self.rng, cards)
            stock = tuple(cards)
        else:
            # A chance outcome supplied from outside: the deal's stream is not drawn from.
            if sorted(order) != list(range(len(waste))):
                raise InvalidMoveError(
                    f"a redeal's shuffle must be a permutation of 0…{len(waste) - 1}, not {list(order)!r}",
                    "move.shuffle", {"size": len(waste)},
                )
            rng = self.rng
            stock = tuple(waste[i] for i in order)
        if out is not None:
            out.extend(Movement(c, WASTE, STOCK, face_up=False) for c in reversed(waste))
        return Position(self.first, self.reserve, stock, (), self.piles, self.redeals_used + 1, rng, self.variant)

    def _play(self, src: Place, out: list[Movement] | None) -> Position:
        k = self.active
        assert k is not None
        card = self.card_at(src)
        assert card is not None
        piles = _with_card(self.piles, k, card)
        first, reserve, stock, waste = self.first, self.reserve, self.stock, self.waste
        if out is not None:
            out.append(Movement(card, src, PILE_PLACES[k]))
        if src is WASTE:
            waste = waste[:-1]  # V2
        elif src is FIRST[k]:
            first = _set(first, k, None)  # R5: the base ends its own pile; no refill
        else:
            # R7: the place is refilled at once, from the waste top, else the stock.
            refill: Card | None = None
            if waste:
                refill, waste = waste[-1], waste[:-1]
                if out is not None:
                    out.append(Movement(refill, WASTE, src))
            elif stock:
                refill, stock = stock[0], stock[1:]
                if out is not None:
                    out.append(Movement(refill, STOCK, src))
            if place_kind(src) == "reserve":
                reserve = _set(reserve, place_index(src), refill)
            else:
                first = _set(first, PILES - 1, refill)  # R8: the privileged card's place
        return Position(first, reserve, stock, waste, piles, self.redeals_used, self.rng, self.variant)

    def __str__(self) -> str:
        from .notation import position_to_text

        return position_to_text(self)


def _set(row: tuple[Card | None, ...], i: int, card: Card | None) -> tuple[Card | None, ...]:
    return row[:i] + (card,) + row[i + 1:]


def _with_card(piles: tuple[tuple[Card, ...], ...], k: int, card: Card) -> tuple[tuple[Card, ...], ...]:
    return piles[:k] + (piles[k] + (card,),) + piles[k + 1:]


