"""The chance policy's answer for a game over (play.chance.decided): exact, sampled by no one."""

from __future__ import annotations

from firstlast.engine import Game
from firstlast.play.chance import decided


def test_a_game_over_has_an_exact_chance_and_a_game_played_none() -> None:
    ended: dict[str, Game] = {}
    deal = 0
    while len(ended) < 2:
        game = Game(deal)
        assert decided(game.position) is None  # played: the odds are asked
        game.autoplay()
        ended.setdefault(game.position.status, game)
        deal += 1
    for status, game in ended.items():
        pooled = decided(game.position)
        assert pooled is not None
        p = 1.0 if status == "won" else 0.0
        for est in (pooled.estimate, pooled.latest):
            assert (est.probability, est.low, est.high, est.samples, est.certain) == (p, p, p, 0, True)
        assert pooled.rounds == 1 and pooled.next_round is None
