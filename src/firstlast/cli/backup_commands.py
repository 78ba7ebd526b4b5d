"""``firstlast export`` and ``import``: the local player's backup (docs/backup.md,
"Commands"), through the play layer's one backup policy (``play/backup.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import i18n
from ..play import PlayError, PlayService, StoreError
from ..play.backup import MAX_BACKUP_CHARS, Skipped
from ..recordfile import RecordFileError, read_record_file, read_record_stream
from .engine_commands import save_target, write_atomic
from .lang import command, current_lang, msg
from .options import FilePath, db_option, open_store


def say_skipped(skipped: tuple[Skipped, ...], key: str) -> None:
    """One line on stderr per game left out (``key``: of an export or of an import), its
    refusal in the current language."""
    for s in skipped:
        click.echo(s.text(current_lang(), key), err=True)


@command("cli.export.help")
@click.argument("file", type=FilePath())
@db_option
def export(file: Path, db: Path | None) -> None:
    """Write the local player's backup to FILE (``-``: standard output)."""
    # Standard output: what it says goes to stderr, not into the backup. A folder, a
    # device or a FIFO is refused before anything is read.
    to_stdout = save_target(file) is None
    play = PlayService(open_store(db))
    if play.store.read_only:  # read as it is (issue 29.5); stdout may be the backup itself
        click.echo(msg("cli.export.read_only", path=play.store.path), err=True)
    try:
        text, count, skipped = play.backup_file(play.local_player())
    except PlayError as e:
        raise click.ClickException(e.text(current_lang())) from None
    say_skipped(skipped, "backup.left_out_game")  # a damaged game: named, left out (docs/backup.md)
    games = i18n.plural(current_lang(), "count.games", count)
    write_atomic(file, text)
    if to_stdout:
        click.echo(msg("cli.export.done_stdout", games=games), err=True)
    else:
        click.echo(msg("cli.export.done", path=file, games=games))


@command("cli.import.help", name="import")
@click.argument("file", type=FilePath())
@db_option
def import_(file: Path, db: Path | None) -> None:
    """Restore a backup FILE (``-``: standard input) into the local player's games."""
    try:  # as many bytes as a backup's characters: each is at least one
        text = (read_record_stream(sys.stdin.buffer, MAX_BACKUP_CHARS) if str(file) == "-"
                else read_record_file(file, MAX_BACKUP_CHARS))
    except RecordFileError as e:
        raise click.ClickException(i18n.file_error_text(e.code, file, e.limit, current_lang(), os_error=e.os_error,
                                                       too_large="cli.import.too_large")) from None
    play = PlayService(open_store(db))
    if play.store.read_only:  # every write would fail: say why before reading the file through
        raise click.ClickException(msg("cli.import.read_only", path=play.store.path))
    try:
        player = play.local_player()
    except PlayError as e:  # signing in is a write (the first time)
        raise click.ClickException(e.text(current_lang())) from None
    try:
        report = play.import_backup(player, text)
    except PlayError as e:
        raise click.ClickException(msg("cli.import.bad", path=file, error=e.text(current_lang()))) from None
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    click.echo(report.text(current_lang()))
    say_skipped(report.skipped, "backup.skipped_game")

