"""The terminal game's pieces that need no running app: card drawing, sizes, the
statistics histogram, and the chance worker's one-at-a-time queue."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from rich.cells import cell_len

from firstlast.engine import CARDS, Game, Position, Variant
from firstlast.play import Stats
from firstlast.tui import cards as C
from firstlast.tui.chance import ChanceRunner, format_estimate
from firstlast.tui.dialogs import histogram_lines


@pytest.mark.parametrize("size", C.SIZES, ids=lambda s: s.name)
def test_every_card_is_a_box_of_its_size(size: C.CardSize) -> None:
    for card in CARDS[:52]:
        lines = C.card_lines(card, size)
        assert len(lines) == size.height
        assert all(cell_len(line.plain) == size.width for line in lines)
        assert C.rank_label(card) in "".join(line.plain for line in lines)
    for lines in (C.back_lines(size, 88), C.empty_lines(size, "→Q")):
        assert len(lines) == size.height
        assert all(cell_len(line.plain) == size.width for line in lines)


def test_card_colours_follow_the_suit() -> None:
    seven_hearts = C.Card.from_token("7h")
    seven_spades = C.Card.from_token("7s")
    assert C.pretty(seven_hearts) == "7♥" and C.pretty(C.Card.from_token("Tc")) == "10♣"
    red = C.card_lines(seven_hearts, C.SMALL)[1]
    black = C.card_lines(seven_spades, C.SMALL)[1]
    assert any(str(span.style).find(C.RED) >= 0 for span in red.spans)
    assert not any(str(span.style).find(C.RED) >= 0 for span in black.spans)


def test_card_size_grows_with_the_terminal() -> None:
    assert C.choose_size(80, 24, 30) == C.SMALL
    assert C.choose_size(96, 30, 30) == C.SMALL
    assert C.choose_size(100, 30, 30) == C.MEDIUM
    assert C.choose_size(100, 28, 30) == C.SMALL
    assert C.choose_size(160, 50, 30) == C.HUGE
    assert C.choose_size(40, 10, 30) == C.SMALL  # never smaller than the smallest


def test_histogram_bins_and_won_column() -> None:
    st = Stats(Variant(), played=4, won=1, scores=[0, 3, 50, 104])
    lines = histogram_lines(st, rows=4)
    assert len(lines) == 5  # four rows of bars and the axis
    columns = [line.plain[i * 4:i * 4 + 3] for line in lines[:4] for i in range(14)]
    # Bin 0 (scores 0–7) holds two games: a full column; bin 6 (48–55) and "won": half.
    assert [lines[r].plain[0:3] for r in range(4)] == ["███"] * 4
    assert [lines[r].plain[24:27] for r in range(4)] == ["   ", "   ", "███", "███"]
    assert [lines[r].plain[52:55] for r in range(4)] == ["   ", "   ", "███", "███"]
    assert columns.count("   ") == 14 * 4 - 8
    assert "won" in lines[4].plain


@dataclass
class Est:
    probability: float
    low: float
    high: float
    samples: int


def test_format_estimate() -> None:
    assert format_estimate(Est(0.3712, 0.3521, 0.3905, 10_000)) == "chance 37 % (35–39)"


def test_chance_runner_computes_only_the_latest_position() -> None:
    """While one estimate runs, newer requests replace each other: after A is done,
    only C (the latest) is computed, never B."""
    release = threading.Event()
    computed: list[str] = []
    delivered: list[str] = []
    done = threading.Event()
    game = Game(1)
    positions = []
    for _ in range(3):
        positions.append(game.position)
        game.step()
    a, b, c = positions

    def estimator(pos: Position, samples: int, seed: int) -> Est:
        computed.append(str(pos))
        if pos is a:
            release.wait(5)
        return Est(0.5, 0.4, 0.6, samples)

    def deliver(pos: Position, est: object) -> None:
        delivered.append(str(pos))
        if pos is c:
            done.set()

    threads: list[threading.Thread] = []

    def start(fn: Callable[[], None]) -> None:
        t = threading.Thread(target=fn)
        threads.append(t)
        t.start()

    runner = ChanceRunner(deliver, estimator=estimator)
    runner.request(a, start)
    runner.request(b, start)
    runner.request(c, start)
    release.set()
    assert done.wait(5)
    for t in threads:
        t.join(5)
    assert len(threads) == 1
    assert computed == [str(a), str(c)]
    assert delivered == [str(a), str(c)]
