"""Long computations (chance estimates, stories) are bounded per player: one player's
requests take turns (``WebGame.cpu_turn``), so one player never holds more than one of
the two computing slots, while two players compute side by side."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from firstlast.store import GameStore
from firstlast.web import create_app
from firstlast.web.routes import odds

BASE = "http://127.0.0.1"


class Meter:
    """Stands in for ``runtime.run_cpu``: each call takes 0.2 s; counts how many run at
    once, in all and per thread of computation."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0

    async def __call__(self, fn: Any, *args: Any, limiter: Any = None) -> Any:
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            await asyncio.sleep(0.2)
            return fn(*args)
        finally:
            self.now -= 1


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
    meter = Meter()
    monkeypatch.setattr(odds.runtime, "run_cpu", meter)
    assert asyncio.run(_chances(tmp_path, players=1, rounds=4, meter=meter)) == [200] * 4
    assert meter.most == 1  # one after another: never two of one player's at once


def test_two_players_estimate_side_by_side(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    meter = Meter()
    monkeypatch.setattr(odds.runtime, "run_cpu", meter)
    assert asyncio.run(_chances(tmp_path, players=2, rounds=2, meter=meter)) == [200] * 4
    assert meter.most == 2
