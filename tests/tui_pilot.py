"""The terminal driven headless through Textual's pilot, as the tests under tests/tui
drive it: a script run against the app, what the terminal shows, and waits for a
condition (never for time)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import loops
from textual.pilot import Pilot

from firstlast.tui import FirstLastApp, GameScreen


def run(app: FirstLastApp, script: Callable[[Pilot[None], GameScreen], Awaitable[None]],
        size: tuple[int, int] = (100, 30)) -> None:
    """``script(pilot, game screen)`` on ``app`` in a ``size`` terminal."""
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot, app.game_screen)
    loops.run(main())


def screen_text(pilot: Pilot[None]) -> str:
    """What the terminal shows right now, as plain text."""
    return "\n".join(strip.text for strip in pilot.app.screen._compositor.render_strips())


async def wait_for(pilot: Pilot[None], cond: Callable[[], bool], timeout: float = 20.0) -> None:
    """Until ``cond()`` holds (``timeout`` seconds at most: a failure, not a pace)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError("timed out waiting")
        await pilot.pause(0.02)
