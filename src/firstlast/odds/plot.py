"""One figure of the odds (matplotlib, Agg backend: no display needed). P(win) against
redeals is read from the unlimited-redeal tallies (docs/odds.md, "Passes needed"); the
rows of direct runs with finite redeals are drawn over the curves as points.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..engine import Variant
from .stats import Tally


def _combo(v: Variant) -> str:
    return ("waste playable" if v.waste_playable else "waste not playable") + (
        ", privileged F8" if v.privileged_last else ", no privilege")


def write_plot(path: Path, unlimited: list[Tally], direct: list[Tally], scores: Tally) -> None:
    """Write the figure: P(win) vs redeals, passes needed, score histogram."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 4.2), dpi=80)
    rs = np.arange(11)  # redeals 0…10
    for i, t in enumerate(unlimited):
        color = f"C{i}"
        # With R redeals a game comes out when the unlimited one does within R + 1 passes.
        won = [100 * (sum(t.passes_won[:r + 2]) / t.games) for r in rs]
        ax1.plot(rs, won, "-", color=color, label=_combo(t.variant))
        for d in direct:
            same = (d.variant.waste_playable, d.variant.privileged_last) == (
                t.variant.waste_playable, t.variant.privileged_last)
            if same and d.variant.redeals is not None and d.variant.redeals <= rs[-1]:
                ax1.plot([d.variant.redeals], [100 * d.win_rate], "o", color=color)
        needed = np.asarray(t.passes_won[1:], dtype=np.float64) / t.games
        ax2.step(np.arange(1, needed.shape[0] + 1), 100 * needed, where="mid", color=color, label=_combo(t.variant))
    ax1.set(xlabel="redeals allowed", ylabel="P(win) %", title=f"Win rate vs redeals ({unlimited[0].games:,} deals)")
    ax1.set_xticks(rs)
    ax1.grid(alpha=0.3)
    ax1.legend(fontsize=8)
    ax2.set(xlabel="passes needed to come out (unlimited redeals)", ylabel="% of deals",
            title="Passes needed")
    longest = max(max((p for p, n in enumerate(t.passes_won) if n), default=1) for t in unlimited)
    ax2.set_xlim(0.5, longest + 0.5)
    ax2.set_xticks(range(1, longest + 1, 1 if longest <= 16 else 2))
    ax2.grid(alpha=0.3)
    sc = np.asarray(scores.scores, dtype=np.float64) / scores.games
    ax3.bar(np.arange(sc.shape[0]), 100 * sc, width=1.0, color="C4")
    ax3.set(xlabel="cards on the piles at the end (104 = won)", ylabel="% of games",
            title=f"Scores: {scores.variant.describe()}")
    ax3.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
