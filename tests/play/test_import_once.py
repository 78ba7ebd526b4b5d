"""An imported record is kept once: importing the same game again (same deal, rules and
moves) finds the stored copy, as a backup's games are never stored twice."""

from __future__ import annotations

from pathlib import Path

from firstlast.engine import Game, Variant
from firstlast.engine.record import record_to_text
from firstlast.play import GameStore, PlayService


def test_the_same_record_twice_is_stored_once(tmp_path: Path) -> None:
    play = PlayService(GameStore(tmp_path / "games.sqlite3"))
    player = play.local_player()
    game = Game(7)
    game.autoplay()
    text = record_to_text(game, date="2026-01-01")
    first, new = play.import_record(player, text)
    assert new
    again, new_again = play.import_record(player, record_to_text(game, date="2027-05-05"))
    assert not new_again and again.id == first.id
    assert play.import_record(player, text)[0].id == first.id
    # Another game of the same deal (fewer moves, other rules) is another record.
    shorter = Game(7, moves=game.moves[:10])
    other, new_other = play.import_record(player, record_to_text(shorter, date="2026-01-01"))
    assert new_other and other.id != first.id
    ruled = Game(7, Variant(redeals=0))
    ruled.autoplay()
    assert play.import_record(player, record_to_text(ruled, date="2026-01-01"))[1]
    imported = [g for g in play.games(player) if g.origin == "imported"]
    assert len(imported) == 3
