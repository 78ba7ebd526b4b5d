"""The group-commit writer (``firstlast.play.writer``) under ``PlayService``.

Concurrent actions share one transaction and one ``COMMIT`` (one fsync); each runs in a
savepoint, so one that fails is rolled back alone; every caller is answered after the
commit; a commit that fails answers every caller with the storage error and leaves no
cached state that was not stored; the cache never serves a state other than the stored
one. To make a batch deterministic, the writer is held busy by a job that waits, while
the actions under test queue behind it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import loops
import pytest
from playing import move, redo, step, undo
from reading import read

from firstlast.engine import Game
from firstlast.play import PlayError, PlayService, Steps
from firstlast.play import writer as writer_module
from firstlast.play.writer import GameCache, Writer
from firstlast.store import GameStore, StoredGame, Transaction


@pytest.fixture
def play(tmp_path: Path) -> PlayService:
    return PlayService(GameStore(tmp_path / "games.sqlite3"))


@contextmanager
def held(play: PlayService) -> Iterator[sqlite3.Connection]:
    """The writer is busy (a job waits inside its transaction) until the block ends;
    writes made meanwhile queue for the next batch. Yields the writer's connection."""
    inside, release = threading.Event(), threading.Event()

    def blocker(tx: Transaction) -> None:
        inside.set()
        assert release.wait(10)

    def hold() -> None:
        try:
            play._writer.run(blocker)
        except PlayError as e:  # its batch may be made to fail: its own answer is not under test
            assert e.code == "storage"

    t = threading.Thread(target=hold)
    t.start()
    assert inside.wait(10)
    conn = play.store._writes.db
    assert conn is not None
    try:
        yield conn
    finally:
        release.set()
        t.join(10)
        assert not t.is_alive()


#: The name of the threads a test's callers run on (``awaited_answers`` counts theirs).
CALLERS = "writer-test-caller"


@contextmanager
def awaited_answers() -> Iterator[Callable[[int], None]]:
    """While the block runs, the writer's jobs count the callers that wait for their
    answers; yields ``wait(n)``, which returns once ``n`` callers wait (so their jobs are
    queued): a condition, never a time. Bounded only so that a fault (a caller that
    never waits) fails instead of hanging. Only the test's callers count (threads named
    ``CALLERS``): ``held``'s own job, made inside the block, waits for its answer too, and
    counted, it let the held batch go with one caller not yet queued (a third batch, seen
    in CI)."""
    waiting = threading.Semaphore(0)

    class Answer(Future[Any]):
        def result(self, timeout: float | None = None) -> Any:
            if threading.current_thread().name.startswith(CALLERS):
                waiting.release()
            return super().result(timeout)

    def wait(n: int) -> None:
        for _ in range(n):
            assert waiting.acquire(timeout=60), "the actions did not queue"

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(writer_module, "Future", Answer)
        yield wait


def concurrently(play: PlayService, calls: list[Callable[[], Any]]) -> tuple[list[Future[Any]], list[str]]:
    """Run ``calls`` at once behind a held writer, so that they form one batch; the
    futures of their answers and the SQL the writer's connection ran meanwhile."""
    sql: list[str] = []
    callers = ThreadPoolExecutor(len(calls), thread_name_prefix=CALLERS)
    with callers as pool, awaited_answers() as wait, held(play) as conn:
        conn.set_trace_callback(sql.append)
        futures = [pool.submit(c) for c in calls]
        wait(len(calls))  # every caller waits for its answer, its job queued
        assert not any(f.done() for f in futures)  # nobody is answered before the commit
    for f in futures:
        f.exception(10)
    conn.set_trace_callback(None)
    return futures, sql


def stored_moves(path: Path, game_id: str) -> list[str]:
    """The moves on disk, read by another store (another process would see these)."""
    return [str(m) for m in read(GameStore(path)).load(game_id).game.moves]


