"""The statistics policy, in one place (docs/play.md, "Statistics", tells it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta

from ..engine import Variant
from ..engine.cards import DECK_SIZE
from ..store import ResultRow, StoredGame, timestamp
from .fields import VariantToken


def keep_result(stored: StoredGame) -> None:
    """The first end ``stored`` reaches is its result, kept forever (R11: won or lost):
    set once, when the position first ends (an undo after the end, or a redo to another
    end, leaves it). Called on every game before it is stored."""
    pos = stored.game.position
    if stored.result is None and pos.status != "playing":
        stored.result, stored.result_score, stored.result_passes = pos.status, pos.score, pos.passes
        stored.finished = timestamp()


#: The width of the score histogram's bins, in cards (0–7 … 96–103; the won games, 104,
#: apart): the terminal's and the page's (``vocabulary.js``) histograms both draw by it.
SCORE_BIN: Final = 8


class Stats(msgspec.Struct, frozen=True, kw_only=True):
    """One variant's counted games (docs/play.md, "Statistics")."""

    variant: VariantToken
    description: str
    played: int  # finished (won + lost)
    won: int
    lost: int
    abandoned: int
    win_rate: Annotated[float, Meta(ge=0, le=1)]
    current_streak: int
    best_streak: int
    average_passes: float
    score_histogram: Annotated[list[int], Meta(min_length=DECK_SIZE + 1, max_length=DECK_SIZE + 1,
                                               description="games by score 0…104")]
    fewest_passes: Annotated[int | None, Meta(description="record: the fewest passes a won game took; null: none won")]
    best_lost_score: Annotated[int | None, Meta(description="record: the best score of a lost game; null: none")]


def compute(variant: Variant, rows: Iterable[ResultRow]) -> Stats:
    """Apply the policy to a variant's games, oldest event first."""
    played = won = abandoned = best_streak = streak = passes_total = 0
    histogram = [0] * (DECK_SIZE + 1)
    fewest_passes: int | None = None
    best_lost_score: int | None = None
    for row in rows:
        if row.origin != "played":
            continue
        if row.result is not None:
            played += 1
            histogram[min(DECK_SIZE, max(0, row.score or 0))] += 1
            passes_total += row.passes or 0
            if row.result == "won":
                won += 1
                streak += 1
                best_streak = max(best_streak, streak)
                if row.passes is not None:
                    fewest_passes = row.passes if fewest_passes is None else min(fewest_passes, row.passes)
            else:
                streak = 0
                if row.score is not None:
                    best_lost_score = row.score if best_lost_score is None else max(best_lost_score, row.score)
        elif row.abandoned:
            abandoned += 1
            streak = 0
    return Stats(variant=variant.token, description=variant.describe(), played=played, won=won, lost=played - won,
                 abandoned=abandoned, win_rate=won / played if played else 0.0, current_streak=streak,
                 best_streak=best_streak, average_passes=passes_total / played if played else 0.0,
                 score_histogram=histogram, fewest_passes=fewest_passes, best_lost_score=best_lost_score)


#: The personal records a game's end can set (docs/play.md, "Records").
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
    """The records the game ``game_id`` set when it ended (docs/play.md, "Records"), among
    ``rows`` (as ``compute`` takes them): what its result changed in those before it."""
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
