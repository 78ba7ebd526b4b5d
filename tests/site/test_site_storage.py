"""The site never loses an acknowledged move when the browser's storage fails (docs/site.md,
"Storage"; issue 29). Chromium's profile lives on a small tmpfs: the disk is filled
mid-game and then freed, and later the site's data is cleared while the tab is open. Each
time the page goes on playing from what the tab holds, says what happened in the player's
language (no browser error text), and offers a backup that holds every move; once the
browser lets it, the store is written again whole, so a reload finds every move.

Mounting a tmpfs needs root (or ``sudo -n``), as the test script's machine has; elsewhere
the test skips, and fails under FIRSTLAST_NO_SKIP=1.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser import CHROMIUM, LAUNCH_ARGS, deal_by_number, require_browser, state, wait_js
from test_site_browser import READY, open_site, turn

require_browser("the site's browser tests need Debian's chromium-headless-shell")

CATALOG = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "i18n"
#: Records every state the storage notice shows (it may pass "failed" quickly: the retry
#: goes through as soon as the browser has room again).
WATCH = """() => {
  window.storageSeen = [];
  new MutationObserver(() => {
    const bar = document.getElementById("site-storage");
    const last = window.storageSeen.at(-1);
    if (bar && (!last || last.state !== bar.dataset.state)) {
      window.storageSeen.push({ state: bar.dataset.state, said: bar.querySelector(".site-what").textContent });
    }
  }).observe(document.body, { subtree: true, attributes: true, childList: true });
}"""

#: Where the stock is drawn (a click turns it).
STOCK_BOX = "document.querySelector('.slot[data-place=\"stock\"]').getBoundingClientRect().toJSON()"


@contextmanager
def small_disk(where: Path, mb: int) -> Iterator[Path]:
    """A tmpfs of ``mb`` MiB at ``where`` (root, or passwordless sudo)."""
    where.mkdir()
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    made = subprocess.run([*sudo, "mount", "-t", "tmpfs", "-o", f"size={mb}m,mode=1777", "tmpfs", str(where)],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0:
        reason = f"cannot mount a small tmpfs for Chromium's profile: {made.stderr.strip()}"
        if os.environ.get("FIRSTLAST_NO_SKIP"):
            pytest.fail(reason)
        pytest.skip(reason)
    try:
        yield where
    finally:
        subprocess.run([*sudo, "umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Take every free byte of ``disk``; answers the file to delete to free them."""
    filler = disk / "filler"
    st = os.statvfs(disk)
    with filler.open("wb") as f, suppress(OSError):
        f.write(b"\0" * (st.f_bavail * st.f_frsize))
    assert os.statvfs(disk).f_bavail == 0
    return filler


def backup_moves(pg: Any, game_id: str) -> int:
    """Save the backup the storage notice offers; how many moves it holds of ``game_id``."""
    with pg.expect_download() as got:
        pg.click("#site-storage .site-backup")
    data = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    game = next(g for g in data["games"] if g["id"] == game_id)
    return len(game["moves"].split())


def notice_passes_axe_and_fits_a_phone(pg: Any) -> None:
    """The storage notice: nothing for axe (tests/web's runner); at phone width its
    buttons are full targets, its words 12 px or more, the whole notice on the screen.
    The table is back at its own size before this returns: its layout follows a resize a
    frame later (a ResizeObserver), and a click on the old place of the stock is lost."""
    from test_a11y import axe

    axe(pg, "storage notice")
    size = pg.viewport_size
    pg.evaluate(f"window.stockAt = JSON.stringify({STOCK_BOX})")
    pg.set_viewport_size({"width": 390, "height": 844})
    m = pg.evaluate("""(() => {
      const bar = document.getElementById('site-storage'), r = bar.getBoundingClientRect();
      const buttons = [...bar.querySelectorAll('button')].filter((b) => !b.hidden)
        .map((b) => b.getBoundingClientRect());
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
               small: buttons.filter((b) => b.width < 44 || b.height < 44).length,
               px: [...bar.querySelectorAll('p, button')].map((el) => parseFloat(getComputedStyle(el).fontSize)) };
    })()""")
    assert not m["small"] and min(m["px"]) >= 12, m
    assert m["left"] >= 0 and m["right"] <= 390 and m["top"] >= 0 and m["bottom"] <= 844, m
    pg.set_viewport_size(size)
    wait_js(pg, f"JSON.stringify({STOCK_BOX}) === window.stockAt")


def test_a_full_disk_and_cleared_data_lose_no_acknowledged_move(browser: Any, site_url: str, tmp_path: Path) -> None:
    ru = json.loads((CATALOG / "ru.json").read_text(encoding="utf-8"))
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site_url))
    with small_disk(tmp_path / "disk", 64) as disk:
        # A profile on the small disk: a second Chromium, from the session's playwright.
        ctx = browser.browser_type.launch_persistent_context(
            str(disk / "profile"), executable_path=str(CHROMIUM), args=LAUNCH_ARGS, locale="ru-RU",
            bypass_csp=True, viewport={"width": 1440, "height": 900})
        try:
            pg = open_site(ctx, site_url)
            deal_by_number(pg, 1)  # deal 1 starts with turns to make
            turn(pg, 2)
            game_id = state(pg)["id"]
            # The disk fills mid-game: the moves are still answered, from what the tab holds.
            pg.evaluate(WATCH)
            filler = fill(disk)
            turn(pg, 3)
            assert state(pg)["moves"] == 5
            wait_js(pg, "window.storageSeen.length > 0", timeout=60_000)
            first = pg.evaluate("window.storageSeen[0]")
            assert first["state"] in ("full", "failed"), first
            assert first["said"] == f"{ru['site.storage.' + first['state']]} {ru['site.storage.what']}", first
            assert backup_moves(pg, game_id) == 5  # the backup offered holds every move
            notice_passes_axe_and_fits_a_phone(pg)
            # Room again: the next change (or the retry) writes the store whole.
            filler.unlink()
            turn(pg)
            assert state(pg)["moves"] == 6  # answered: acknowledged
            wait_js(pg, "document.getElementById('site-storage').dataset.state === 'saved'", timeout=60_000)
            assert pg.inner_text("#site-storage .site-what") == ru["site.storage.saved"]
            pg.reload()
            wait_js(pg, READY, timeout=90_000)
            assert state(pg)["id"] == game_id and state(pg)["moves"] == 6
            # The site's data cleared while the tab is open: said at once, a backup offered
            # with every move, and the store written again whole.
            pg.evaluate(WATCH)
            cdp = ctx.new_cdp_session(pg)
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "indexeddb"})
            wait_js(pg, "window.storageSeen.length > 0", timeout=60_000)
            assert pg.evaluate("window.storageSeen[0].state") == "cleared"
            assert backup_moves(pg, game_id) == 6
            turn(pg)
            assert state(pg)["moves"] == 7
            wait_js(pg, "document.getElementById('site-storage').dataset.state === 'saved'", timeout=60_000)
            pg.reload()
            wait_js(pg, READY, timeout=90_000)
            assert state(pg)["id"] == game_id and state(pg)["moves"] == 7
            assert not pg.errors
        finally:
            ctx.close()
