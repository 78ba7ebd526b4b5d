"""Runs: reproducible, non-overlapping deal blocks; local and Dask give the same tallies."""

from __future__ import annotations

import itertools

import pytest

from firstlast.engine import Variant
from firstlast.odds import fastline, runner, stats
from firstlast.odds.stats import Tally


def test_deal_blocks_are_disjoint_and_start_at_zero() -> None:
    assert runner.deal_block(0, 1000) == range(0, 1000)
    assert runner.deal_block(1, 10) == range(2**32, 2**32 + 10)
    last = runner.deal_block(runner.MAX_SEED, runner.MAX_GAMES)
    assert last.stop - 1 == 2**64 - 1
    for bad in [(0, 0), (0, -3), (0, runner.MAX_GAMES + 1), (-1, 5), (runner.MAX_SEED + 1, 5)]:
        with pytest.raises(ValueError):
            runner.deal_block(*bad)


def test_chunks_cover_the_deals_once() -> None:
    parts = runner.chunks(range(5, 1005), 300)
    assert [len(p) for p in parts] == [300, 300, 300, 100]
    assert [d for p in parts for d in p] == list(range(5, 1005))


def test_local_run_equals_direct_tally_whatever_the_chunks_and_threads() -> None:
    v = Variant(2, True)
    want = Tally.of(v, *fastline.need().play_deals(runner.deal_block(3, 20_000), v))
    assert runner.run([v], 20_000, seed=3) == [want]
    assert runner.run([v], 20_000, seed=3, workers=1, chunk=3_000) == [want]
    assert runner.tally_chunk(v.token, 3 * 2**32, 3 * 2**32 + 20_000) == want
    assert fastline.need().count_deals(runner.deal_block(3, 20_000), v) == want


def test_progress_counts_every_game() -> None:
    done: list[int] = []
    runner.run([Variant(), Variant(0)], 5_000, seed=1, progress=done.append, chunk=2_000)
    assert sum(done) == 10_000


def test_bad_worker_count_is_refused() -> None:
    with pytest.raises(ValueError):
        runner.run([Variant()], 100, workers=0)


def test_the_table_from_unlimited_runs_equals_direct_runs_of_every_variant() -> None:
    # The identity the table is built on (docs/odds.md): four unlimited runs give all 20
    # rows — wins, passes and scores — exactly as the 20 variants played one by one.
    # 60,000 deals (300,000 cost five times the CPU, issue 25.7) already hold what makes
    # the identity a test: every row has wins (the rarest, redeals 0 without the waste,
    # has a few), each redeal count wins more games than the one before, and the unlimited games
    # run to as many passes (13 to 15 per family) as they did on 300,000.
    games, seed = 60_000, 7
    rows, unlimited = runner.table(games, seed)
    variants = [Variant(r, wp, pr) for wp, pr in stats.FAMILIES for r in stats.TABLE_REDEALS]
    assert [t.variant for t in rows] == variants
    assert [u.variant for u in unlimited] == [Variant(None, wp, pr) for wp, pr in stats.FAMILIES]
    assert all(t.wins for t in rows)
    family_rows = [rows[i:i + len(stats.TABLE_REDEALS)] for i in range(0, len(rows), len(stats.TABLE_REDEALS))]
    assert all(a.wins < b.wins for family in family_rows for a, b in itertools.pairwise(family))
    assert [len(t.passes_all) for t in family_rows[0]] == [2, 3, 4, 5, 13]  # cut at each count
    assert rows == runner.run(variants, games, seed)


def test_table_runs_agree_whatever_the_chunks_and_threads() -> None:
    done: list[int] = []
    one = runner.table(30_000, 2, workers=1, chunk=7_000)
    assert runner.table(30_000, 2, progress=done.append, chunk=4_096) == one
    assert sum(done) == 4 * 30_000 and len(done) == 4 * 8
    assert runner.tally_unlimited_chunk("ruw", 2 * 2**32, 2 * 2**32 + 30_000) == one[1][1]
    with pytest.raises(ValueError):
        runner.table(100, workers=0)
    with pytest.raises(ValueError):
        runner.run([Variant(), Variant()], 100)


def test_dask_local_cluster_gives_identical_results() -> None:
    from distributed import Client, LocalCluster

    variants = [Variant(), Variant(None, False, False), Variant(0, True)]
    local = runner.run(variants, 60_000, seed=11)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        done: list[int] = []
        remote = runner.run(variants, 60_000, seed=11, client=client, progress=done.append, chunk=7_000)
        # And through an address, as the CLI's --scheduler connects.
        other = runner.connect(cluster.scheduler_address)
        try:
            again = runner.run(variants[:1], 60_000, seed=11, client=other)
        finally:
            other.close()
    assert remote == local
    assert again == local[:1]
    assert sum(done) == 3 * 60_000


@pytest.mark.timeout(120)  # a hang fails it; how fast is no test's business (bench/)
def test_unreachable_scheduler_fails_fast() -> None:
    with pytest.raises(runner.SchedulerError, match="cannot reach"):
        runner.connect("tcp://127.0.0.1:9", timeout=1.0)


@pytest.mark.timeout(120)
def test_dask_process_workers_give_identical_results() -> None:
    # Runs in the default suite (about 10 s on two cores), never skipped: worker
    # processes load the kernel afresh (the native build from the user's cache), and
    # their tallies must still be the local ones, chunk by chunk — single variants, and
    # the table (four unlimited runs, 20 rows) as `odds --all --scheduler` builds it.
    from distributed import Client, LocalCluster

    variants = [Variant(), Variant(1, True, False)]
    local = runner.run(variants, 40_000, seed=5)
    table = runner.table(50_000, seed=6)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert runner.run(variants, 40_000, seed=5, client=client, chunk=7_000) == local
        done: list[int] = []
        assert runner.table(50_000, seed=6, client=client, progress=done.append, chunk=9_000) == table
        assert sum(done) == 4 * 50_000
        assert len(client.scheduler_info()["workers"]) == 2


@pytest.mark.timeout(120)  # a hang fails it
def test_a_silent_server_does_not_hang_the_connect() -> None:
    # Regression: distributed's timeout covers the TCP connect, not the handshake after
    # it: a server that accepts and says nothing (an HTTP server) hung `odds --scheduler`.
    import socket

    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        with pytest.raises(runner.SchedulerError, match="no Dask answer within 1 s"):
            runner.connect(f"tcp://127.0.0.1:{port}", timeout=1.0)
