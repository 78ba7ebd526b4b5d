"""The live chance to come out (``firstlast.odds.live``), estimated in worker threads.

A chance is asked for by round: round 0 is the same estimate on every run and in every
face, each further round (``odds.live.refine_seed``) draws new, independent samples of
the same position, so the page, while the player is idle, asks for round 1, 2, … . Each
answer also carries ``pooled``: that round merged with the earlier rounds of the position
this server still holds (wins and samples summed), so that the page shows a pooled
figure without counting or wording anything itself. Estimates are cached per position,
sample count and round, and told in the player's language on the way out
(``i18n.chance_text``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from starlette.requests import Request
from starlette.responses import Response

from ... import runtime
from ...i18n import chance_text
from .. import models as m
from ..context import Endpoint, WebGame, json_response
from ..errors import WebError
from ..inputs import query

if TYPE_CHECKING:
    from ...engine import Position
    from ...odds.live import ChanceEstimate


class _Decided:
    """A finished game's chance: exact, no sample needed (nor the odds module)."""

    def __init__(self, won: bool) -> None:
        self.probability = self.low = self.high = 1.0 if won else 0.0
        self.samples = 0
        self.wins = 0
        self.certain = True


def _estimate(pos: Position, samples: int, round_: int) -> ChanceEstimate:
    try:
        # Imported here: the fast forced line is built or loaded on first use, and a
        # server without the odds module still serves the game.
        from ...odds.live import chance_to_come_out, refine_seed
    except ImportError:
        raise WebError("chance.missing") from None
    try:
        return chance_to_come_out(pos, samples=samples, seed=refine_seed(pos, round_))
    except (ValueError, OverflowError, MemoryError):
        raise WebError("chance.unavailable") from None


async def chance(web: WebGame, request: Request) -> Response:
    q = query(request, m.ChanceQuery)
    stored, lang = await web.load_lang(request)
    pos = stored.game.position
    status = pos.status
    est: ChanceEstimate | _Decided
    pool: ChanceEstimate | _Decided
    rounds = 1
    if status != "playing":
        # Decided: no sampling needed (and the kernel need not handle ended games).
        est = pool = _Decided(status == "won")
    else:
        notation = str(pos)  # the notation includes the redeal stream: same key, same odds
        key = (notation, q.samples, q.round)
        cached = web.chance_cache.get(key)
        if cached is None:
            async with web.cpu_turn(stored.player):
                cached = web.chance_cache.get(key)  # asked for meanwhile, perhaps
                if cached is None:
                    cached = await runtime.run_cpu(_estimate, pos, q.samples, q.round, limiter=web.chance_limiter)
                    web.chance_cache.put(key, cached)
        est = cached
        # The earlier rounds still held, merged in: independent samples of one position.
        pooled = cached
        for r in range(q.round):
            earlier = web.chance_cache.get((notation, q.samples, r))
            if earlier is not None and not (earlier.certain or cached.certain):
                pooled, rounds = pooled.merge(earlier), rounds + 1
        pool = pooled
    return json_response(m.Chance(
        probability=float(est.probability), low=float(est.low), high=float(est.high), samples=int(est.samples),
        wins=int(est.wins), certain=bool(est.certain), round=q.round, text=chance_text(est, lang),
        pooled=m.ChancePool(probability=float(pool.probability), low=float(pool.low), high=float(pool.high),
                            samples=int(pool.samples), wins=int(pool.wins), rounds=rounds,
                            text=chance_text(pool, lang))))


ENDPOINTS: Final = (
    Endpoint("GET", "/api/games/{id}/chance", chance,
             "the chance to come out from the game's position (exact once decided); round r: new samples to pool",
             query=m.ChanceQuery, answers={200: m.Chance}, errors=(422, 503)),
)
