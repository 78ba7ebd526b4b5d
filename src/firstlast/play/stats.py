"""The statistics policy, in one place (docs/play.md, "Statistics", tells it): a game
counts once it has a result, kept forever; one left unfinished for another is abandoned
and breaks the streak; an imported record never counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from ..engine import Variant
from ..store import ResultRow, StoredGame, timestamp


def keep_result(stored: StoredGame) -> None:
    """The first end ``stored`` reaches is its result, kept forever (R11: won or lost):
    set once, when the position first ends (an undo after the end, or a redo to another
    end, leaves it). Called on every game before it is stored."""
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
    fewest_passes: int | None = None  # record: the fewest passes a won game came out in
    best_lost_score: int | None = None  # record: the best score of a lost game

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
            "fewest_passes": self.fewest_passes, "best_lost_score": self.best_lost_score,
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
                if row.passes is not None:
                    st.fewest_passes = row.passes if st.fewest_passes is None else min(st.fewest_passes, row.passes)
            else:
                streak = 0
                if row.score is not None:
                    st.best_lost_score = (row.score if st.best_lost_score is None
                                          else max(st.best_lost_score, row.score))
        elif row.abandoned:
            st.abandoned += 1
            streak = 0
    st.current_streak = streak
    return st


#: The personal records a game's end can set (docs/play.md, "Records"): the first game
#: won under a variant, the longest run of wins, the fewest passes to come out, the best
#: score of a lost game.
RecordKind = Literal["first_win", "streak", "passes", "lost_score"]


class RecordNews(msgspec.Struct, frozen=True):
    """A record a game set when it ended: its kind, the new value, and the one it beat
    (``None``: there was none). The web answers it as it is, with its words."""

    kind: Annotated[RecordKind, Meta(description=(
        "first_win: the first game won under these rules; streak: the longest run of wins; passes: the fewest "
        "passes to come out; lost_score: the best score of a lost game"))]
    value: int
    previous: Annotated[int | None, Meta(description="the record it beat; null: none")]


def news(variant: Variant, rows: Sequence[ResultRow], game_id: str) -> tuple[RecordNews, ...]:
    """The records the game ``game_id`` set when it ended, among ``rows`` (the player's
    games of ``variant``, as ``compute`` takes them): what its result changed in the
    records of the games that ended before it (docs/play.md, "Records"); none for a
    game without a result or not counted."""
    at = next((i for i, r in enumerate(rows) if r.id == game_id), None)
    if at is None or rows[at].origin != "played" or rows[at].result is None:
        return ()
    before, after = compute(variant, rows[:at]), compute(variant, rows[:at + 1])
    out: list[RecordNews] = []
    if rows[at].result == "won":
        if before.won == 0:
            out.append(RecordNews("first_win", 1, None))
        elif after.fewest_passes is not None and before.fewest_passes is not None \
                and after.fewest_passes < before.fewest_passes:
            out.append(RecordNews("passes", after.fewest_passes, before.fewest_passes))
        if after.best_streak > before.best_streak and after.best_streak >= 2:
            out.append(RecordNews("streak", after.best_streak, before.best_streak or None))
    elif before.best_lost_score is not None and after.best_lost_score is not None \
            and after.best_lost_score > before.best_lost_score:
        out.append(RecordNews("lost_score", after.best_lost_score, before.best_lost_score))
    return tuple(out)
