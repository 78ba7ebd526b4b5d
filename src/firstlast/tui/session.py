"""The terminal game's link to the shared game store: which game is on the table,
committing each move, and picking up changes made elsewhere (the browser).

Kept apart from the widgets so it can be read and tested on its own. It holds no rules:
moves go to the engine's ``Game``, which raises if they are not legal.
"""

from __future__ import annotations

import secrets
import sqlite3
from dataclasses import dataclass
from typing import Final

from ..engine import MAX_DEAL, Game, Variant, parse_redeals
from ..engine.cards import is_number
from ..store import GameStore, StoreConflict, StoredGame, StoreError, UnknownGame

#: Random deals are drawn below this so that their numbers stay short enough to read
#: out and type back; any deal 0…2^64−1 can still be chosen by number (§4).
RANDOM_DEAL_LIMIT: Final = 1_000_000_000
SETTINGS_VARIANT: Final = "variant"


def random_deal() -> int:
    return secrets.randbelow(RANDOM_DEAL_LIMIT)


def next_deal(deal: int) -> int:
    """The deal after ``deal``; the last deal number wraps round to 0."""
    return 0 if deal >= MAX_DEAL else deal + 1


def saved_variant(store: GameStore, player: str) -> Variant | None:
    """The variant the player last chose for new games (shared setting), if any."""
    value = store.settings(player).get(SETTINGS_VARIANT)
    if not isinstance(value, str):
        return None
    try:
        return Variant.from_token(value)
    except ValueError:
        return None


def parse_deal(text: str) -> int:
    """A deal number typed by the player; ``ValueError`` with a readable message."""
    t = text.strip().replace("_", "").replace(" ", "").replace(",", "")
    if not is_number(t):  # str.isdigit() also takes '５' and '²'
        raise ValueError(f"a deal number is a whole number 0…{MAX_DEAL}")
    n = int(t)
    if n > MAX_DEAL:
        raise ValueError(f"deal numbers go up to {MAX_DEAL}")
    return n


def parse_redeals_typed(text: str) -> int | None:
    """Redeals typed by the player: a whole number ≥ 0 or 'unlimited'. Digits must be
    ASCII: the engine's ``parse_redeals`` uses ``int()``, which also reads '５' as 5."""
    if any(ch.isdigit() and not ch.isascii() for ch in text):
        raise ValueError(f"redeals must be a whole number ≥ 0 (digits 0-9) or 'unlimited', not {text!r}")
    return parse_redeals(text)


@dataclass
class Saved:
    """What happened when a move was committed."""

    ok: bool
    message: str = ""


class Session:
    """The local player's current game in the store."""

    def __init__(self, store: GameStore, stored: StoredGame) -> None:
        self.store = store
        self.player = stored.player
        self.stored = stored

    # ------------------------------------------------------------ opening
    @classmethod
    def open(cls, store: GameStore, deal: int | None, variant: Variant, resume: bool,
             same_variant: bool = False) -> Session:
        """``deal`` given: a new game of it (or, with ``resume``, its latest unfinished
        game). No deal: the latest unfinished game; with ``resume`` it must exist, else
        a new random deal. ``same_variant``: resume only games of ``variant`` (the player
        asked for it). Raises ``LookupError`` when ``resume`` finds nothing."""
        player = store.local_player()
        unfinished = [s for s in store.games(player, status="playing", limit=200)
                      if not same_variant or s.variant == variant]
        if deal is not None:
            if resume:
                for s in unfinished:
                    if s.deal == deal:
                        return cls(store, store.load(s.id, player))
                raise LookupError(f"no unfinished game of deal {deal} to resume")
            return cls(store, store.create(player, deal, variant))
        if unfinished:
            return cls(store, store.load(unfinished[0].id, player))
        if resume:
            raise LookupError("no unfinished game to resume")
        return cls(store, store.create(player, random_deal(), variant))

    @property
    def game(self) -> Game:
        return self.stored.game

    @property
    def game_id(self) -> str:
        return self.stored.id

    def new_game(self, deal: int, variant: Variant) -> None:
        self.stored = self.store.create(self.player, deal, variant)

    # ------------------------------------------------------------ saving
    def save(self) -> Saved:
        """Commit the game as it stands. On a conflict (the game was changed in another
        window since we loaded it) the stored game wins: it is reloaded, so the table
        shows what is really saved, and the caller tells the player."""
        try:
            self.store.save(self.stored)
        except StoreConflict:
            try:
                self.stored = self.store.load(self.stored.id, self.player)
            except UnknownGame:
                return self._save_as_new("this game was deleted elsewhere: saved it again as a new game")
            return Saved(False, "this game was changed elsewhere (another window or the browser): "
                                "reloaded the saved game")
        except (StoreError, sqlite3.Error) as e:
            # The move stands on the table; the next successful save writes it too.
            return Saved(False, f"could not save the game: {e}")
        return Saved(True)

    def _save_as_new(self, message: str) -> Saved:
        game = self.stored.game
        self.stored = self.store.create(self.player, game.deal, game.variant)
        self.stored.game = game
        self.store.save(self.stored)
        return Saved(False, message)

    def reload_if_changed(self) -> bool:
        """Pick up moves made elsewhere since our last save; True if the game changed."""
        try:
            fresh = self.store.load(self.stored.id, self.player)
        except UnknownGame:
            return False  # deleted elsewhere: the next save stores it again
        if fresh.version == self.stored.version:
            return False
        self.stored = fresh
        return True

    # ------------------------------------------------------------ variant setting
    def save_variant(self, variant: Variant) -> None:
        settings = self.store.settings(self.player)
        settings[SETTINGS_VARIANT] = variant.token
        self.store.save_settings(self.player, settings)
