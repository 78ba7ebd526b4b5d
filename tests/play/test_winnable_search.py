"""Searching for a deal that comes out, beside play: the search runs before the write job
(never inside it, so nobody's move waits behind it), in chunks in the helper process
(``runtime.run_apart``), at most one per player and ``MAX_SEARCHES`` in all, and a
stopping service ends it after its chunk."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playing import export_backup, step
from reading import read

from firstlast import runtime
from firstlast.engine import Variant
from firstlast.play import PlayError, PlayService
from firstlast.play import service as service_module
from firstlast.play.deals import first_winnable, search_size, winnable_deal
from firstlast.store import GameStore

WON_DEAL = 1  # comes out under unlimited redeals (docs/rules.md, V1)


class Gate:
    """Stands in for ``run_apart``: each chunk waits until the test opens the gate, then
    finds nothing (or ``WON_DEAL`` once ``win`` is set)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.entered = threading.Semaphore(0)
        self.win = False
        self.chunks = 0

    def __call__(self, fn: Any, candidates: list[int], variant: Variant) -> int | None:
        assert fn is first_winnable and len(candidates) == search_size()[1]
        self.chunks += 1
        self.entered.release()
        assert self.open.wait(10)
        return WON_DEAL if self.win else None


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    g = Gate()
    monkeypatch.setattr(service_module, "run_apart", g)
    yield g
    g.open.set()


@pytest.fixture
def play(tmp_path: Path) -> PlayService:
    return PlayService(GameStore(tmp_path / "games.sqlite3"))


def _search(play: PlayService, player: str | None, out: list[object]) -> threading.Thread:
    def go() -> None:
        try:
            out.append(play.start(player, "winnable", variant=Variant(redeals=None)))
        except PlayError as e:
            out.append(e.code)

    t = threading.Thread(target=go)
    t.start()
    return t


def test_moves_are_made_and_committed_while_a_search_runs(play: PlayService, gate: Gate) -> None:
    other = play.start(None, "number", 7)
    out: list[object] = []
    t = _search(play, None, out)
    assert gate.entered.acquire(timeout=10)  # the search is under way (and stays so)
    # Another player's moves commit meanwhile: the search holds no write job.
    for _ in range(3):
        result = step(play, other.player, other.id)
        assert result.steps
    assert play.game(other.player, other.id).version == 3
    gate.win = True
    gate.open.set()
    t.join(10)
    assert len(out) == 1 and not isinstance(out[0], str)
    assert out[0].game.deal == WON_DEAL and out[0].game.variant == Variant(redeals=None)  # type: ignore[attr-defined]


def test_one_search_per_player_and_a_bound_for_all(play: PlayService, gate: Gate) -> None:
    me = play.start(None, "number", 7).player
    out: list[object] = []
    first = _search(play, me, out)
    assert gate.entered.acquire(timeout=10)
    with pytest.raises(PlayError) as e:
        play.start(me, "winnable")
    assert e.value.code == "winnable.busy" and e.value.kind == "busy"
    others = [_search(play, None, out) for _ in range(service_module.MAX_SEARCHES - 1)]
    for _ in others:
        assert gate.entered.acquire(timeout=10)
    with pytest.raises(PlayError) as e:
        play.start(None, "winnable")
    assert e.value.code == "winnable.busy"
    gate.win = True
    gate.open.set()
    for t in [first, *others]:
        t.join(10)
    assert len(out) == service_module.MAX_SEARCHES and not any(isinstance(o, str) for o in out)
    play.start(me, "winnable")  # free again once done


def test_a_stopping_service_ends_its_searches_and_refuses_new_ones(play: PlayService, gate: Gate) -> None:
    out: list[object] = []
    t = _search(play, None, out)
    assert gate.entered.acquire(timeout=10)
    play.stop_searches()
    gate.open.set()  # the chunk under way ends (finding nothing); no other is begun
    t.join(10)
    assert out == ["stopping"] and gate.chunks == 1
    with pytest.raises(PlayError) as e:
        play.start(None, "winnable")
    assert e.value.code == "stopping" and e.value.kind == "unavailable"
    play.close()
    with pytest.raises(PlayError) as e:
        play.start(None, "random")
    assert e.value.code == "stopping"


def test_no_search_leaves_a_trace_in_the_store(play: PlayService, gate: Gate) -> None:
    gate.open.set()
    with pytest.raises(PlayError) as e:
        play.start(None, "winnable", variant=Variant(redeals=2))  # searched (not a rare variant)
    assert e.value.code == "winnable.none"
    assert read(play.store).games(None) == []


def test_run_apart_runs_in_another_process_and_stop_apart_cancels() -> None:
    assert runtime.PROCESSES
    child = runtime.run_apart(os.getpid)
    assert child != os.getpid()
    assert runtime.run_apart(first_winnable, [1, 2, 3], Variant(redeals=None)) == first_winnable(
        [1, 2, 3], Variant(redeals=None))
    runtime.stop_apart()
    assert runtime.run_apart(os.getpid) not in (child, os.getpid())  # a new helper process


def test_run_apart_is_inline_where_no_process_can_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "PROCESSES", False)
    assert runtime.run_apart(os.getpid) == os.getpid()


def test_the_rarest_variant_finds_a_deal_that_comes_out_with_the_fast_line() -> None:
    # r0n comes out about 4 times in a million deals: it is taken from the shipped list
    # (tests/play/test_deals.py); a common variant is searched, and the fast forced line
    # tries up to two million deals where it runs.
    import random

    from firstlast.engine import Game
    from firstlast.odds import fastline

    if not fastline.available():
        if os.environ.get("FIRSTLAST_NO_SKIP"):  # the test script installs a C compiler
            pytest.fail("no fast forced line here")
        pytest.skip("no fast forced line here")
    assert search_size() == (2_000_000, 20_000)
    for token in ("r0n", "r2"):
        variant = Variant.from_token(token)
        deal = winnable_deal(variant, rng=random.Random(2026))
        game = Game(deal, variant)
        game.autoplay()
        assert game.position.status == "won"


def test_a_helper_process_that_died_is_replaced() -> None:
    import signal

    child = runtime.run_apart(os.getpid)
    os.kill(child, signal.SIGKILL)
    # Asked at once, whether or not the pool has noticed yet that its worker is gone (the
    # call is refused as broken, or its future fails so): either way a new helper answers.
    again = runtime.run_apart(os.getpid)
    assert again not in (child, os.getpid())
    runtime.stop_apart()


def test_one_restore_at_a_time_and_a_stopping_service_ends_it(play: PlayService,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from firstlast.play import backup

    game = play.start(None, "number", 7)
    step(play, game.player, game.id, n=20)
    text = export_backup(play, game.player)
    inside, release = threading.Event(), threading.Event()
    real = backup.read_backup

    def slow(text: str, go_on: Any = None) -> Any:
        inside.set()
        assert release.wait(10)
        return real(text, go_on)

    monkeypatch.setattr(backup, "read_backup", slow)
    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(play.import_backup(None, text)))
    t.start()
    assert inside.wait(10)
    with pytest.raises(PlayError) as e:
        play.import_backup(None, text)
    assert e.value.code == "backup.busy" and e.value.kind == "busy"
    release.set()
    t.join(10)
    assert len(out) == 1
    monkeypatch.setattr(backup, "read_backup", real)
    play.stop_searches()  # the program is stopping: the replays end before the first game
    with pytest.raises(PlayError) as e:
        play.import_backup(None, text)
    assert e.value.code == "stopping"
