"""How long "a deal that comes out" takes, for every variant, on both routes, over HTTP.

    python bench/winnable_speed.py [--rounds 5]

Starts the real server (``firstlast play --no-browser --port 0``) twice on a throw-away
database: with the fast forced line where it runs, and with ``FIRSTLAST_FASTLINE=none``
(the engine alone, as a browser without the kernel). For each of the 20 variant tokens it
asks ``POST /api/games {"how": "winnable", "variant": TOKEN}`` ``--rounds`` times, one
after another, and prints the slowest and the median answer, and every status code seen
(201 throughout: never 409 or 503). The first request of a server also starts its
helper process (``runtime.run_apart``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from firstlast.engine import Game, Variant

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import spawn_server, stop_server

TOKENS = [f"r{r}{w}{n}" for w in ("", "w") for n in ("", "n") for r in ("0", "1", "2", "3", "u")]


def route(name: str, fastline: str | None, rounds: int) -> dict[str, tuple[list[float], set[int]]]:
    saved = os.environ.get("FIRSTLAST_FASTLINE")
    if fastline is None:
        os.environ.pop("FIRSTLAST_FASTLINE", None)
    else:
        os.environ["FIRSTLAST_FASTLINE"] = fastline
    tmp = tempfile.TemporaryDirectory()
    try:
        proc, url = spawn_server(Path(tmp.name) / "games.sqlite3")
    finally:
        if saved is None:
            os.environ.pop("FIRSTLAST_FASTLINE", None)
        else:
            os.environ["FIRSTLAST_FASTLINE"] = saved
    out: dict[str, tuple[list[float], set[int]]] = {}
    try:
        with httpx.Client(base_url=url, timeout=120) as http:
            http.post("/api/games", json={"deal": "1"})  # signed in
            for token in TOKENS:
                took: list[float] = []
                codes: set[int] = set()
                for _ in range(rounds):
                    t0 = time.perf_counter()
                    r = http.post("/api/games", json={"how": "winnable", "variant": token})
                    took.append(time.perf_counter() - t0)
                    codes.add(r.status_code)
                    if r.status_code == 201:
                        game = Game(int(r.json()["deal"]), Variant.from_token(token))
                        game.autoplay()  # the engine itself: it comes out
                        assert game.position.status == "won", (token, r.json()["deal"])
                out[token] = (took, codes)
    finally:
        stop_server(proc)
        tmp.cleanup()
    print(f"\n{name}")
    print(f"{'variant':>8} {'slowest s':>10} {'median s':>9}  codes")
    for token, (took, codes) in out.items():
        print(f"{token:>8} {max(took):>10.3f} {statistics.median(took):>9.3f}  {sorted(codes)}")
    if any(codes != {201} for _, codes in out.values()):
        raise SystemExit("some request was not answered 201")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="requests per variant and route (default 5)")
    args = ap.parse_args()
    route("fast forced line (where it runs)", None, args.rounds)
    route("engine alone (FIRSTLAST_FASTLINE=none)", "none", args.rounds)


if __name__ == "__main__":
    main()
