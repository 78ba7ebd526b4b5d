"""The store's schema versions and migrations, and its one-transaction writes.

``tests/data/store-v1.db`` was written by firstlast's schema-1 store (before the play
layer): the local player (settings from the terminal: variant token r0w, lang ru) with a
lost game (deal 1), a won one (deal 2, unlimited redeals), two unfinished games with
moves (deals 3 and 5, the latter with a redo line) and one dealt and never played (deal
4); a browser player (settings redeals -1, waste playable, speed 2, no chance meter)
with a lost game (deal 7, V2), an unfinished one (deal 9) and an imported record (deal
11, lost). Never regenerate it: it stands for databases users already have.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from reading import read

from firstlast.engine import Game, Variant
from firstlast.play import PlayService, Settings
from firstlast.store import SCHEMA_VERSION, GameStore, StoredGame, StoreError

FIXTURE = Path(__file__).parent.parent / "data" / "store-v1.db"
LOCAL, BROWSER = "J3KQ7k9ZbGdxHC51TD9hy4SF", "Mb1x8wJPM4UHSuQTLm8Ii8Ja"


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, path)
    return path


def rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT id, player, deal, variant, moves, redo, status, score, passes FROM games"))


def test_a_schema_1_database_is_upgraded_without_losing_a_game(old_db: Path) -> None:
    before = rows(old_db)
    with sqlite3.connect(old_db) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    store = GameStore(old_db)
    with sqlite3.connect(old_db) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    after = rows(old_db)
    # Every game is kept as it was, except deal 4: dealt, never played, not on the table.
    assert [r for r in before if r[2] != "4"] == after
    assert len(before) == len(after) + 1
    play = PlayService(store)
    # Every game still replays.
    for g in read(store).games(limit=100):
        assert play.game(LOCAL if g.id in {x.id for x in read(store).games(LOCAL)} else BROWSER, g.id).game
    # The latest unfinished game is on the table; the other unfinished one was abandoned.
    assert play.current(LOCAL).game.deal == 5  # type: ignore[union-attr]
    assert [g.deal for g in play.games(LOCAL, "abandoned")] == ["3"]
    assert play.current(BROWSER).game.deal == 9  # type: ignore[union-attr]
    # Results and statistics: every finished game still counts.
    local = {s.variant: s for s in play.stats(LOCAL)}
    assert (local["r3"].played, local["r3"].lost, local["r3"].abandoned) == (1, 1, 1)
    assert (local["ru"].played, local["ru"].won) == (1, 1)
    browser = {s.variant: s for s in play.stats(BROWSER)}
    # Schema 1 did not tell imported records apart: the browser's import counts as played.
    assert browser["r3"].played == 1 and browser["r3w"].played == 1
    # Settings: both faces' old keys become the one schema.
    assert play.settings(LOCAL) == Settings(lang="ru", variant=Variant(redeals=0, waste_playable=True))
    assert play.settings(BROWSER) == Settings(lang="en", speed=2, show_chance=False,
                                              variant=Variant(redeals=None, waste_playable=True))
    # The redo line survived.
    five = play.current(LOCAL)
    assert five is not None and len(five.game.redo_moves) == 2
    # Upgrading is done once: opening again changes nothing.
    again = rows(old_db)
    GameStore(old_db)
    assert rows(old_db) == again


def test_a_failed_migration_leaves_the_old_schema(old_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import firstlast.store as store_module

    def broken(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN half_done TEXT")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_module, "MIGRATIONS", (store_module.MIGRATIONS[0], broken))
    before = rows(old_db)
    with pytest.raises(StoreError):
        GameStore(old_db)
    with sqlite3.connect(old_db) as db:
        columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
        assert "half_done" not in columns and db.execute("PRAGMA user_version").fetchone()[0] == 0
    assert rows(old_db) == before


def test_newer_and_foreign_databases_are_refused_untouched(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    GameStore(newer)
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer firstlast"):
        GameStore(newer)
    foreign = tmp_path / "foreign.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE accounts (id INTEGER)")
    data = foreign.read_bytes()
    with pytest.raises(StoreError, match="not a firstlast database"):
        GameStore(foreign)
    assert foreign.read_bytes() == data


def test_an_import_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from firstlast.engine.record import record_to_text
    from firstlast.store import Transaction

    play = PlayService(GameStore(tmp_path / "g.sqlite3"))
    pid = play.update_settings(None, {}).player
    game = Game(7)
    game.autoplay()
    # The import writes one row with its moves, at once: no half-saved game can be seen.
    calls: list[str] = []
    original = Transaction.insert

    def spy(self: Transaction, *args: object, **kw: object) -> object:
        calls.append("insert")
        return original(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Transaction, "insert", spy)
    monkeypatch.setattr(Transaction, "save", lambda *a, **k: calls.append("save"))
    stored, _ = play.import_record(pid, record_to_text(game))
    assert calls == ["insert"]
    assert play.game(pid, stored.id).game.moves == game.moves


def test_the_moves_text_follows_every_change_of_the_move_list(tmp_path: Path) -> None:
    """The text stored is the whole move list whatever the changes since the last save:
    moves made, taken back, another move in their place, a rewind, a fresh load."""
    store = GameStore(tmp_path / "games.sqlite3")
    with store.transaction() as tx:
        stored = StoredGame.new(tx.new_player(), Game(11))
        tx.insert(stored)
    game = stored.game

    def check() -> None:
        with store.transaction() as tx:
            tx.save(stored)
        assert [str(m) for m in read(store).load(stored.id).game.moves] == [str(m) for m in game.moves]

    for _ in range(5):
        game.step()
    check()
    game.undo()
    game.undo()
    check()
    game.redo()
    game.push(game.position.legal_moves()[-1])  # another move than the one taken back, maybe
    check()
    while game.can_undo:
        game.undo()
    check()
    for _ in range(3):
        game.step()
    check()
    # Taken back and replaced by another move between two saves: as long as before.
    while len(game.position.legal_moves()) < 2:
        assert game.step() is not None
    game.push(game.position.legal_moves()[0])
    check()
    game.undo()
    game.push(game.position.legal_moves()[1])
    check()
    stored = read(store).load(stored.id)  # a fresh copy
    game = stored.game
    game.undo()
    game.step()
    game.step()
    check()


def test_a_savepoint_undoes_its_part_alone(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    with store.transaction() as tx:
        kept = tx.new_player()
        with pytest.raises(RuntimeError), tx.savepoint():
            tx.new_player()
            raise RuntimeError("undone alone")
        with tx.savepoint():  # savepoints nest: the inner part is undone, the outer kept
            outer = tx.new_player()
            with pytest.raises(KeyError), tx.savepoint():
                tx.new_player()
                raise KeyError("undone alone too")
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        assert sorted(r[0] for r in db.execute("SELECT id FROM players")) == sorted([kept, outer])


def test_a_savepoint_that_cannot_be_undone_breaks_the_transaction(tmp_path: Path) -> None:
    from firstlast.store import TransactionBroken

    store = GameStore(tmp_path / "games.sqlite3")
    with pytest.raises(TransactionBroken, match="no such savepoint"), store.transaction() as tx:
        tx.new_player()
        with tx.savepoint():
            tx.db.execute("RELEASE part0")  # gone behind its back: there is nothing to roll back to
            raise RuntimeError("a bug")
    assert read(store).games() == [] and not read(store).has_player("x")
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM players").fetchone()[0] == 0  # the whole transaction undone


def test_sqlites_errors_leave_the_store_as_store_errors(tmp_path: Path) -> None:
    # One kind for callers to catch: a read's, a write's and a savepoint's, the cause kept;
    # the connection that failed is replaced.
    store = GameStore(tmp_path / "games.sqlite3")
    for transaction in (store.reading, store.transaction):
        with pytest.raises(StoreError, match="no such table") as e, transaction() as tx:
            tx.db.execute("SELECT * FROM nowhere")
        assert isinstance(e.value.__cause__, sqlite3.OperationalError)
    with store.transaction() as tx:
        with pytest.raises(StoreError, match="no such table"), tx.savepoint():
            tx.db.execute("SELECT * FROM nowhere")
        player = tx.new_player()  # the rest of the transaction goes on
    assert read(store).has_player(player) and store.readers == 2


def test_a_transaction_inside_another_of_its_kind_is_refused_at_once(tmp_path: Path) -> None:
    # Regression: a write inside a write opened a connection of its own, whose BEGIN
    # IMMEDIATE waited for the outer one's write lock until SQLite gave up (10 s, "database
    # is locked"). Reads take turns on one connection: a read inside a read would wait for it.
    store = GameStore(tmp_path / "games.sqlite3")
    with store.transaction() as tx:
        kept = tx.new_player()
        with pytest.raises(RuntimeError, match="inside another"), store.transaction():
            pass
    assert read(store).has_player(kept)  # the outer transaction goes on and commits
    with store.reading() as tx:
        with pytest.raises(RuntimeError, match="inside another"), store.reading():
            pass
        assert tx.has_player(kept)


def test_the_store_writes_a_result_as_given_and_decides_none(tmp_path: Path) -> None:
    # The policy (the first end is kept) is the play layer's: the store writes the
    # fields as they are, even for a game at its end.
    store = GameStore(tmp_path / "games.sqlite3")
    game = Game(7)
    game.autoplay()
    assert game.position.status != "playing"
    with store.transaction() as tx:
        stored = StoredGame.new(tx.new_player(), game)
        tx.insert(stored)
    assert read(store).load(stored.id).result is None
    stored.result, stored.result_score, stored.result_passes, stored.finished = "won", 1, 2, "2026-01-01T00:00:00"
    with store.transaction() as tx:
        tx.save(stored)
    again = read(store).load(stored.id)
    assert (again.result, again.result_score, again.result_passes, again.finished) == ("won", 1, 2,
                                                                                      "2026-01-01T00:00:00")
