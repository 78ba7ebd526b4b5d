"""The terminal game's pieces that need no running app: card drawing, sizes, the
statistics histogram, refusals in words, and the chance clock's queue, pooling and
recovery."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from playing import move
from rich.cells import cell_len

from firstlast.engine import CARDS, Card, Game, Position, Variant
from firstlast.i18n import chance_text
from firstlast.odds.live import ChanceEstimate, refine_seed
from firstlast.play import PlayError, PlayService
from firstlast.play.chance import Pooled, pool
from firstlast.play.stats import compute
from firstlast.play.view import table_view
from firstlast.store import GameStore, ResultRow
from firstlast.tui import cards as C
from firstlast.tui.chance import Answer, ChanceClock, describe_answer, refinable
from firstlast.tui.dialogs import histogram_lines
from firstlast.tui.table import paint_slot


@pytest.mark.parametrize("size", C.SIZES, ids=lambda s: f"{s.width}x{s.height}")
def test_every_card_is_a_box_of_its_size(size: C.CardSize) -> None:
    for card in CARDS[:52]:
        lines = C.card_lines(card, size)
        assert len(lines) == size.height
        assert all(cell_len(line.plain) == size.width for line in lines)
        assert C.rank_text(card.rank) in "".join(line.plain for line in lines)
    for lines in (C.back_lines(size, 88), C.empty_lines(size, "→Q")):
        assert len(lines) == size.height
        assert all(cell_len(line.plain) == size.width for line in lines)


def test_card_colours_follow_the_suit() -> None:
    seven_hearts = Card.from_token("7h")
    seven_spades = Card.from_token("7s")
    assert C.pretty(seven_hearts) == "7♥" and C.pretty(Card.from_token("Tc")) == "10♣"
    red = C.card_lines(seven_hearts, C.SMALL)[1]
    black = C.card_lines(seven_spades, C.SMALL)[1]
    assert any(str(span.style).find(C.RED) >= 0 for span in red.spans)
    assert not any(str(span.style).find(C.RED) >= 0 for span in black.spans)


def test_card_size_grows_with_the_terminal() -> None:
    assert C.choose_size(80, 24, 30) == C.SMALL
    assert C.choose_size(96, 30, 30) == C.SMALL
    assert C.choose_size(100, 30, 30) == C.MEDIUM
    assert C.choose_size(40, 10, 30) == C.SMALL  # never smaller than the smallest
    # Wide but not tall: the height's size, wider (at most MAX_EXTRA_WIDTH more).
    wide = C.choose_size(100, 28, 30)
    assert (wide.width, wide.height) == (7, C.SMALL.height)
    assert (C.choose_size(300, 28, 30).width, C.choose_size(300, 28, 30).height) == (9, 3)
    huge = C.choose_size(160, 50, 30)
    assert (huge.width, huge.height) == (13, C.HUGE.height)
    for w, h in ((100, 28), (160, 50), (300, 28), (120, 40)):
        size = C.choose_size(w, h, 30)
        assert C.table_width(size.width) + 30 <= w
        for card in CARDS[:52:7]:
            lines = C.card_lines(card, size, footer="12/13")
            assert len(lines) == size.height and all(cell_len(x.plain) == size.width for x in lines)
            assert C.rank_text(card.rank) + C.SUIT_SYMBOLS[card.suit] in lines[1].plain


def test_pile_depth_in_the_edge() -> None:
    card = Card.from_token("7h")
    assert C.depth_footer(7, C.SMALL) == "7" and C.depth_footer(12, C.MEDIUM) == "12/13"
    assert C.card_lines(card, C.MEDIUM, footer=C.depth_footer(7, C.MEDIUM))[-1].plain == "└─7/13┘"
    assert C.card_lines(card, C.SMALL, footer=C.depth_footer(12, C.SMALL))[-1].plain == "└─12┘"


def test_stock_shows_the_back_of_the_deck_turned_next() -> None:
    """The decks differ only in their backs (R1), which show on the stock: the top back
    is that of the card the next turn brings, as at a real table."""
    game = Game(1)
    seen = set()
    for _ in range(40):
        pos = game.position
        _, lines = paint_slot("stock", table_view(game), C.MEDIUM)
        colour = C.BACK if pos.stock[0].deck == 1 else C.BACK_2
        other = C.BACK_2 if colour == C.BACK else C.BACK
        styles = " ".join(str(span.style) for line in lines for span in line.spans)
        assert colour in styles and other not in styles
        seen.add(pos.stock[0].deck)
        game.push("turn") if pos.legal_moves()[0].kind == "turn" else game.step()
    assert seen == {1, 2}


def test_histogram_bins_and_won_column() -> None:
    rows = [ResultRow("played", "lost", score, 2, False, "") for score in (0, 3, 50)]
    st = compute(Variant(), [*rows, ResultRow("played", "won", 104, 1, False, "")])
    lines = histogram_lines(st, rows=4)
    assert len(lines) == 5  # four rows of bars and the axis
    columns = [line.plain[i * 4:i * 4 + 3] for line in lines[:4] for i in range(14)]
    # Bin 0 (scores 0–7) holds two games: a full column; bin 6 (48–55) and "won": half.
    assert [lines[r].plain[0:3] for r in range(4)] == ["███"] * 4
    assert [lines[r].plain[24:27] for r in range(4)] == ["   ", "   ", "███", "███"]
    assert [lines[r].plain[52:55] for r in range(4)] == ["   ", "   ", "███", "███"]
    assert columns.count("   ") == 14 * 4 - 8
    assert "won" in lines[4].plain


NB = "\u00a0"


def test_the_figure_is_the_shared_display_rule() -> None:
    """The side bar shows ``i18n.chance_text`` (the one rule of every face), in the
    player's language: an interval alone while the samples are few, whole percent with
    its interval once they allow it, never a lone 0 or 100 % unless certain."""
    few = pool([ChanceEstimate.of(453, 2000)])
    many = pool([ChanceEstimate.of(2500, 10_000), ChanceEstimate.of(2500, 10_000)])
    assert describe_answer(few) == f"Chance 20–25{NB}%"
    assert describe_answer(many) == f"Chance 25{NB}% (24–26{NB}%)"
    assert describe_answer(many, "ru") == f"Шанс 25{NB}% (24–26{NB}%)"
    assert describe_answer(pool([ChanceEstimate.of(0, 10_000)])) == f"Chance 0.0–0.1{NB}%"
    assert describe_answer(pool([ChanceEstimate.of(0, 10_000, certain=True)])) == f"Chance 0{NB}%"
    for est in (few.estimate, many.estimate):
        assert describe_answer(pool([est]), "ru") == "Шанс " + chance_text(est, "ru")
    assert describe_answer(OverflowError("x"), "ru") == "Шанс — (здесь не оценить)"
    assert describe_answer(None) is None
    # A certain answer is not refined: nothing is unknown.
    assert refinable(many) and not refinable(pool([ChanceEstimate.of(0, 10, certain=True)]))


class Screen:
    """Stands in for the game screen under a ``ChanceClock``: the position on the table
    is ``table[0]``; a worker is started by ``start``, its answer handed over at once,
    and each figure shown goes to ``shown`` (no timer: nothing is refined by itself)."""

    auto = False
    view = table_view(Game(1))  # under way, not known to come out: a figure is wanted

    def __init__(self, start: Callable[[Callable[[], None]], None], table: list[Position],
                 shown: Callable[[Position, Answer], None]) -> None:
        self.start, self.table, self.shown, self.app = start, table, shown, self

    @property
    def pos(self) -> Position:
        return self.table[0]

    @property
    def chance_answer(self) -> Answer:
        raise NotImplementedError

    @chance_answer.setter
    def chance_answer(self, answer: Answer) -> None:
        self.shown(self.pos, answer)

    def run_worker(self, fn: Callable[[], None], **_: object) -> None:
        self.start(fn)

    def call_from_thread(self, fn: Callable[..., None], *args: object) -> None:
        fn(*args)

    def set_timer(self, *_: object) -> None:
        return None


def clock_for(start: Callable[[Callable[[], None]], None], table: list[Position],
              shown: Callable[[Position, Answer], None], estimator: Callable[..., ChanceEstimate]) -> ChanceClock:
    """A clock on the position ``table[0]``, each figure it shows to ``shown``."""
    return ChanceClock(Screen(start, table, shown), estimator)  # type: ignore[arg-type]


def test_chance_clock_computes_only_the_latest_position() -> None:
    """While one estimate runs, newer requests replace each other: after A is done,
    only C (the latest) is computed, never B, nor two at once; A's figure is not shown
    once C is on the table."""
    release = threading.Event()
    computed: list[str] = []
    delivered: list[str] = []
    done = threading.Event()
    running = [0, 0]  # estimates running now, and the most at once
    game = Game(1)
    positions = []
    for _ in range(3):
        positions.append(game.position)
        game.step()
    a, b, c = positions

    def estimator(pos: Position, samples: int, seed: int) -> ChanceEstimate:
        computed.append(str(pos))
        running[0] += 1
        running[1] = max(running)
        if pos is a:
            release.wait(5)
        running[0] -= 1
        return ChanceEstimate.of(samples // 2, samples)

    def deliver(pos: Position, est: object) -> None:
        delivered.append(str(pos))
        if pos is c:
            done.set()

    threads: list[threading.Thread] = []

    def start(fn: Callable[[], None]) -> None:
        t = threading.Thread(target=fn)
        threads.append(t)
        t.start()

    table = [a]
    clock = clock_for(start, table, deliver, estimator)
    for pos in (a, b, c):
        table[0] = pos
        clock.request()
    release.set()
    assert done.wait(5)
    for t in threads:
        t.join(5)
    assert running[1] == 1
    assert computed == [str(a), str(c)]
    assert delivered == [str(c)]


def test_chance_clock_pools_refinements_and_recovers_after_a_failure() -> None:
    """Refinement round r plays the seed ``refine_seed(position, r)`` and merges it
    (``ChanceEstimate.merge``: the interval narrows); a failure is that position's
    answer only, and the next position is estimated again."""
    game = Game(1)
    a = game.position
    game.step()
    b = game.position
    calls: list[tuple[str, int]] = []

    def estimator(pos: Position, samples: int, seed: int) -> ChanceEstimate:
        calls.append((str(pos), seed))
        if pos is a and seed == refine_seed(a, 0):
            raise OverflowError("int too big to convert")
        return ChanceEstimate.of(samples // 4, samples)

    answers: list[tuple[Position, Answer]] = []
    table = [a]
    clock = clock_for(lambda fn: fn(), table, lambda pos, answer: answers.append((pos, answer)), estimator)
    clock.request()
    assert isinstance(answers[-1][1], OverflowError)
    clock.request(refine=True)  # a failed position is not refined, nor retried
    assert answers[-1][1] == answers[-2][1] and len(calls) == 1
    assert clock.available is True
    table[0] = b
    clock.request()
    first = answers[-1][1]
    # The play layer's policy: SAMPLES_PER_ROUND (20,000) a round, the page's too.
    assert isinstance(first, Pooled) and (first.estimate.samples, first.estimate.wins) == (20_000, 5000)
    clock.request()  # asked again, not refined: the known answer, no new call
    assert answers[-1][1] is first and len(calls) == 2
    clock.request(refine=True)
    clock.request(refine=True)
    pooled = answers[-1][1]
    assert isinstance(pooled, Pooled) and (pooled.estimate.samples, pooled.estimate.wins, pooled.rounds) == (
        60_000, 15_000, 3)
    assert calls[1:] == [(str(b), refine_seed(b, r)) for r in range(3)]
    assert len({seed for _, seed in calls[1:]}) == 3
    assert pooled.estimate == first.estimate.merge(first.estimate).merge(first.estimate)
    assert pooled.estimate.low > first.estimate.low and pooled.estimate.high < first.estimate.high
    assert describe_answer(pooled) == f"Chance 25{NB}% (24–26{NB}%)"


def test_refusals_are_said_in_words(tmp_path: object) -> None:
    """From the code and parameters, never the sentence: cards in words, as the page
    and the CLI say them (one renderer, ``i18n.error_text``)."""
    # Through the play layer, as the screen gets it.
    from pathlib import Path
    assert isinstance(tmp_path, Path)
    play = PlayService(GameStore(tmp_path / "g.sqlite3"))
    player = play.local_player()
    stored = play.start(player, "number", 1)
    try:
        move(play, player, stored.id, "R3")
    except PlayError as e:
        assert e.code == "move.illegal"
        assert e.text("en") == "the six of diamonds does not fit pile 1, which needs a queen (R4)"
        assert e.text("ru") == "шестёрка бубен не подходит: на кучку P1 идёт только дама (R4)"
    else:
        raise AssertionError("R3 should be refused in deal 1's first position")
