"""The statistics dialog's backup buttons in a real browser (docs/backup.md): a backup
made on one server is downloaded (through a Blob URL, as the static site needs) and
restored into a fresh server, which then shows the same statistics and games; a second
restore adds nothing; a bad file is refused in words.

Browser rules as in test_e2e (browser.py): Debian's chromium-headless-shell and playwright, else skipped
(failed under FIRSTLAST_NO_SKIP=1)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import close, deal_by_number, new_page, open_table, require_browser, settle, state, wait_js
from spawn import spawn_server, stop_server

require_browser()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture
def second_server(tmp_path: Path) -> Iterator[str]:
    """Another `firstlast play` on a database of its own: the fresh store to restore into."""
    proc, url = spawn_server(tmp_path / "fresh.sqlite3")
    yield url
    stop_server(proc)


def toast_is(pg: Any, text: str) -> None:
    wait_js(pg, f"document.querySelector('#toast').textContent === {json.dumps(text)}")


def cells(pg: Any) -> dict[str, str]:
    keys = pg.locator(".st-cell .st-key").all_inner_texts()
    return dict(zip(keys, pg.locator(".st-cell .st-val").all_inner_texts(), strict=True))


def test_back_up_on_one_server_and_restore_into_a_fresh_one(browser: Any, server: str, second_server: str) -> None:
    pg = new_page(browser, server)
    open_table(pg, speed=0)
    # A won game (deal 7) and an unfinished one on the table (deal 1), played through the API.
    deal_by_number(pg, 7)
    r = pg.request.post(f"{server}api/games/{state(pg)['id']}/step", data={"n": 10_000})
    assert r.ok and r.json()["state"]["status"] == "won"
    deal_by_number(pg, 1)
    unfinished = state(pg)["id"]
    assert pg.request.post(f"{server}api/games/{unfinished}/step", data={"n": 10}).ok
    open_table(pg, speed=0)
    assert state(pg)["id"] == unfinished and state(pg)["moves"] == 10
    pg.click("#b-stats")
    pg.locator("#st-history tbody tr").first.wait_for()
    here = cells(pg)
    assert here["Played"] == "1" and here["Won"] == "1"
    with pg.expect_download() as info:
        pg.click("#backup-save")
    download = info.value
    assert download.suggested_filename.startswith("firstlast-backup-")
    assert download.suggested_filename.endswith(".json")
    text = Path(download.path()).read_text(encoding="utf-8")
    toast_is(pg, "Backup saved: 2 games.")
    doc = json.loads(text)
    assert doc["format"] == "firstlast-backup" and sorted(g["deal"] for g in doc["games"]) == ["1", "7"]
    assert doc["table"] == unfinished
    close(pg)

    # A fresh browser on a fresh server: its own game on the table, nothing counted.
    fresh = new_page(browser, second_server)
    open_table(fresh, speed=0)
    own = state(fresh)["id"]
    fresh.click("#b-stats")
    fresh.locator("#st-body p").wait_for()
    file = {"name": download.suggested_filename, "mimeType": "application/json", "buffer": text.encode()}
    fresh.set_input_files("#backup-file", files=[file])
    toast_is(fresh, "2 games imported, 0 already here.")
    fresh.locator("#st-history tbody tr").first.wait_for()
    assert cells(fresh) == here
    assert fresh.locator("#st-history tbody tr").count() == 1
    assert fresh.locator("#st-history tbody td").first.inner_text() == "7"
    # The unfinished game is there to reopen (the table keeps the fresh browser's own game).
    fresh.locator("#st-unfinished tbody tr").first.wait_for()
    assert fresh.locator(f'#st-unfinished tr[data-id="{unfinished}"]').count() == 1
    assert state(fresh)["id"] == own

    # Restoring the same file again adds nothing.
    fresh.set_input_files("#backup-file", files=[file])
    toast_is(fresh, "0 games imported, 2 already here.")
    assert cells(fresh) == here and fresh.locator("#st-history tbody tr").count() == 1

    # A file that is no backup is refused in words, and changes nothing.
    fresh.set_input_files("#backup-file", files=[{"name": "x.json", "mimeType": "application/json",
                                                  "buffer": b"not json"}])
    toast_is(fresh, "The backup was not restored: the backup is not JSON (line 1, column 1).")
    assert cells(fresh) == here

    # And the restored unfinished game plays on from where it was.
    fresh.locator(f'#st-unfinished tr[data-id="{unfinished}"] button.reopen').click()
    wait_js(fresh, f"window.firstlast.state.id === '{unfinished}' && !window.firstlast.busy")
    settle(fresh)
    assert state(fresh)["moves"] == 10 and state(fresh)["deal"] == "1"
    close(fresh)


def test_a_refused_move_is_said_in_russian(browser: Any, server: str, second_server: str) -> None:
    pg = new_page(browser, server)
    open_table(pg, speed=0)
    deal_by_number(pg, 0)
    text = pg.request.get(f"{server}api/backup").text()
    close(pg)
    doc = json.loads(text)
    game = next(g for g in doc["games"] if g["deal"] == "0")
    game["moves"] = "turn"  # deal 0 starts with a reserve play: turning is refused (R9)
    ru = new_page(browser, second_server, locale="ru-RU")
    open_table(ru, speed=0)
    ru.click("#b-stats")
    ru.locator("#st-body p").wait_for()
    ru.set_input_files("#backup-file", files=[{"name": "b.json", "mimeType": "application/json",
                                               "buffer": json.dumps(doc).encode()}])
    # The damaged game is left out and the rest restored (docs/backup.md, issue 29.3); the
    # refusal of its move is said in the page's language, with the count of games left out.
    wait_js(ru, "document.querySelector('#toast').textContent.includes('повреждённая игра не восстановлена')")
    said = ru.locator("#toast").inner_text()
    n = doc["games"].index(game) + 1
    assert f". Не восстановлена игра {n} резервной копии (раскладка 0, id {game['id']}): ход 1 (turn) " in said, said
    assert said.count(f"игра {n}") == 1 and "card that fits" not in said, said
    restored = {g["deal"] for g in ru.request.get(f"{second_server}api/games").json()["games"]}
    assert "0" not in restored, restored
    close(ru)
