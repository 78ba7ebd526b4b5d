"""The routes of the fast forced line, for the tests that compare them.

A route that cannot run here (no C compiler for ``native``, no wasmtime) skips the test,
or fails it under the test script, which installs what the tests need
(FIRSTLAST_NO_SKIP, as for the browser tests).
"""

from __future__ import annotations

import array
import dataclasses
import os
from collections.abc import Sequence

import pytest

from firstlast.engine import REDEAL, Position
from firstlast.engine.rng import RngState, shuffle
from firstlast.odds import fastline
from firstlast.odds.live import sample_stream


def load_route(route: str) -> fastline.Kernel:
    """The kernel through ``route`` (``native``, ``wasmtime``, ``pyodide``)."""
    try:
        return fastline.load(route)
    except fastline.Unavailable as e:
        if os.environ.get("FIRSTLAST_NO_SKIP"):
            raise
        pytest.skip(f"the {route} route does not run here: {e}")


def need_compiler() -> None:
    """For a test that builds the native kernel."""
    try:
        fastline.compiler()
    except fastline.Unavailable as e:
        if os.environ.get("FIRSTLAST_NO_SKIP"):
            raise
        pytest.skip(str(e))


def play_position(pos: Position) -> tuple[bool, int, int]:
    """``pos`` played out as it stands (its stock order, its stream for the redeals) by
    the fast forced line: (won, score, passes), to compare with ``pos.play_forced()``."""
    if pos.active is None:
        return True, 104, pos.passes
    return play_line(fastline.need(), fastline.RankPosition.of(pos), pos.rng)


def replay_sample(pos: Position, i: int, seed: int = 0) -> Position:
    """Sample ``i`` of ``seed`` played by the engine move by move: the end of its forced
    line, whose outcome (won, score, passes) is the sample's.

    The sample's stream (``live.sample_stream``) first shuffles the stock (Fisher–Yates
    of the stock in turning order, §4.3), then the shuffle of each redeal (§4.6); here
    those shuffles are drawn in Python and supplied to ``Position`` as the redeals'
    chance outcomes, so the rules, not the samplers, play the line."""
    stream = sample_stream(seed, i)
    order = list(range(len(pos.stock)))
    stream = shuffle(stream, order)
    pos = dataclasses.replace(pos, stock=tuple(pos.stock[j] for j in order))
    while (move := pos.forced_move()) is not None:
        if move == REDEAL:
            order = list(range(len(pos.waste)))
            stream = shuffle(stream, order)
            pos, _ = pos.apply(move, shuffle=order)
        else:
            pos, _ = pos.apply(move)
    return pos


# The kernel's stream, piece by piece (§4): the C functions the kernel exports for these
# checks only, called through a route's ``Kernel.calls``.
def seed(k: fastline.Kernel, deal: int) -> RngState:
    """§4.1: the xoshiro256** state of ``deal``."""
    io = array.array("Q", [deal, 0, 0, 0])
    k.calls.call("fl_seed", io)
    return io[0], io[1], io[2], io[3]


def next64(k: fastline.Kernel, state: RngState, count: int) -> tuple[RngState, list[int]]:
    """``count`` outputs of xoshiro256** from ``state``, and the state after them."""
    s, out = array.array("Q", state), array.array("Q", bytes(8 * count))
    k.calls.call("fl_next", s, count, out)
    return (s[0], s[1], s[2], s[3]), out.tolist()


def below(k: fastline.Kernel, state: RngState, n: int, count: int) -> tuple[RngState, list[int]]:
    """``count`` draws in [0, n) (§4.2), and the state after them."""
    s, out = array.array("Q", state), array.array("Q", bytes(8 * count))
    k.calls.call("fl_below", s, array.array("Q", [n]).tobytes(), count, out)
    return (s[0], s[1], s[2], s[3]), out.tolist()


def shuffled(k: fastline.Kernel, state: RngState, items: Sequence[int]) -> tuple[RngState, list[int]]:
    """``items`` (−128…127) shuffled (§4.3), and the state after it."""
    s, a = array.array("Q", state), array.array("b", items)
    k.calls.call("fl_shuffle", s, a, len(a))
    return (s[0], s[1], s[2], s[3]), a.tolist()


def play_line(k: fastline.Kernel, rp: fastline.RankPosition, rng: RngState) -> tuple[bool, int, int]:
    """``rp`` played out as it stands (its stock order; its redeals shuffled with the
    stream ``rng``, as ``Position.rng`` is): (won, score, passes), as walking
    ``Position.forced_move()`` to the end gives them."""
    out = array.array("i", [0, 0, 0])
    k.calls.call("fl_play_line", k._job(rng=rng, rp=rp), out)
    return bool(out[0]), out[1], out[2]


def sample_start(k: fastline.Kernel, seed: int, i: int) -> RngState:
    """The stream sample ``i`` of ``Kernel.sample_lines(…, seed)`` draws from, as the
    kernel seeds it (``live.sample_stream`` says how)."""
    out = array.array("Q", [0, 0, 0, 0])
    k.calls.call("fl_sample_start", k._job(rng=(seed, 0, 0, 0), first_index=i), out)
    return out[0], out[1], out[2], out[3]
