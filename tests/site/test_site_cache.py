"""The site heals its own offline copy (docs/site.md, "Offline and updates"; issue 29):
the service worker checks every file against the build's hash each time it serves it, so
a damaged or missing copy is fetched again when online (a deleted cache is filled again
whole), and offline the page says which file is missing and what to do, in the player's
language, instead of waiting on "Starting Python…" or showing what failed inside it; its
"Try again" then really tries again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser import require_browser, state, wait_js
from hosting import SUB_PATH, free_port, serve_folder
from test_site_browser import READY, open_site, site_context, turn

require_browser("the site's browser tests need Debian's chromium-headless-shell")

CATALOG = Path(__file__).resolve().parents[2] / "src" / "firstlast" / "i18n"
#: Replace (or drop, with ``null``) files of the site's offline copy, from the page.
DAMAGE = """async ([base, paths, drop]) => {
  const name = (await caches.keys()).find((n) => n.startsWith("firstlast:" + new URL(base).pathname));
  if (drop) return caches.delete(name);
  const cache = await caches.open(name);
  for (const p of paths) await cache.put(new URL(p, base).href, new Response("damaged", {
    headers: { "content-type": "application/octet-stream" } }));
  return true;
}"""
#: The files of the offline copy whose bytes are the build's (by build.json's hashes).
WHOLE = """async ([base, files]) => {
  const name = (await caches.keys()).find((n) => n.startsWith("firstlast:" + new URL(base).pathname));
  if (!name) return [];
  const cache = await caches.open(name);
  const whole = [];
  for (const f of files) {
    const hit = await cache.match(new URL(f.path, base).href);
    if (!hit) continue;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await hit.arrayBuffer()));
    if (Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") === f.sha256) whole.push(f.path);
  }
  return whole;
}"""

#: How many files of the build the offline copy holds (whatever their bytes).
PRESENT = """async ([base, files]) => {
  const name = (await caches.keys()).find((n) => n.startsWith("firstlast:" + new URL(base).pathname));
  if (!name) return 0;
  const cache = await caches.open(name);
  let n = 0;
  for (const f of files) if (await cache.match(new URL(f.path, base).href)) n++;
  return n;
}"""


def test_a_damaged_copy_is_fetched_again_online_and_named_offline(browser: Any, site_root: Path) -> None:
    ru = json.loads((CATALOG / "ru.json").read_text(encoding="utf-8"))
    files = json.loads((site_root / SUB_PATH / "build.json").read_text(encoding="utf-8"))["files"]
    every = sorted(f["path"] for f in files)
    port = free_port()
    ctx = site_context(browser, locale="ru-RU")
    with serve_folder(site_root, SUB_PATH, port=port) as url:
        pg = open_site(ctx, url, "&deal=1")
        turn(pg)
        # Online: damaged copies of Python's runtime and of the game are fetched again.
        pg.evaluate(DAMAGE, [url, ["pyodide/pyodide.asm.wasm", "py/site-packages.zip"], False])
        pg.reload()
        wait_js(pg, READY, timeout=90_000)
        assert state(pg)["moves"] == 1
        assert sorted(pg.evaluate(WHOLE, [url, files])) == every
        # The whole offline copy deleted: filled again, every file, from one visit.
        pg.evaluate(DAMAGE, [url, [], True])
        pg.reload()
        wait_js(pg, READY, timeout=90_000)
        # (Each file there, then every one the build's bytes; wait_js awaits the count.)
        wait_js(pg, f"({PRESENT})({json.dumps([url, files])}).then((n) => n === {len(every)})", timeout=90_000)
        assert sorted(pg.evaluate(WHOLE, [url, files])) == every
        pg.evaluate(DAMAGE, [url, ["py/site-packages.zip"], False])
    # Offline for real (the server gone, the HTTP cache empty): the page names the file.
    ctx.new_cdp_session(pg).send("Network.clearBrowserCache")
    pg.reload()
    wait_js(pg, "!!document.getElementById('site-panel')", timeout=90_000)
    said = pg.inner_text("#site-panel p")
    assert said == ru["site.missing"].replace("{files}", "py/site-packages.zip"), said
    # Online again: "Try again" starts the game, as it was.
    with serve_folder(site_root, SUB_PATH, port=port):
        with pg.expect_navigation():
            pg.click("#site-panel button")
        wait_js(pg, READY, timeout=90_000)
        assert state(pg)["moves"] == 1 and not pg.evaluate("!!document.getElementById('site-panel')")
    ctx.close()
