"""``PlayService``: a player's games over time, the one policy every face calls
(docs/play.md). Synchronous and thread-safe. A ``StoredGame`` answered is for the caller
to read, never to change: the service keeps it (``GameCache``), so that nothing it has
seen is replayed.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from typing import Final, Literal

from ..engine import Game, IllegalMoveError, InvalidMoveError, Movement, Step, Variant
from ..engine.errors import EmptyRecordError, RecordError
from ..engine.record import game_from_record, record_to_text
from ..runtime import ApartStopped, run_apart
from ..store import GameStore, GameSummary, Origin, StoredGame, StoreError, Transaction
from . import backup, daily, deals
from .commands import Command, Restart
from .deals import START_KINDS, StartKind
from .errors import PlayError, engine_params
from .fields import MAX_WISH
from .kept import Kept
from .settings import Settings
from .stats import RecordNews, Stats, compute, keep_result, news
from .writer import CACHED_GAMES, GameCache, Writer, as_play_error

#: What becomes of the game on the table when another takes it (``leaving``).
Leaving = Literal["abandon", "delete", "keep"]
#: Players whose settings a service remembers (``known_settings``).
SETTINGS_KNOWN: Final = 4096
#: Searches for a deal that comes out under way at once, for all players together
#: (docs/play.md, "Long work beside play"); more are refused ``winnable.busy``.
MAX_SEARCHES: Final = 4


@dataclass
class ActionResult:
    """What an action did (docs/play.md, "Actions")."""

    stored: StoredGame
    steps: tuple[Step, ...]
    movements: tuple[Movement, ...]
    new_game: bool = False
    #: The personal records the game set, when this action ended it (``stats.news``).
    records: tuple[RecordNews, ...] = ()


@dataclass(frozen=True)
class PlayerSettings:
    player: str
    settings: Settings


class PlayService:
    """Sessions, actions, statistics and settings over one ``GameStore``."""

    def __init__(self, store: GameStore, today: Callable[[], dt.date] | None = None) -> None:
        self.store = store
        #: Today as the play layer sees it, which faces ask, never the clock (docs/play.md,
        #: "The deal of the day").
        self.today: Callable[[], dt.date] = today or deals.today
        self._cache = GameCache(CACHED_GAMES)
        self._writer = Writer(store, self._cache)
        self._known: set[str] = set()  # players are never deleted, so a yes can be cached
        # Players' settings as this service last read or wrote them (``known_settings``).
        self._settings: Kept[str, Settings] = Kept(SETTINGS_KNOWN)
        # Held from a read of the store to its note: a write's note (made once it is
        # committed) then comes after any read that began before it, never undone by it.
        self._settings_lock = threading.Lock()
        # Winnable searches under way (``_winnable``): by player (None: a new player's).
        self._searches: list[str | None] = []
        self._searches_lock = threading.Lock()
        self.stopping = False  # ``stop_searches`` was called: the program is stopping
        self._restoring = threading.Lock()  # a backup being checked (``import_backup``)

    def stop_searches(self) -> None:
        """Refuse new searches for a deal that comes out, and end those under way after
        their current chunk (``PlayError('stopping')``): the program is stopping. Never
        blocks (a server calls it on its event loop)."""
        self.stopping = True

    def close(self) -> None:
        """Stop: searches end (``stop_searches``), writes queued are committed and later
        ones refused (``PlayError('stopping')``), and the writer's thread is joined."""
        self.stop_searches()
        self._writer.close()

    def changes(self) -> int:
        """A number that moves whenever anything is committed to the store, by any
        process: a face polls it, cheaply (docs/play.md, "Reads without replays")."""
        with self._read() as tx:
            return self.store.readers << 32 | tx.data_version()

    @property
    def commits(self) -> int:
        """Batches this service has committed so far (the static site syncs when it moves)."""
        return self._writer.batches

    # ------------------------------------------------------------ plumbing
    @contextmanager
    def _read(self) -> Iterator[Transaction]:
        """A read transaction (a snapshot, no write lock); storage failures become
        ``PlayError('storage')``."""
        try:
            with self.store.reading() as tx:
                yield tx
        except StoreError as e:
            raise as_play_error(e) from None

    def _stored(self, tx: Transaction, game_id: str, player: str, *, pending: bool = False) -> StoredGame:
        """``player``'s game as stored, to read (shared: change only a ``copy``), replayed
        only when it changed elsewhere. ``pending``: in a write job (the batch's own
        entries count); ``game.unknown`` for none, or another player's."""
        head = tx.head(game_id)
        if head is None or head[0] != player:
            raise PlayError("game.unknown")
        stored = self._cache.peek(game_id, head[1], pending)
        if stored is None:
            stored = tx.load(game_id, player)
            (self._cache.put if pending else self._cache.keep)(stored)
        return stored

    @staticmethod
    def _player_or_new(tx: Transaction, player: str | None) -> str:
        return player if player is not None and tx.has_player(player) else tx.new_player()

    # ------------------------------------------------------------ players
    def known_player(self, player: str | None) -> str | None:
        """``player`` if the store knows it, else ``None``."""
        if player is not None and player not in self._known:
            with self._read() as tx:
                if tx.has_player(player):
                    self._known.add(player)
        return player if player in self._known else None

    def is_known(self, player: str) -> bool:
        """Whether ``player`` is already known to be a player (no store call: ``False``
        only means "ask ``known_player``")."""
        return player in self._known

    def local_player(self) -> str:
        """This machine's own player (the terminal's, and the browser's that ``firstlast
        play`` signs in), noted in the store so that every face and process finds it."""
        pid = self._noted("local_player", Transaction.new_player)
        self._known.add(pid)
        return pid

    def secret(self, name: str) -> str:
        """A random key noted in the store under ``name`` (as ``local_player``): what a
        face signs with, so that what it signed is honoured by this database alone (the
        web's player cookie, issue 29.6). Never in a backup."""
        return self._noted(f"secret.{name}", lambda tx: secrets.token_urlsafe(32))

    def _noted(self, key: str, make: Callable[[Transaction], str]) -> str:
        """The store's note under ``key``, made (``make``) and noted the first time."""
        with self._read() as tx:
            found = tx.meta(key)
        if found is not None:
            return found

        def job(tx: Transaction) -> str:
            made = tx.meta(key)  # under the write lock: another process may have made it
            if made is None:
                made = make(tx)
                tx.set_meta(key, made)
            return made

        return self._writer.run(job)

    # ------------------------------------------------------------ sessions
    def current(self, player: str | None) -> StoredGame | None:
        """The game on ``player``'s table, if any."""
        if player is None:
            return None
        with self._read() as tx:
            return self._table(tx, player)

    def start(self, player: str | None, how: StartKind = "random", deal: object = None,
              variant: Variant | None = None, *, day: dt.date | None = None, wish: str | None = None,
              make_default: bool = False) -> StoredGame:
        """Put a new game on ``player``'s table (a new player when ``None`` or unknown),
        its deal picked by ``how`` (docs/play.md, "Deal numbers"), its variant the one
        given, else the player's; ``make_default``: the variant given becomes the setting
        too, in the same write. ``wish``: made before the deal ("" in silence), kept
        privately with the game."""
        if how not in START_KINDS:
            raise PlayError("settings.value", key="how", reason=f"must be one of {', '.join(START_KINDS)}")
        today = self.today()
        if day is not None and how != "daily":
            raise PlayError("settings.value", key="date", reason="only a deal of the day has a date")
        if wish is not None and (not isinstance(wish, str) or len(wish) > MAX_WISH):
            raise PlayError("wish.long", max=MAX_WISH)
        wish = None if wish is None else " ".join(wish.split())
        number = deals.parse_deal(deal) if how == "number" else None
        if how == "random":
            number = deals.random_deal()
        if how == "daily":
            number = deals.daily_deal(daily.check_day(day or today, today))
        if how == "winnable":
            # Before the write job, never in it (``_winnable``), under the game's variant.
            variant = variant or self.settings(player).variant
            number = self._winnable(player, variant)

        def job(tx: Transaction) -> tuple[StoredGame, Settings | None]:
            pid = self._player_or_new(tx, player)
            chosen = variant or Settings.from_stored(tx.settings(pid)).variant
            table = self._table(tx, pid, pending=True)
            dealt: StartKind = how
            if number is not None:  # number, random, daily, winnable: chosen above
                n = number
            else:
                if table is None:
                    raise PlayError("next.none" if how == "next" else "again.none")
                n = deals.next_deal(table.game.deal) if how == "next" else table.game.deal
                if how == "again" and variant is None:
                    chosen = table.game.variant
                if how == "again" and chosen == table.game.variant and table.dealt in START_KINDS:
                    # The same deal under the same rules: chosen as that game's was (a
                    # deal that comes out still comes out).
                    dealt = table.dealt
            stored = self._insert(tx, pid, Game(n, chosen), "played", dealt, today.isoformat(), wish)
            self._leave(tx, table)
            tx.set_current(pid, stored.id)
            default = None
            if make_default and variant is not None:
                default = Settings.from_stored(tx.settings(pid)).updated({"variant": variant.token})
                tx.save_settings(pid, default.to_json())
            return stored, default

        stored, default = self._writer.run(job)
        self._known.add(stored.player)
        if default is not None:
            self._note_settings(stored.player, default)
        return stored

    def _winnable(self, player: str | None, variant: Variant) -> int:
        """A deal that comes out under ``variant``, searched a chunk at a time in the
        helper process (docs/play.md, "Long work beside play")."""
        with self._searches_lock:
            if self.stopping:
                raise PlayError("stopping")
            if len(self._searches) >= MAX_SEARCHES or (player is not None and player in self._searches):
                raise PlayError("winnable.busy")
            self._searches.append(player)
        try:
            return deals.winnable_deal(variant, search=self._search_chunk)
        finally:
            with self._searches_lock:
                self._searches.remove(player)

    def _search_chunk(self, candidates: list[int], variant: Variant) -> int | None:
        if self.stopping:
            raise PlayError("stopping")
        try:
            return run_apart(deals.first_winnable, candidates, variant)
        except ApartStopped:
            raise PlayError("stopping") from None

    def open(self, player: str | None, game_id: str) -> StoredGame:
        """Put one of ``player``'s games back on the table (reopen an unfinished game,
        or look at a finished one); the game it replaces is left."""
        if player is None:
            raise PlayError("game.unknown")

        def job(tx: Transaction) -> StoredGame:
            stored = self._switch(tx, player, self._stored(tx, game_id, player, pending=True))
            self._cache.put(stored)
            return stored

        return self._writer.run(job)

    def resume(self, player: str | None, deal: int | None = None, variant: Variant | None = None) -> StoredGame | None:
        """Put the player's latest unfinished game back on the table (only one of
        ``deal``/``variant`` when given); ``None`` when there is none."""
        for g in self.games(player, "unfinished", 1000):
            if g.origin == "played" and (deal is None or g.deal == str(deal)) and (
                    variant is None or g.variant == variant.token):
                return self.open(player, g.id)
        return None

    def import_record(self, player: str | None, text: str) -> tuple[StoredGame, bool]:
        """Store someone's game from its text record (checked by replaying it), and say
        whether it is new to the player: the same deal, rules and moves imported before
        are the same game, stored once. Never counted as the importer's own play."""
        # The engine's one record reader decides, as for ``firstlast replay``: size,
        # byte-order mark, characters, the Redeals cap (MAX_REDEALS) and the replay.
        try:
            game = game_from_record(text)
        except EmptyRecordError:
            raise PlayError("record.empty") from None
        except RecordError as e:
            cause = e.__context__
            if e.move is not None and isinstance(cause, IllegalMoveError | InvalidMoveError):
                # A move the rules refuse or cannot read: said in words, with where it stands.
                raise PlayError("record.move", reason=str(cause), line=e.line, move=e.move, token=e.token,
                                **engine_params(cause)) from None
            raise PlayError("record.invalid", reason=str(e), line=e.line) from None
        except (ValueError, OverflowError) as e:  # FirstLastError is a ValueError
            raise PlayError("record.invalid", reason=str(e), line=None) from None

        def job(tx: Transaction) -> tuple[StoredGame, bool]:
            pid = self._player_or_new(tx, player)
            seen = tx.imported(pid, game.deal, game.variant, game.moves)
            if seen is not None:
                return self._stored(tx, seen, pid, pending=True), False
            # Kept beside the player's games, not put on the table: looking at someone
            # else's game abandons nothing (``open`` puts it there to play it on).
            return self._insert(tx, pid, game, "imported"), True

        stored, new = self._writer.run(job)
        self._known.add(stored.player)
        return stored, new

    def game(self, player: str | None, game_id: str) -> StoredGame:
        """One of ``player``'s games, to read (it does not go on the table)."""
        if player is None:
            raise PlayError("game.unknown")
        with self._read() as tx:
            return self._stored(tx, game_id, player)

    def games(self, player: str | None, status: str | None = None, limit: int = 100) -> list[GameSummary]:
        """``player``'s games, latest first; ``status`` as in ``Transaction.games``."""
        if player is None:
            return []
        with self._read() as tx:
            return tx.games(player, status=status, limit=limit)

    def record(self, player: str | None, game_id: str) -> tuple[StoredGame, str]:
        """The game and its record (dated the day it was dealt)."""
        stored = self.game(player, game_id)
        return stored, record_to_text(stored.game, date=stored.created[:10])

    def _table(self, tx: Transaction, player: str, *, pending: bool = False) -> StoredGame | None:
        gid = tx.current(player)
        if gid is None:
            return None
        try:
            return self._stored(tx, gid, player, pending=pending)
        except PlayError:  # game.unknown
            return None

    def _insert(self, tx: Transaction, player: str, game: Game, origin: Origin = "played",
                dealt: str | None = None, dealt_on: str | None = None, wish: str | None = None) -> StoredGame:
        """Store ``game`` as a new game of ``player``, with its result if it has one."""
        stored = StoredGame.new(player, game, origin, dealt, dealt_on, wish)
        keep_result(stored)
        tx.insert(stored)
        self._cache.put(stored)
        return stored

    def _switch(self, tx: Transaction, player: str, stored: StoredGame) -> StoredGame:
        """Put ``stored`` on the table, leaving the one there; reopened, it is abandoned
        no more (a copy at its next version: the entry it came from may be shared)."""
        if tx.current(player) != stored.id:
            self._leave(tx, self._table(tx, player, pending=True))
            tx.set_current(player, stored.id)
        if stored.abandoned is None:
            return stored
        tx.mark_abandoned(stored.id, False)
        return replace(stored.copy(), abandoned=None, version=stored.version + 1)

    def _leave(self, tx: Transaction, table: StoredGame | None) -> None:
        """The game on the table is replaced by another: what becomes of it is
        ``leaving``'s."""
        if table is None:
            return
        fate = leaving(table)
        if fate == "delete":
            tx.delete(table.id)
        elif fate == "abandon":
            tx.mark_abandoned(table.id, True)
        else:
            return
        self._cache.drop(table.id)

    # ------------------------------------------------------------ actions
    def act(self, player: str | None, game_id: str, command: Command, version: int | None = None) -> ActionResult:
        """Do ``command`` on ``player``'s game and commit it before answering (``_act_job``)."""
        return self._writer.run(self._act_job(player, game_id, command, version))

    async def act_async(self, player: str | None, game_id: str, command: Command,
                        version: int | None = None) -> ActionResult:
        """``act`` for an event loop: awaited, with no worker thread of the caller's own,
        so that a server pays no thread hop per move."""
        return await self._writer.run_async(self._act_job(player, game_id, command, version))

    def _act_job(self, player: str | None, game_id: str, command: Command,
                 version: int | None) -> Callable[[Transaction], ActionResult]:
        """The write job of an action, and only that (no settings read, nothing worded).
        ``version``: the one the face showed (docs/play.md, "Two writers on one game")."""
        if player is None:
            raise PlayError("game.unknown")
        if not isinstance(command, Command):  # a caller that is not type-checked
            raise PlayError("move.invalid", reason=f"not an action: {command!r}")

        def job(tx: Transaction) -> ActionResult:
            # A copy to change (the entry read may be shared), at the version stored now:
            # read under the write lock this transaction holds.
            stored = self._stored(tx, game_id, player, pending=True).copy()
            if version is not None and stored.version != version:
                raise PlayError("game.changed", version=stored.version)
            if isinstance(command, Restart) and stored.result is not None:
                # A new attempt, so that a result is never erased.
                fresh = self._insert(tx, player, Game(stored.game.deal, stored.game.variant), dealt=stored.dealt,
                                     dealt_on=self.today().isoformat())
                return ActionResult(self._switch(tx, player, fresh), (), (), new_game=True)
            ended_before = stored.result is not None
            steps = command.apply(stored.game)
            if steps:
                keep_result(stored)
                tx.save(stored)  # at the version just read, under the write lock: no conflict
            result = ActionResult(self._switch(tx, player, stored), steps, tuple(m for s in steps for m in s.movements))
            if not ended_before and stored.result is not None:
                # This action ended the game: the records it set, said at its end.
                variant = stored.game.variant
                result.records = news(variant, tx.result_rows(variant, player), stored.id)
            self._cache.put(result.stored)
            return result

        return job

    # ------------------------------------------------------------ backups
    def backup_file(self, player: str | None) -> tuple[str, int, tuple[backup.Skipped, ...]]:
        """The text of ``player``'s backup (docs/backup.md), read from one snapshot and
        checked outside any transaction, how many games it holds, and those left out."""
        rows, settings, table = [], Settings(), None
        if player is not None:
            with self._read() as tx:
                rows, settings, table = tx.rows(player), Settings.from_stored(tx.settings(player)), tx.current(player)
        return backup.export(rows, settings, table)

    @contextmanager
    def restoring(self) -> Iterator[None]:
        """The one restore at a time (its check replays thousands of games: seconds of
        CPU beside everyone's moves); another meanwhile is ``PlayError('backup.busy')``.
        A face that receives the file takes it first, so that only one file is held."""
        if not self._restoring.acquire(blocking=False):
            raise PlayError("backup.busy")
        try:
            yield
        finally:
            self._restoring.release()

    def import_backup(self, player: str | None, text: str, *, slot_held: bool = False) -> backup.ImportReport:
        """Merge a backup into ``player``'s games and settings (docs/backup.md): checked
        outside the write, then merged in one job; ``slot_held``: the caller holds
        ``restoring``."""
        with nullcontext() if slot_held else self.restoring():
            checked = backup.read_backup(text, go_on=lambda: not self.stopping)

        def job(tx: Transaction) -> backup.ImportReport:
            pid = self._player_or_new(tx, player)
            return backup.merge(tx, pid, checked, self._cache.drop)

        report = self._writer.run(job)
        self._known.add(report.player)
        self._note_settings(report.player, None)  # the backup's may have been taken: read them again
        return report

    # ------------------------------------------------------------ statistics
    def stats(self, player: str | None) -> list[Stats]:
        """Per variant the player has counted games in (canonical first)."""
        if player is None:
            return []
        with self._read() as tx:
            out = [compute(v, tx.result_rows(v, player)) for v in tx.variants_played(player)]
        out = [s for s in out if s.played or s.abandoned]
        out.sort(key=lambda s: (s.variant != Variant().token, s.variant))
        return out

    def records(self, player: str | None, game_id: str) -> tuple[RecordNews, ...]:
        """The personal records ``player``'s game set when it ended (none while it is
        under way): the same answer as the action that ended it, at any later time."""
        stored = self.game(player, game_id)
        if stored.result is None:
            return ()
        with self._read() as tx:
            return news(stored.game.variant, tx.result_rows(stored.game.variant, stored.player), stored.id)

    # ------------------------------------------------------------ the deal of the day
    def calendar(self, player: str | None, month: str | None = None) -> daily.Calendar:
        """A month of deals of the day (``YYYY-MM``; today's month by default)."""
        rows = []
        if player is not None:
            with self._read() as tx:
                rows = tx.daily_rows(player)
        return daily.calendar(daily.facts(rows), self.today(), month)

    # ------------------------------------------------------------ settings
    def settings(self, player: str | None) -> Settings:
        if player is None:
            return Settings()
        with self._settings_lock, self._read() as tx:
            settings = Settings.from_stored(tx.settings(player))
            self._settings.put(player, settings)
        return settings

    def known_settings(self, player: str | None) -> Settings | None:
        """``player``'s settings as this service last read or wrote them, with no store
        call (``None``: ask ``settings``), so that an action's write job reads none."""
        if player is None:
            return Settings()
        return self._settings.get(player)

    def _note_settings(self, player: str, settings: Settings | None) -> None:
        """Remember ``player``'s settings as a write just stored them (``None``: forget them)."""
        with self._settings_lock:
            if settings is None:
                self._settings.pop(player)
            else:
                self._settings.put(player, settings)

    def update_settings(self, player: str | None, changes: Mapping[str, object]) -> PlayerSettings:
        """Apply ``changes``; ``null`` restores a setting's default."""
        Settings().updated(changes)  # refuse bad input before anything is stored

        def job(tx: Transaction) -> PlayerSettings:
            pid = self._player_or_new(tx, player)
            settings = Settings.from_stored(tx.settings(pid)).updated(changes)
            tx.save_settings(pid, settings.to_json())
            return PlayerSettings(pid, settings)

        answer = self._writer.run(job)
        self._known.add(answer.player)
        self._note_settings(answer.player, answer.settings)
        return answer


def leaving(table: StoredGame) -> Leaving:
    """What becomes of ``table`` when another game takes the table (docs/play.md, *The
    table*); only ``"abandon"`` needs the player's "leave this game?"."""
    if table.result is not None or table.origin != "played" or table.abandoned is not None:
        return "keep"
    if table.game.position.status != "playing":
        return "keep"
    return "abandon" if table.game.moves or table.game.redo_moves else "delete"
