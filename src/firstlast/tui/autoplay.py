"""Autoplay's clock: a tick at the speed chosen (``SPEEDS``, moves a second), at most
``MAX_TICKS_PER_S`` ticks a second; faster speeds make several moves per tick (committed
together). A tick is handed to the screen's action queue; one waits there at most, so a
slow write delays autoplay and never piles steps up behind the player's keys."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from textual.timer import Timer
from textual.widget import Widget

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


class AutoClock:
    """Ticks ``post()`` (which queues a step) on ``node``'s timer while running."""

    def __init__(self, node: Widget, post: Callable[[], None]) -> None:
        self._node, self._post = node, post
        self._timer: Timer | None = None
        self._queued = False

    @property
    def running(self) -> bool:
        return self._timer is not None

    def start(self, speed: int) -> None:
        """Tick for speed ``SPEEDS[speed]`` (restarted at it when running)."""
        self.stop()
        self._timer = self._node.set_interval(max(1 / SPEEDS[speed], 1 / MAX_TICKS_PER_S), self._tick)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        if self._timer is not None and not self._queued:
            self._queued = True
            self._post()

    def took(self) -> None:
        """The queued tick is being done: the next may be queued."""
        self._queued = False

    @staticmethod
    def moves_per_tick(speed: int) -> int:
        return max(1, math.ceil(SPEEDS[speed] / MAX_TICKS_PER_S))
