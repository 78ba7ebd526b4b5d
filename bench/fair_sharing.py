"""A player's move latency while other players search for deals that come out, against
the same player alone: the issue measured 13.6 s for one move beside eight searches when
the search ran inside the write job.

    python bench/fair_sharing.py [--searchers 8] [--moves 60] [--variant r0]

Starts the real server (``firstlast play --no-browser --port 0``) on a throw-away
database; the baseline run plays ``--moves`` single steps alone, the loaded run the same
steps while ``--searchers`` clients (each its own player) ask for winnable deals under
``--variant`` without pause. Prints p50/p95/max of each run and their ratio, and what
the searchers were answered (201 found, 409 none found, 429 busy).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import spawn_server, stop_server


def steps(url: str, moves: int) -> list[float]:
    took: list[float] = []
    with httpx.Client(base_url=url, timeout=60) as http:
        game = http.post("/api/games", json={"deal": "42", "variant": "ru"}).json()["id"]
        for _ in range(moves):
            t0 = time.perf_counter()
            r = http.post(f"/api/games/{game}/step", json={"n": 1})
            took.append(time.perf_counter() - t0)
            if r.status_code != 200:
                raise SystemExit(f"step answered {r.status_code}: {r.text}")
            time.sleep(0.05)
    return took


def search(url: str, variant: str, stop: threading.Event, codes: collections.Counter[int]) -> None:
    with httpx.Client(base_url=url, timeout=300) as http:
        while not stop.is_set():
            r = http.post("/api/games", json={"how": "winnable", "variant": variant})
            codes[r.status_code] += 1
            if r.status_code == 429:
                time.sleep(float(r.headers.get("retry-after", "1")))


def run(searchers: int, moves: int, variant: str) -> tuple[list[float], collections.Counter[int]]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = spawn_server(Path(tmp) / "games.sqlite3")
        stop = threading.Event()
        codes: collections.Counter[int] = collections.Counter()
        threads = [threading.Thread(target=search, args=(url, variant, stop, codes)) for _ in range(searchers)]
        try:
            for t in threads:
                t.start()
            if searchers:
                time.sleep(1.0)  # the searches are under way
            return steps(url, moves), codes
        finally:
            stop.set()
            stop_server(proc)
            for t in threads:
                t.join(timeout=300)


def summary(took: list[float]) -> tuple[float, float, float]:
    ordered = sorted(took)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))], ordered[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--searchers", type=int, default=8)
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--variant", default="r0")
    args = ap.parse_args()
    alone, _ = run(0, args.moves, args.variant)
    loaded, codes = run(args.searchers, args.moves, args.variant)
    a, b = summary(alone), summary(loaded)
    print(f"{'':24} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    print(f"{'alone':24} {a[0] * 1e3:8.1f} {a[1] * 1e3:8.1f} {a[2] * 1e3:8.1f}")
    print(f"{f'beside {args.searchers} searches':24} {b[0] * 1e3:8.1f} {b[1] * 1e3:8.1f} {b[2] * 1e3:8.1f}")
    print(f"{'ratio':24} {b[0] / a[0]:8.2f} {b[1] / a[1]:8.2f} {b[2] / a[2]:8.2f}")
    print("searchers were answered:", dict(sorted(codes.items())))


if __name__ == "__main__":
    main()