def test_concurrent_actions_commit_together(play: PlayService, tmp_path: Path) -> None:
    # (A returned game is the service's cached copy, which its next action updates.)
    games = [(g.player, g.id, g.version) for g in (play.start(None, "number", str(d)) for d in range(6))]
    batches = play._writer.batches
    futures, sql = concurrently(play, [partial(step, play, pid, gid, 1, version) for pid, gid, version in games])
    results = [f.result() for f in futures]
    # The held job's batch, then one batch of all six: two commits, two fsyncs.
    assert play._writer.batches - batches == 2
    assert sum(s.strip().upper() == "COMMIT" for s in sql) == 2  # the held one's, then the six's
    assert sum(s.startswith("SAVEPOINT") for s in sql) == 6  # one each (the held one's came before)
    assert sum(s.startswith("BEGIN") for s in sql) == 1
    assert not any("settings" in s for s in sql)  # a move's job only writes the move (no settings read)
    for (_, gid, version), r in zip(games, results, strict=True):
        assert r.stored.version == version + 1
        assert stored_moves(tmp_path / "games.sqlite3", gid) == [str(r.steps[-1].move)]


def test_a_failing_action_does_not_spoil_its_batch(play: PlayService, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    a, b, c = (play.start(None, "number", str(d)) for d in (1, 2, 3))
    illegal = next(f"R{k}" for k in range(1, 9)
                   if f"R{k}" not in {str(m) for m in a.game.position.legal_moves()})

    def half_written(tx: Transaction) -> None:
        tx.new_player()  # written, then the job fails: rolled back alone
        raise RuntimeError("a bug in the middle of a write")

    players = GameStore(db).transaction
    with players() as tx:
        before = tx.db.execute("SELECT count(*) FROM players").fetchone()[0]
    futures, sql = concurrently(play, [
        lambda: step(play, a.player, a.id),
        lambda: move(play, b.player, b.id, illegal),  # refused by the engine
        lambda: play._writer.run(half_written),
        lambda: step(play, c.player, c.id, 1, c.version + 7),  # a stale version: refused
        lambda: step(play, b.player, b.id),
    ])
    assert sum(s.strip().upper() == "COMMIT" for s in sql) == 2  # the held one's, then the five's
    assert sum(s.startswith("BEGIN") for s in sql) == 1
    ok_a, refused, bug, changed, ok_b = (f.exception() for f in futures)
    assert ok_a is None and ok_b is None
    assert isinstance(refused, PlayError) and refused.code == "move.illegal"
    assert isinstance(bug, RuntimeError)
    assert isinstance(changed, PlayError) and changed.code == "game.changed" and changed.params["version"] == c.version
    assert len(stored_moves(db, a.id)) == 1 and len(stored_moves(db, b.id)) == 1 and stored_moves(db, c.id) == []
    with players() as tx:
        assert tx.db.execute("SELECT count(*) FROM players").fetchone()[0] == before  # the bug's write is gone


def test_a_job_whose_writes_cannot_be_undone_fails_its_whole_batch(play: PlayService, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    a = play.start(None, "number", "1")
    version = a.version  # (``a`` is the service's cached copy, which its next action updates)

    def breaks(tx: Transaction) -> None:
        tx.new_player()
        tx.db.execute("RELEASE part0")  # its savepoint gone: the job's writes cannot be undone alone
        raise RuntimeError("a bug in the middle of a write")

    futures, sql = concurrently(play, [lambda: step(play, a.player, a.id), lambda: play._writer.run(breaks)])
    for f in futures:
        e = f.exception()
        assert isinstance(e, PlayError) and e.code == "storage" and "no such savepoint" in str(e), e
    assert sql[-2:] == ["ROLLBACK TO part0", "ROLLBACK"]  # the undo failed: the batch rolled back whole
    assert stored_moves(db, a.id) == []  # nothing of the batch was stored
    assert step(play, a.player, a.id).stored.version == version + 1  # and the writer goes on


class FailingCommits(GameStore):
    """A store whose connections SQLite itself refuses to ``COMMIT`` on while ``fail``
    is set (an authorizer, consulted at each statement: no statement cache)."""

    fail = False

    def _connect(self, *pragmas: str) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False,
                             cached_statements=0)
        for pragma in ("synchronous=FULL", *pragmas):
            db.execute(f"PRAGMA {pragma}")

        def authorize(action: int, arg1: str | None, *_: object) -> int:
            deny = self.fail and action == sqlite3.SQLITE_TRANSACTION and arg1 == "COMMIT"
            return sqlite3.SQLITE_DENY if deny else sqlite3.SQLITE_OK

        db.set_authorizer(authorize)
        return db


def test_a_failed_commit_answers_every_waiter_and_keeps_no_stale_cache(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = FailingCommits(db)
    play = PlayService(store)
    a, b = (play.start(None, "number", str(d)) for d in (4, 5))
    a1 = step(play, a.player, a.id).stored  # cached at version 1, one move
    assert play._cache.peek(a.id, a1.version) is not None
    with ThreadPoolExecutor(3, thread_name_prefix=CALLERS) as pool, awaited_answers() as wait:
        with held(play):
            store.fail = True  # the held batch and the one below cannot commit
            futures = [pool.submit(step, play, a.player, a.id), pool.submit(step, play, b.player, b.id),
                       pool.submit(move, play, b.player, b.id, "F8")]  # one that is refused anyway
            wait(3)
        errors = [f.exception(10) for f in futures]
    store.fail = False
    for e in errors:
        assert isinstance(e, PlayError) and e.code == "storage" and e.kind == "unavailable", e
        assert "not authorized" in str(e)
    assert all(play._cache.peek(g.id, v) is None for g in (a, b) for v in range(3))  # no state the store does not hold
    assert stored_moves(db, a.id) == [str(m) for m in a1.game.moves] and stored_moves(db, b.id) == []
    # Another process now writes game a to the version the lost batch would have had,
    # with other contents: taking the move back.
    other = PlayService(GameStore(db))
    back = undo(other, a.player, a.id)
    assert back.stored.version == a1.version + 1 and not back.stored.game.moves
    # The failed connection was replaced; this service acts on the stored game.
    r = step(play, a.player, a.id)
    assert r.stored.version == a1.version + 2
    assert [str(m) for m in r.stored.game.moves] == stored_moves(db, a.id) == [str(m) for m in a1.game.moves]


def test_the_cache_never_serves_a_state_other_than_the_stored_one(play: PlayService, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    g = play.start(None, "number", "7")
    mine = step(play, g.player, g.id, 3).stored.version  # cached: three moves
    other = PlayService(GameStore(db))
    undo(other, g.player, g.id)
    undo(other, g.player, g.id)  # stored: one move, a redo line of two
    # With the version it showed: refused, and the answer names the stored version.
    with pytest.raises(PlayError) as e:
        step(play, g.player, g.id, 1, mine)
    assert e.value.code == "game.changed" and e.value.params["version"] == mine + 2
    # Without: applied to the stored game (one move, then redo's line), never the cached one.
    r = redo(play, g.player, g.id)
    assert len(r.stored.game.moves) == 2 and [str(m) for m in r.stored.game.moves] == stored_moves(db, g.id)
    # Two actions on one game in one batch: the second sees the first (its transaction's).
    v = r.stored.version
    futures, _ = concurrently(play, [lambda: step(play, g.player, g.id, 1, v),
                                     lambda: step(play, g.player, g.id, 1, v)])
    # (Whichever queued first is the first: the threads race to the queue.)
    [first] = [f for f in futures if f.exception() is None]
    [second] = [f for f in futures if f.exception() is not None]
    assert first.result().stored.version == v + 1
    e2 = second.exception()
    assert isinstance(e2, PlayError) and e2.code == "game.changed" and e2.params["version"] == v + 1
    cached = play._cache.peek(g.id, v + 1)
    assert cached is not None and [str(m) for m in cached.game.moves] == stored_moves(db, g.id)


def test_a_job_cannot_wait_for_another_job(play: PlayService) -> None:
    def nested(tx: Transaction) -> None:
        play._writer.run(lambda tx: None)

    with pytest.raises(RuntimeError, match="cannot wait"):
        play._writer.run(nested)
    play.start(None, "number", "1")  # the writer still works


def test_pending_entries_are_seen_only_once_committed(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    cache = GameCache(2)
    writer = Writer(store, cache)
    player = writer.run(lambda tx: tx.new_player())

    def insert(deal: int) -> Callable[[Transaction], StoredGame]:
        def job(tx: Transaction) -> StoredGame:
            s = StoredGame.new(player, Game(deal))
            tx.insert(s)
            cache.put(s)
            assert cache.peek(s.id, s.version) is None  # pending: not among the committed entries yet
            return s

        return job

    games = [writer.run(insert(d)) for d in range(3)]
    assert [cache.peek(g.id, g.version) is not None for g in games] == [False, True, True]  # least recently used out
    assert writer.batches == 4  # the player's, then the three games'


def test_actions_from_an_event_loop_share_a_commit_with_threads_and_wait_for_it(
        play: PlayService, tmp_path: Path) -> None:
    """``act_async`` (the server's path): jobs queued from an event loop join the batch
    that threads' jobs form, are answered only after its commit, through the loop, with
    their own refusals; and the writer's thread leads when a loop's job is first."""
    import asyncio

    # (A returned game is the service's cached copy, which its next action updates.)
    games = [(g.player, g.id, g.version) for g in (play.start(None, "number", str(d)) for d in range(4))]
    path = tmp_path / "games.sqlite3"
    batches = play._writer.batches

    async def main() -> list[Any]:
        with held(play):
            tasks = [asyncio.ensure_future(play.act_async(pid, gid, Steps(1), version))
                     for pid, gid, version in games[:3]]
            # One refused: a stale version (the store keeps its game as it is).
            tasks.append(asyncio.ensure_future(play.act_async(games[3][0], games[3][1], Steps(1), 99)))
            # Each task queues its job in its first step, then awaits the answer (a task
            # that did not wait would be done in that same step): yield until they have.
            while play._writer._jobs.qsize() < len(tasks):
                await asyncio.sleep(0)
            assert not any(t.done() for t in tasks)  # nobody is answered before the commit
        return await asyncio.gather(*tasks, return_exceptions=True)

    answers = loops.run(main())
    assert play._writer.batches - batches == 2  # the held job's, then the four's
    for (_, gid, version), r in zip(games[:3], answers[:3], strict=True):
        assert r.stored.version == version + 1 and stored_moves(path, gid) == [str(r.steps[-1].move)]
    assert isinstance(answers[3], PlayError) and answers[3].code == "game.changed"
    assert stored_moves(path, games[3][1]) == []

    # Alone (no batch under way), a loop's job is led by the writer's thread.
    async def alone() -> Any:
        return await play.act_async(games[3][0], games[3][1], Steps(1))

    r = loops.run(alone())
    assert stored_moves(path, games[3][1]) == [str(r.steps[-1].move)]
    assert play._writer._thread is not None and play._writer._thread.is_alive()


def test_reads_replay_a_game_only_when_it_changed_elsewhere(play: PlayService, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25.5: reading a game (its chance, words, story, replay; the terminal's look
    at the table) takes the service's kept copy at the stored version; only a change made
    by another process is replayed, once. ``changes`` moves with every commit."""
    g = play.start(None, "number", "1")
    step(play, g.player, g.id, 30)
    loads: list[str] = []
    real = Transaction.load
    monkeypatch.setattr(Transaction, "load", lambda tx, gid, player=None: loads.append(gid) or real(tx, gid, player))
    seen = play.changes()
    read = play.game(g.player, g.id)
    assert play.current(g.player) is read and play.game(g.player, g.id) is read and len(read.game) == 30
    assert loads == [] and play.changes() == seen
    step(play, g.player, g.id, 5)  # a move here: still no replay, and the copy read before is as it was
    assert len(play.game(g.player, g.id).game) == 35 and len(read.game) == 30 and loads == []
    assert play.changes() != seen
    seen = play.changes()
    other = PlayService(GameStore(tmp_path / "games.sqlite3"))  # another process, in effect
    step(other, g.player, g.id, 1)
    loads.clear()  # the other's own
    assert play.changes() != seen
    assert len(play.game(g.player, g.id).game) == 36 and loads == [g.id]  # replayed once ...
    assert len(play.current(g.player).game) == 36 and loads == [g.id]  # ... then kept
    with pytest.raises(PlayError) as e:
        play.game("someone else", g.id)
    assert e.value.code == "game.unknown"


def test_a_service_nobody_holds_closes_its_store_and_its_writer_thread_ends(tmp_path: Path) -> None:
    """The writer's thread holds no writer (issue 25.1: no leaked connections): a
    service dropped unclosed frees its store, whose connections close (the WAL
    checkpointed and removed), and the thread ends."""
    import gc

    play = PlayService(GameStore(tmp_path / "games.sqlite3"))
    step(play, *(lambda g: (g.player, g.id))(play.start(None, "number", "1")), 3)
    thread = play._writer._thread
    assert thread is not None and thread.is_alive()
    del play
    gc.collect()
    thread.join(10)
    assert not thread.is_alive()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]
