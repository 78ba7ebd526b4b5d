"""Deals people can say, and a deal that comes out for every variant (issue 19).

Random deals are drawn from 1…999,999,999 by one function (``deals.random_deal``);
every number up to 2^64−1 stays playable by number. A deal that comes out is found for
every one of the 20 variants in seconds, on both routes (the fast forced line, and the
engine alone as in the browser without it): the rare variants take one from the shipped
list (``deals.known_winnable``, made by scripts/winnable_deals.py), checked by an exact
play-out; the list itself is re-played here with the engine, not the kernel that made it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from playing import export_backup, restart, step

from firstlast.engine import MAX_DEAL, Game, Variant, play_out
from firstlast.play import PlayError, PlayService, deals
from firstlast.play.deals import RANDOM_DEAL_MAX, RARE_BELOW, first_winnable, known_winnable, random_deal, winnable_deal
from firstlast.store import GameStore

ROOT = Path(__file__).resolve().parents[2]
#: Every variant token of docs/odds.md: 0–3 redeals and unlimited, with V2 and V3 or not.
TOKENS = [f"r{r}{w}{n}" for w in ("", "w") for n in ("", "n") for r in ("0", "1", "2", "3", "u")]


@pytest.fixture
def play(tmp_path: Path) -> PlayService:
    return PlayService(GameStore(tmp_path / "games.sqlite3"))


def comes_out(deal: int, token: str) -> bool:
    """The engine itself (no kernel) plays the deal's forced line to its end."""
    game = Game(deal, Variant.from_token(token))
    game.autoplay()
    return game.position.status == "won"


# ---------------------------------------------------------------------------- random deals
def test_random_deals_are_numbers_people_can_say() -> None:
    drawn = [random_deal() for _ in range(20_000)]
    assert all(1 <= d <= RANDOM_DEAL_MAX for d in drawn)
    assert max(len(str(d)) for d in drawn) == 9  # nine digits at most, and they do reach nine
    assert len(set(drawn)) > 19_900
    # A seeded draw is reproducible (the search's seed policy rests on it).
    assert [random_deal(random.Random(5)) for _ in range(3)] == [random_deal(random.Random(5)) for _ in range(3)]
    seeded = random.Random(7)
    assert all(1 <= random_deal(seeded) <= RANDOM_DEAL_MAX for _ in range(10_000))


def test_every_random_start_draws_a_short_deal_and_long_ones_still_open(play: PlayService) -> None:
    me = play.start(None, "random").player
    for _ in range(30):
        stored = play.start(me, "random")
        assert 1 <= stored.game.deal <= RANDOM_DEAL_MAX and stored.dealt == "random"
    for deal in (0, 11760845860229611713, MAX_DEAL):  # every number of §4 still plays
        stored = play.start(me, "number", str(deal))
        assert stored.game.deal == deal and stored.dealt == "number"
        assert step(play, me, stored.id).steps
    assert play.start(me, "next").game.deal == 0  # the last number wraps round (§4)


# ---------------------------------------------------------------------------- the shipped list
def _rates() -> dict[str, float]:
    table = json.loads((ROOT / "docs" / "odds-100M.json").read_text(encoding="utf-8"))["variants"]
    return {Variant.from_token(v["variant"]).token: v["win_rate"] for v in table}


def test_the_list_covers_exactly_the_rare_variants() -> None:
    rates = _rates()
    assert sorted(rates) == sorted(TOKENS)
    listed = known_winnable()
    assert sorted(listed) == sorted(t for t, rate in rates.items() if rate < RARE_BELOW)
    assert "r0n" in listed and "r3" not in listed
    for token, found in listed.items():
        assert 300 <= len(found) <= 5000, token
        assert len(set(found)) == len(found) and all(1 <= d <= RANDOM_DEAL_MAX for d in found), token
    assert (ROOT / "src" / "firstlast" / "play" / deals.KNOWN_WINNABLE).stat().st_size < 100_000


def test_a_sample_of_the_list_comes_out_under_the_engine() -> None:
    rng = random.Random(19)
    for token, found in known_winnable().items():
        for deal in rng.sample(found, 8):
            assert comes_out(deal, token), (token, deal)


@pytest.mark.slow
def test_every_listed_deal_comes_out_under_the_engine() -> None:
    for token, found in known_winnable().items():
        variant = Variant.from_token(token)
        lost = [d for d in found if not play_out(d, variant).won]
        assert not lost, (token, lost[:5])


