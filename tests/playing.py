"""A player's actions as the tests make them: each the command a face sends through
``PlayService.act`` (the one way every face acts), named as the player says it."""

from __future__ import annotations

from firstlast.play import ActionResult, Advance, MakeMove, PlayService, Redo, Restart, Steps, Undo


def move(play: PlayService, player: str | None, game_id: str, move: str, version: int | None = None) -> ActionResult:
    return play.act(player, game_id, MakeMove.parse(move), version)


def step(play: PlayService, player: str | None, game_id: str, n: int = 1, version: int | None = None) -> ActionResult:
    return play.act(player, game_id, Steps(n), version)


def advance(play: PlayService, player: str | None, game_id: str, version: int | None = None) -> ActionResult:
    return play.act(player, game_id, Advance(), version)


def undo(play: PlayService, player: str | None, game_id: str, version: int | None = None) -> ActionResult:
    return play.act(player, game_id, Undo(), version)


def redo(play: PlayService, player: str | None, game_id: str, version: int | None = None) -> ActionResult:
    return play.act(player, game_id, Redo(), version)


def restart(play: PlayService, player: str | None, game_id: str, version: int | None = None) -> ActionResult:
    return play.act(player, game_id, Restart(), version)


def export_backup(play: PlayService, player: str | None) -> str:
    """The text of ``player``'s backup (``backup_file``)."""
    return play.backup_file(player)[0]
