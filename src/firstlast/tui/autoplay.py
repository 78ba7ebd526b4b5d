"""Autoplay's pace: a tick at the speed chosen (``SPEEDS``, moves a second), at most
``MAX_TICKS_PER_S`` ticks a second; faster speeds make several moves per tick (committed
together). The game screen runs the clock (``GameScreen.action_auto``)."""

from __future__ import annotations

import math
from typing import Final

from ..play.settings import PACES

#: Autoplay speeds, in moves per second.
SPEEDS: Final = (1, 2, 4, 8, 16, 32, 64, 128, 512)
#: The speed (index into SPEEDS) each shared pace setting 0…3 starts at (0 = instant:
#: the fastest, 1 slow, 2 normal, 3 fast): the play layer's PACES, the page's rates
#: too, so both faces play Auto at one pace.
PACE_SPEED: Final = tuple(len(SPEEDS) - 1 if p.moves_per_s is None else SPEEDS.index(int(p.moves_per_s))
                          for p in PACES)
#: The UI redraws at most this often during autoplay.
MAX_TICKS_PER_S: Final = 30


def tick_interval(speed: int) -> float:
    """Seconds between autoplay's ticks at speed ``SPEEDS[speed]``."""
    return max(1 / SPEEDS[speed], 1 / MAX_TICKS_PER_S)


def moves_per_tick(speed: int) -> int:
    """Moves one tick makes at speed ``SPEEDS[speed]`` (committed together)."""
    return max(1, math.ceil(SPEEDS[speed] / MAX_TICKS_PER_S))
