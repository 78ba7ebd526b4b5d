"""Long computations (chance estimates, stories) are bounded per player: one player's
requests take turns (``WebGame.cpu_turn``), so one player never holds more than one of
the two computing slots, while two players compute side by side."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import loops
import pytest

from firstlast.store import GameStore
from firstlast.web import create_app
from firstlast.web.context import WebGame
from firstlast.web.routes import odds

BASE = "http://127.0.0.1"


class Meter:
    """Stands in for ``runtime.run_cpu``: counts how many computations run at once. Each
    one lasts until every request has asked for its turn (``asked``, counted by
    ``WebGame.cpu_turn``), so that whatever could run beside it is running: the most
    at once is decided by the turns, never by how soon a request arrives."""

    def __init__(self, requests: int) -> None:
        self.requests = requests
        self.asked = 0
        self.all_asked = asyncio.Event()
        self.now = 0
        self.most = 0

    def ask(self) -> None:
        self.asked += 1
        if self.asked >= self.requests:
            self.all_asked.set()

    async def __call__(self, fn: Any, *args: Any, limiter: Any = None) -> Any:
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            # Bounded only so that a fault (a request that never asks) fails, not hangs.
            await asyncio.wait_for(self.all_asked.wait(), timeout=60)
            await asyncio.sleep(0)  # and those let in beside it have run to here
            return fn(*args)
        finally:
            self.now -= 1


def metered(monkeypatch: pytest.MonkeyPatch, requests: int) -> Meter:
    meter = Meter(requests)
    monkeypatch.setattr(odds.runtime, "run_cpu", meter)
    turn = WebGame.cpu_turn

    def cpu_turn(web: WebGame, player: str) -> asyncio.Lock:
        meter.ask()
        return turn(web, player)

    monkeypatch.setattr(WebGame, "cpu_turn", cpu_turn)
    return meter


async def _chances(tmp_path: Path, players: int, rounds: int, meter: Meter) -> list[int]:
    app = create_app(GameStore(tmp_path / "games.sqlite3"))
    transport = httpx.ASGITransport(app=app)
    statuses: list[int] = []
    clients = [httpx.AsyncClient(transport=transport, base_url=BASE) for _ in range(players)]
    try:
        games = []
        for c in clients:
            r = await c.post("/api/games", json={"deal": "42"}, headers={"origin": BASE})
            assert r.status_code == 201, r.text
            games.append(r.json()["id"])
        calls = [c.get(f"/api/games/{g}/chance", params={"samples": 100, "round": r})
                 for c, g in zip(clients, games, strict=True) for r in range(rounds)]
        for r in await asyncio.gather(*calls):
            statuses.append(r.status_code)
    finally:
        for c in clients:
            await c.aclose()
    return statuses


def test_one_players_estimates_take_turns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    meter = metered(monkeypatch, requests=4)
    assert loops.run(_chances(tmp_path, players=1, rounds=4, meter=meter)) == [200] * 4
    assert meter.most == 1  # one after another: never two of one player's at once


def test_two_players_estimate_side_by_side(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    meter = metered(monkeypatch, requests=4)
    assert loops.run(_chances(tmp_path, players=2, rounds=2, meter=meter)) == [200] * 4
    assert meter.most == 2
