"""A crash never loses an answered move nor corrupts the store.

A few clients play against a real ``firstlast play`` on one database while the server is
killed (SIGKILL, no chance to clean up) and started again, a few times. Afterwards every
move the server answered 200 for is in the database, in the place the answer gave it,
and every stored game loads. Bounded by answers, not time: each server is killed once
its clients have had ``ANSWERS`` actions answered; nothing asserts a speed."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from reading import read
from spawn import drain_output, spawn_server, stop_server

from firstlast.store import GameStore

pytestmark = pytest.mark.timeout(300)

KILLS = 3
ANSWERS = 40  # actions answered on each server before it is killed (or stopped)
CLIENTS = 3


@dataclass
class Answered:
    """What the server answered 200 (or 201) for: per game, (moves after, moves made)."""

    games: set[str] = field(default_factory=set)
    results: list[tuple[str, int, list[str]]] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)  # answered actions per server
    failures: list[str] = field(default_factory=list)  # a client's unexpected answer
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Set once this server's clients have had ``ANSWERS`` actions answered, or all of
    #: them stopped (failed, or the server went away): the round may end.
    played: threading.Event = field(default_factory=threading.Event)
    stopped: int = 0  # this server's clients that stopped


def _play(url: str, me: dict[str, str], answered: Answered, stop: threading.Event, seed: int) -> None:
    """One browser: one player, who plays forced moves until ``stop`` or until the
    server goes away. ``me`` keeps the player's token and game across servers (the
    cookie is named by the port, so each new server is signed in to with
    ``/?player=``). Every answer is recorded before the next request."""
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=60) as http:  # the bound only ends a hung request
        try:
            if "player" in me:
                # As a typed address (Sec-Fetch-Site: none): signed in at once (issue 29.6).
                assert http.get(f"/?player={me['player']}", headers={"sec-fetch-site": "none"}).status_code == 303
            hint: str | None = None
            while not stop.is_set():
                game = me.get("game")
                if game is None:
                    r = http.post("/api/games", json={"deal": str(rng.randrange(1 << 64))})
                    assert r.status_code == 201, r.text
                    game = me["game"] = r.json()["id"]
                    cookie = next(v for k, v in http.cookies.items() if k.startswith("fl_player"))
                    me["player"] = cookie.rpartition(".")[0]  # TOKEN.MAC
                    with answered.lock:
                        answered.games.add(game)
                    continue
                kind = rng.choice(["step", "advance", "move"])
                if kind == "step":
                    r = http.post(f"/api/games/{game}/step", json={"n": rng.randint(1, 5)})
                elif kind == "advance":
                    r = http.post(f"/api/games/{game}/advance", json={})
                else:
                    r = http.post(f"/api/games/{game}/moves", json={"move": hint or "turn"})
                if r.status_code == 409:  # over, or the guessed move is not the forced one
                    state = http.get(f"/api/games/{game}").json()
                    hint = state.get("hint")
                    if state["status"] != "playing":
                        del me["game"]
                    continue
                assert r.status_code == 200, r.text
                result = r.json()
                with answered.lock:
                    answered.results.append((game, result["state"]["moves"], result["steps"]))
                    answered.rounds[-1] += 1
                    if answered.rounds[-1] >= ANSWERS:
                        answered.played.set()
                hint = result["state"].get("hint")
        except httpx.TransportError:
            return  # the server was killed under it
        except AssertionError as e:
            answered.failures.append(str(e))
        finally:
            with answered.lock:
                answered.stopped += 1
                if answered.stopped == CLIENTS:
                    answered.played.set()


def test_answered_moves_survive_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    answered = Answered()
    players: list[dict[str, str]] = [{} for _ in range(CLIENTS)]
    for round_ in range(KILLS + 1):
        proc, url = spawn_server(db)
        answered.rounds.append(0)
        answered.played.clear()
        answered.stopped = 0
        output, drain = drain_output(proc)
        stop = threading.Event()
        clients = [threading.Thread(target=_play, args=(url, players[i], answered, stop, round_ * 100 + i))
                   for i in range(CLIENTS)]
        for c in clients:
            c.start()
        try:
            answered.played.wait()  # the clients are playing: ANSWERS actions answered
            if round_ < KILLS:
                proc.kill()  # SIGKILL while the clients are mid-request
                proc.wait(timeout=10)
            else:
                stop.set()
                for c in clients:
                    c.join(timeout=20)
                stop_server(proc)
        finally:
            stop.set()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for c in clients:
            c.join(timeout=20)
            assert not c.is_alive()
        drain.join(timeout=5)
        assert "Traceback" not in "".join(output)
    assert not answered.failures
    assert min(answered.rounds) >= ANSWERS, answered.rounds  # every server was played on before it died

    store = GameStore(db)  # checks every page (quick_check) on opening
    moves = {g.id: read(store).load(g.id).game.moves for g in read(store).games(None, limit=10_000)}  # every game loads
    assert answered.games <= moves.keys()
    for game, count, steps in answered.results:
        stored = [str(m) for m in moves[game]]
        assert len(stored) >= count, (game, count, len(stored))
        assert stored[count - len(steps):count] == steps, (game, count, steps)
