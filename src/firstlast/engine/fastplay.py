"""The forced line played on ranks alone, fast: ``play_out(deal, variant)``.

``Game.autoplay`` walks the same line move by move with full positions, movements and
undo history; this is the same rules (R2–R11, V1–V3) on bare rank lists, for bulk
results (``firstlast autoplay A..B``, benchmarks). Tests prove both give the same
result on thousands of deals under every variant.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARDS
from .rng import seed, shuffle
from .variant import CANONICAL, Variant

_RANKS0 = [c.rank - 1 for c in CARDS]  # ranks 0…12, in unshuffled card order


class Outcome(NamedTuple):
    won: bool
    score: int  # cards on the piles, 104 when won (R11)
    passes: int  # passes through the stock used: 1 + redeals (R11)


def play_out(deal: int, variant: Variant = CANONICAL) -> Outcome:
    ranks = _RANKS0.copy()
    rng = shuffle(seed(deal), ranks)
    first = ranks[0:8]
    reserve = ranks[8:16]
    stock = ranks[:15:-1]  # reversed: stock.pop() turns the next card
    waste: list[int] = []
    redeals_left = -1 if variant.redeals is None else variant.redeals
    privileged = variant.privileged_last
    waste_playable = variant.waste_playable
    redeals = 0
    k = 0  # active pile (R3)
    held = 0  # cards on the active pile, base not counted
    done = 0  # cards on completed piles
    need = (first[0] + 1) % 13
    while True:
        if held == 12:  # R5: the base ends the pile
            done += 13
            k += 1
            if k == 8:
                return Outcome(True, 104, redeals + 1)
            held = 0
            need = (first[k] + 1) % 13
            continue
        if privileged and k < 7 and first[7] == need:  # R8, with precedence
            first[7] = waste.pop() if waste else (stock.pop() if stock else -1)  # R7
        elif need in reserve:  # leftmost reserve card
            i = reserve.index(need)
            reserve[i] = waste.pop() if waste else (stock.pop() if stock else -1)  # R7
        elif waste_playable and waste and waste[-1] == need:  # V2
            waste.pop()
        elif stock:  # R9
            card = stock.pop()
            if card != need:
                waste.append(card)
                continue
        elif waste and redeals_left != 0:  # R10, §4.6
            rng = shuffle(rng, waste)
            waste.reverse()
            stock = waste
            waste = []
            redeals += 1
            redeals_left -= 1
            continue
        else:  # R11
            return Outcome(False, done + held, redeals + 1)
        held += 1
        need = (need + 1) % 13
