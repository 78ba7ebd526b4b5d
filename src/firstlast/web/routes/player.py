"""The player's own: statistics per variant (``firstlast.play.stats``), the calendar of
deals of the day (``firstlast.play.daily``), settings, one schema for every face
(``firstlast.play.settings``), and backups, every game and the settings in one file to
download and to restore (the policy ``firstlast.play.backup``; the format docs/backup.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from .. import models as m
from .. import shapes
from ..context import Endpoint, WebGame, json_response
from ..errors import error_body
from ..inputs import MAX_RESTORE_BODY, decode, query


async def stats(web: WebGame, request: Request) -> Response:
    rows = await web.run(web.play.stats, await web.player(request))
    return json_response(m.StatsList(variants=rows))


async def calendar(web: WebGame, request: Request) -> Response:
    q = query(request, m.CalendarQuery)
    found = await web.run(web.play.calendar, await web.player(request), q.month)
    return json_response(found)


async def get_settings(web: WebGame, request: Request) -> Response:
    settings = await web.run(web.play.settings, await web.player(request))
    return json_response(shapes.settings(settings))


async def put_settings(web: WebGame, request: Request) -> Response:
    body = await decode(request, m.SettingsChange)
    # The declared model checked types and bounds; the play layer checks the whole
    # change (a variant token's range) before anything is stored.
    changes = msgspec.to_builtins(body)  # the keys given (an unset one is left out), a variant's rules as a dict
    if not changes:
        # Nothing to change: answered as a read, so that no player is made for nothing.
        return await get_settings(web, request)
    pid = await web.player_or_place(request)
    saved = await web.run(web.play.update_settings, pid, changes)
    return web.answer(request, pid, saved.player, shapes.settings(saved.settings))


async def backup(web: WebGame, request: Request) -> Response:
    pid = await web.player(request)
    text, _, left_out = await web.run(web.play.backup_file, pid)
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
    Endpoint("GET", "/api/stats", stats, "the player's statistics, one entry per variant played",
             answers={200: m.StatsList}),
    Endpoint("GET", "/api/calendar", calendar, "a month of deals of the day: played and won days, today, the daily"
             " streaks (docs/play.md)", query=m.CalendarQuery, answers={200: m.Calendar},
             errors=(409, 422)),  # 409: a month before the first daily deal, or after today
    Endpoint("GET", "/api/settings", get_settings, "the player's settings (defaults for a key never set)",
             answers={200: m.Settings}),
    Endpoint("PUT", "/api/settings", put_settings, "change some settings; answers them all", body=m.SettingsChange,
             answers={200: m.Settings}, errors=(429,)),
    Endpoint("GET", "/api/backup", backup,
             "the player's backup: every game and the settings, as a download; a game a restore would refuse is"
             " left out and named (left_out; header X-Firstlast-Left-Out: the count) (422: past the bounds a"
             " restore takes)", answers={200: m.Backup}, errors=(422,)),
    Endpoint("POST", "/api/backup", restore,
             "restore a backup: every game checked by replaying it, merged without duplicates; a damaged game is"
             " left out and named (skipped), a bad file stores nothing (429: another is being restored)",
             body=m.RestoreRequest, answers={200: m.RestoreReport}, errors=(429,)),
)
