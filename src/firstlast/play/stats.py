"""The statistics policy, in one place (docs/play.md, "Statistics").

* A game counts once it has a result (won or lost), and that result is kept forever:
  undoing after the end, or restarting (which opens a new attempt), never erases it.
* A game the player left unfinished to start or open another counts as *abandoned*, in
  its own column; it breaks the current streak, as a loss would (otherwise a player
  could keep a streak by leaving games the chance meter calls hopeless). Reopening it
  takes it out of that column.
* An imported record is someone's game: kept and replayable, never counted.
* A game dealt and never played is not a game: leaving it deletes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import Variant
from ..store import ResultRow, StoredGame, timestamp


def keep_result(stored: StoredGame) -> None:
    """The first end ``stored`` reaches is its result, kept forever (R11: won or lost):
    its outcome, score, passes and time are set once, when the position first ends, and
    never changed after (an undo after the end, or a redo to another end, leaves them).
    Called on every game before it is stored (``Transaction.insert``, ``.save``); the
    store writes the fields as they are."""
    pos = stored.game.position
    if stored.result is None and pos.status != "playing":
        stored.result, stored.result_score, stored.result_passes = pos.status, pos.score, pos.passes
        stored.finished = timestamp()


@dataclass
class Stats:
    """Statistics of one variant's games."""

    variant: Variant
    played: int = 0  # finished (won + lost)
    won: int = 0
    abandoned: int = 0
    current_streak: int = 0
    best_streak: int = 0
    scores: list[int] = field(default_factory=list)  # one per finished game, oldest first
    passes_total: int = 0

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_passes(self) -> float:
        return self.passes_total / self.played if self.played else 0.0

    def score_histogram(self) -> list[int]:
        """Count of finished games by score 0…104."""
        hist = [0] * 105
        for s in self.scores:
            hist[s] += 1
        return hist

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant.token, "description": self.variant.describe(), "played": self.played,
            "won": self.won, "lost": self.lost, "abandoned": self.abandoned, "win_rate": self.win_rate,
            "current_streak": self.current_streak, "best_streak": self.best_streak,
            "average_passes": self.average_passes, "score_histogram": self.score_histogram(),
        }


def compute(variant: Variant, rows: Iterable[ResultRow]) -> Stats:
    """Apply the policy above to a variant's games, oldest event first."""
    st = Stats(variant)
    streak = 0
    for row in rows:
        if row.origin != "played":
            continue
        if row.result is not None:
            st.played += 1
            st.scores.append(min(104, max(0, row.score or 0)))
            st.passes_total += row.passes or 0
            if row.result == "won":
                st.won += 1
                streak += 1
                st.best_streak = max(st.best_streak, streak)
            else:
                streak = 0
        elif row.abandoned:
            st.abandoned += 1
            streak = 0
    st.current_streak = streak
    return st