# ---------------------------------------------------------------------------- the search
def test_the_search_is_reproducible_given_its_seed() -> None:
    for token in ("r0n", "r0w", "r3", "r2n", "ru"):
        variant = Variant.from_token(token)
        first = winnable_deal(variant, rng=random.Random(2026))
        assert winnable_deal(variant, rng=random.Random(2026)) == first, token
        assert 1 <= first <= RANDOM_DEAL_MAX and comes_out(first, token)
    # Different seeds spread over the list.
    assert len({winnable_deal(Variant.from_token("r0n"), rng=random.Random(s)) for s in range(40)}) > 20


def test_a_listed_deal_that_does_not_come_out_is_never_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The list is checked by an exact play-out each time: a damaged entry falls back to
    the search, which finds a deal that does come out, or says it found none."""
    lost = next(d for d in range(1, 100) if not play_out(d, Variant.from_token("r1w")).won)
    known = dict(known_winnable())
    known["r1w"] = (lost,)
    monkeypatch.setattr(deals, "known_winnable", lambda: known)
    deal = winnable_deal(Variant.from_token("r1w"), rng=random.Random(1))
    assert deal != lost and comes_out(deal, "r1w")
    with pytest.raises(PlayError) as e:
        winnable_deal(Variant.from_token("r1w"), draw=lambda: lost, tries=3)
    assert e.value.code == "winnable.none"


@pytest.mark.parametrize("token", TOKENS)
def test_every_variant_deals_one_that_comes_out(play: PlayService, token: str) -> None:
    """How soon is bench/winnable_speed.py's to say (a hang is pytest-timeout's)."""
    variant = Variant.from_token(token)
    stored = play.start(None, "winnable", variant=variant)
    assert stored.game.variant == variant and stored.dealt == "winnable"
    assert 1 <= stored.game.deal <= RANDOM_DEAL_MAX and comes_out(stored.game.deal, token)
    assert play.game(stored.player, stored.id).dealt == "winnable"  # kept in the store


def test_every_variant_deals_one_without_the_fast_line() -> None:
    """FIRSTLAST_FASTLINE=none (the engine alone, as the browser without its kernel):
    each of the 20 variants, through the service and its helper process. Prints the
    times (the report's figures; bench/winnable_speed.py measures them over HTTP)."""
    script = textwrap.dedent(f"""
        import json, sys, tempfile, time
        from pathlib import Path
        from firstlast.engine import Variant
        from firstlast.odds import fastline
        from firstlast.play import PlayService
        from firstlast.store import GameStore
        assert not fastline.available()
        play = PlayService(GameStore(Path(tempfile.mkdtemp()) / "g.sqlite3"))
        out = {{}}
        for token in {TOKENS!r}:
            t0 = time.monotonic()
            stored = play.start(None, "winnable", variant=Variant.from_token(token))
            out[token] = [stored.game.deal, round(time.monotonic() - t0, 3)]
        print(json.dumps(out))
    """)
    env = {**os.environ, "FIRSTLAST_FASTLINE": "none", "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout.splitlines()[-1])
    print(found)
    assert sorted(found) == sorted(TOKENS)
    for token, (deal, _took) in found.items():
        assert 1 <= deal <= RANDOM_DEAL_MAX and comes_out(deal, token), (token, deal)


def test_first_winnable_checks_one_deal() -> None:
    listed = known_winnable()["r0n"][0]
    assert first_winnable([listed], Variant.from_token("r0n")) == listed
    assert first_winnable([1], Variant.from_token("r0n")) is None


def test_how_a_game_was_dealt_is_kept(play: PlayService, tmp_path: Path) -> None:
    """The store keeps each game's start kind (``dealt``): ``again`` under the same rules
    and a restart of a finished game keep the kind they repeat, and a backup carries it."""
    r0n = Variant.from_token("r0n")
    won = play.start(None, "winnable", variant=r0n)
    me = won.player
    assert play.start(me, "again").dealt == "winnable"  # the same deal and rules: it still comes out
    assert play.start(me, "again", variant=Variant()).dealt == "again"  # other rules: no such claim
    table = play.start(me, "winnable", variant=r0n)
    assert step(play, me, table.id, n=100_000).stored.game.position.status == "won"
    fresh = restart(play, me, table.id)
    assert fresh.new_game and fresh.stored.dealt == "winnable"
    other = PlayService(GameStore(tmp_path / "other.sqlite3"))
    report = other.import_backup(None, export_backup(play, me))
    kinds = sorted(str(g.dealt) for g in (other.game(report.player, s.id) for s in other.games(report.player)))
    assert kinds == sorted(str(g.dealt) for g in (play.game(me, s.id) for s in play.games(me)))
    assert "winnable" in kinds
