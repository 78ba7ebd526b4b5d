"""Backups: all of the player's games and settings in one file, to download and to
restore (the policy is ``firstlast.play.backup``; the format docs/backup.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from ...play.backup import MAX_BACKUP_CHARS
from .. import models as m
from ..context import Endpoint, WebGame
from ..errors import error_body
from ..inputs import decode

#: A restore's JSON body: the file's text as a JSON string (its quotes escaped).
MAX_RESTORE_BODY: Final = 2 * MAX_BACKUP_CHARS + 64 * 1024


async def backup(web: WebGame, request: Request) -> Response:
    pid = await web.player(request)
    text, left_out = await web.run(web.play.backup_file, pid)
    day = datetime.now(UTC).date().isoformat()
    return Response(text, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="firstlast-backup-{day}.json"',
        "cache-control": "no-store",
        # Games an import would refuse (their stored moves damaged): left out, named in the file.
        "x-firstlast-left-out": str(len(left_out)),
    })


async def restore(web: WebGame, request: Request) -> Response:
    # The one restore at a time is taken before the body is read (issue 29.5): another
    # restore meanwhile is 429 with its body unread, so only one 32 MiB body is ever held.
    with web.play.restoring():
        # JSON with the file as a string, like a record's import: a cross-site form cannot send that.
        body = await decode(request, m.RestoreRequest, MAX_RESTORE_BODY)
        pid = await web.player_or_place(request)
        report, lang = await web.run_lang(request, pid, partial(web.play.import_backup, slot_held=True), pid,
                                          body.backup)
        del body  # the file's text: not held while the answer is made
    skipped = [m.SkippedGame(n=s.n, id=s.id, deal=s.deal, error=error_body(s.error, lang)) for s in report.skipped]
    return web.answer(request, pid, report.player, m.RestoreReport(
        games=report.games, added=report.added, updated=report.updated, kept=report.kept,
        settings=list(report.settings), table=report.table, skipped=skipped, text=report.text(lang, skipped=True)))


ENDPOINTS: Final = (
    Endpoint("GET", "/api/backup", backup,
             "the player's backup: every game and the settings, as a download; a game a restore would refuse is"
             " left out and named (left_out; header X-Firstlast-Left-Out: the count) (422: past the bounds a"
             " restore takes)", answers={200: m.Backup}, errors=(422,)),
    Endpoint("POST", "/api/backup", restore,
             "restore a backup: every game checked by replaying it, merged without duplicates; a damaged game is"
             " left out and named (skipped), a bad file stores nothing (429: another is being restored)",
             body=m.RestoreRequest, answers={200: m.RestoreReport}, errors=(429,)),
)
