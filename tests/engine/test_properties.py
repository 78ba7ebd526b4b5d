"""Property tests over random deals, all variants and random (not only forced) play."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firstlast.engine import MAX_DEAL, Game, Position, Variant, position_from_text
from firstlast.engine.notation import validate
from firstlast.engine.record import game_from_record, record_to_text

variants = st.builds(
    Variant,
    redeals=st.one_of(st.none(), st.integers(0, 4)),
    waste_playable=st.booleans(),
    privileged_last=st.booleans(),
)
deals = st.one_of(st.integers(0, 10_000), st.integers(0, MAX_DEAL))


def random_game(data: st.DataObject, deal: int, variant: Variant, limit: int = 600) -> Game:
    """Play ``deal`` choosing among the legal moves at random (the choices are real when
    several reserve cards, or a reserve and the waste card, fit)."""
    game = Game(deal, variant)
    for _ in range(limit):
        moves = game.position.legal_moves()
        if not moves:
            break
        game.push(moves[data.draw(st.integers(0, len(moves) - 1))] if len(moves) > 1 else moves[0])
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), deals, variants)
def test_invariants_undo_redo_and_round_trips(data: st.DataObject, deal: int, variant: Variant) -> None:
    game = random_game(data, deal, variant)
    final = game.position
    replay = Game(deal, variant)
    for step in game.steps:
        replay.push(step.move)
        pos = replay.position
        validate(pos)  # E6 and the shape of a reachable position, after every move
        assert position_from_text(str(pos)) == pos  # notation round-trip
    assert replay.position == final
    # Undo everything: back to the deal. Redo everything: the same final position,
    # redeals included (their shuffles continue the deal's fixed stream).
    n = len(game)
    for _ in range(n):
        game.undo()
    assert game.position == Position.deal(deal, variant) and not game.can_undo
    for _ in range(n):
        game.redo()
    assert game.position == final and not game.can_redo
    # The record round-trips.
    again = game_from_record(record_to_text(game))
    assert again.moves == game.moves and again.position == final and again.variant == variant


@settings(max_examples=60, deadline=None)
@given(deals, variants)
def test_forced_line_movements_account_for_every_card(deal: int, variant: Variant) -> None:
    game = Game(deal, variant)
    while (step := game.step()) is not None:
        before = game._positions[-2]
        after = game.position
        moved = {m.card for m in step.movements}
        # Cards that changed place are exactly the ones the movements name.
        def places(p: Position) -> dict[int, str]:
            where: dict[int, str] = {}
            for i, c in enumerate(p.first):
                if c is not None:
                    where[c] = f"F{i + 1}"
            for i, c in enumerate(p.reserve):
                if c is not None:
                    where[c] = f"R{i + 1}"
            for c in p.stock:
                where[c] = "stock"
            for c in p.waste:
                where[c] = "waste"
            for i, pile in enumerate(p.piles):
                for c in pile:
                    where[c] = f"P{i + 1}"
            return where
        a, b = places(before), places(after)
        changed = {c for c in a if a[c] != b[c]}
        assert changed <= moved
        for m in step.movements:
            assert b[m.card] == m.target
        if step.move.kind != "redeal":
            assert all(a[m.card] == m.source for m in step.movements)
