"""The live chance to come out, by the play layer's one policy (``firstlast.play.chance``),
round by round (docs/web-api.md, "Chance"): rounds are estimated in worker threads,
kept in the play layer's ``ChanceBook`` and told in the player's language on the way out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import Response

from ... import runtime
from ...i18n import chance_text
from ...play import chance as policy
from .. import models as m
from ..context import Endpoint, WebGame, json_response
from ..errors import odds_refusals
from ..inputs import query

if TYPE_CHECKING:
    from ...engine import Position
    from ...play.chance import ChanceEstimate


async def chance(web: WebGame, request: Request) -> Response:
    q = query(request, m.ChanceQuery)
    stored, lang = await web.load_lang(request, web.play.game)
    pos = stored.game.position
    decided = policy.decided(pos)
    if decided is not None:
        pooled, answered = decided, q.round
    else:
        held = web.chances.rounds(pos, q.round, q.samples)
        pooled = policy.pool(held) if all(r is not None for r in held) else await _estimated(web, stored.player, pos, q)
        answered = pooled.rounds - 1
    est, pool = pooled.latest, pooled.estimate
    return json_response(m.Chance(
        **_figure(est, lang), certain=bool(est.certain), round=answered, next_round=pooled.next_round,
        pooled=m.ChancePool(**_figure(pool, lang), rounds=pooled.rounds, short=chance_text(pool, lang, short=True))))


def _figure(est: ChanceEstimate, lang: m.Lang) -> dict[str, Any]:
    """``est`` as ``models.ChanceFigure`` (plain numbers), with its words."""
    return {"probability": float(est.probability), "low": float(est.low), "high": float(est.high),
            "samples": int(est.samples), "wins": int(est.wins), "text": chance_text(est, lang)}


async def _estimated(web: WebGame, player: str, pos: Position, q: m.ChanceQuery) -> policy.Pooled:
    """Rounds 0 … ``q.round`` pooled, the missing ones estimated in order, at most one
    per request where the engine samples alone (docs/web-api.md, "Chance")."""
    async with web.cpu_turn(player):
        held = web.chances.rounds(pos, q.round, q.samples)  # asked for meanwhile, perhaps
        for r, known in enumerate(held):
            if known is None:
                # Refused here, not in the worker: the site's computing worker sends its
                # failure back pickled, and only the odds' own exceptions come back whole.
                with odds_refusals():
                    held[r] = done = await runtime.run_cpu(policy.round_estimate, pos, r, q.samples,
                                                           limiter=web.chance_limiter)
                web.chances.put(pos, r, done, q.samples)
                if policy.one_round_per_ask(done, q.samples):
                    break
        return policy.pool(held)


ENDPOINTS: Final = (
    Endpoint("GET", "/api/games/{id}/chance", chance,
             "the chance to come out from the game's position (exact once decided): round r pooled with "
             "the rounds before it, and the round to ask for next (play.chance's policy)",
             query=m.ChanceQuery, answers={200: m.Chance}, errors=(422,)),
)
