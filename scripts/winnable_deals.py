"""Make src/firstlast/play/winnable-deals.json: deals known to come out, for the rare variants.

    python scripts/winnable_deals.py [--count 500] [--seed 19] [--check]

A deal that comes out is found by searching random deals; for the rare variants (those
that come out less than ``deals.RARE_BELOW`` of the time, docs/odds.md: r0n about 4 deals
in a million) a search takes too many tries for the engine, the browser or a busy
server, so the package ships a list instead (``deals.known_winnable``). This script
makes it with the fast forced line (``odds.fastline``, natively about a million deals a
second): for each rare variant, blocks of consecutive deals at random places in
1…999,999,999 (``deals.RANDOM_DEAL_MAX``), at most ten winners from each block, until
``--count`` are found; each is then played out once more by the engine itself. The same
``--seed`` and ``--count`` give the same file on any machine (about two minutes of
processor time, nearly all of it r0n). ``--check`` only says whether the committed file
is that output (exit 1 if not).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from firstlast.engine import Variant, play_out  # noqa: E402
from firstlast.odds import fastline  # noqa: E402
from firstlast.play import deals  # noqa: E402

TARGET = ROOT / "src" / "firstlast" / "play" / deals.KNOWN_WINNABLE
ODDS = ROOT / "docs" / "odds-100M.json"
PER_BLOCK = 10
PROBE = 1_000_000


def find(token: str, count: int, seed: int) -> list[int]:
    """``count`` deals that come out under ``token``, drawn reproducibly from ``seed``."""
    variant = Variant.from_token(token)
    rng = random.Random(f"{seed}/{token}")
    found: dict[int, None] = {}  # in the order found (a set keeps no order)
    block = PROBE
    while len(found) < count:
        start = rng.randrange(1, deals.RANDOM_DEAL_MAX - block + 2)
        won = fastline.play_deals(range(start, start + block), variant).won
        winners = [start + i for i, w in enumerate(won) if w]
        if block == PROBE:  # the first block sizes the rest: about PER_BLOCK winners each
            rate = max(len(winners), 1) / PROBE
            block = max(10_000, min(PROBE, round(PER_BLOCK / rate)))
        found.update(dict.fromkeys(winners[:PER_BLOCK]))
    return sorted(list(found)[:count])


def rare() -> list[str]:
    """The variants that come out less than ``deals.RARE_BELOW`` of the time, in the
    order of docs/odds.md (its 100-million-deal table, docs/odds-100M.json)."""
    table = json.loads(ODDS.read_text(encoding="utf-8"))["variants"]
    return [Variant.from_token(v["variant"]).token for v in table if v["win_rate"] < deals.RARE_BELOW]


def make(count: int, seed: int) -> str:
    lines = []
    for token in rare():
        t0 = time.perf_counter()
        chosen = find(token, count, seed)
        for d in chosen:  # the engine is the rules: every listed deal comes out there too
            if not play_out(d, Variant.from_token(token)).won:
                raise SystemExit(f"{token}: deal {d} does not come out under the engine")
        print(f"{token}: {len(chosen)} deals in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        lines.append(f"    {json.dumps(token)}: {json.dumps(chosen)}")
    return ("{\n"
            f'  "about": "Deals known to come out, for the variants that come out less than {deals.RARE_BELOW:.0%}'
            ' of the time (docs/odds.md); made by scripts/winnable_deals.py",\n'
            f'  "command": "python scripts/winnable_deals.py --count {count} --seed {seed}",\n'
            '  "deals": {\n' + ",\n".join(lines) + "\n  }\n}\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=500, help="deals per variant (default 500)")
    ap.add_argument("--seed", type=int, default=19, help="where the blocks lie (default 19)")
    ap.add_argument("--check", action="store_true", help="only compare with the committed file")
    args = ap.parse_args()
    if not fastline.available():
        raise SystemExit("needs the fast forced line (a C compiler, or wasmtime): see docs/odds.md")
    text = make(args.count, args.seed)
    if args.check:
        same = TARGET.exists() and TARGET.read_text(encoding="utf-8") == text
        print("fresh" if same else f"{TARGET.name} differs from the script's output", file=sys.stderr)
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
