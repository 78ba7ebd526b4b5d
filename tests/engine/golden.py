"""Golden playthroughs: whole forced games written out move by move (OpenSpiel style).

Regenerate (only when the rules deliberately change) with ``python tests/engine/golden.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from firstlast.engine import Game, Variant

GOLDEN_DIR = Path(__file__).parent.parent / "data" / "golden"
CASES: list[tuple[int, Variant]] = [
    (1, Variant()),
    (0, Variant()),
    (7, Variant(redeals=None)),
    (42, Variant(waste_playable=True)),
    (2024, Variant(redeals=1, privileged_last=False)),
    (2**64 - 1, Variant(redeals=0, waste_playable=True, privileged_last=False)),
]


def path_for(deal: int, variant: Variant) -> Path:
    return GOLDEN_DIR / f"deal-{deal}-{variant.token}.txt"


def playthrough(deal: int, variant: Variant) -> list[str]:
    game = Game(deal, variant)
    lines = [f"deal {deal} variant {variant.token}", f"start {game.position}"]
    for i, step in enumerate(iter(game.step, None), start=1):
        assert step is not None
        lines.append(f"{i}. {step.move} | " + "; ".join(str(m) for m in step.movements))
    pos = game.position
    lines.append(f"end {pos.status} score {pos.score} passes {pos.passes}")
    lines.append(f"final {pos}")
    return lines


if __name__ == "__main__":
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for deal, variant in CASES:
        path_for(deal, variant).write_text("\n".join(playthrough(deal, variant)) + "\n", encoding="utf-8")
        print("wrote", path_for(deal, variant), file=sys.stderr)
