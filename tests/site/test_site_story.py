"""One story everywhere (issue 27, item 5): the site's own Python, in Chromium under
Lighthouse's mobile CPU throttling (4×), tells deal 1's story and those of the other
golden games, lost and won, byte for byte as the play layer and the local server do
(the golden ``tests/data/stories.json``; words aside, which follow the language).

Needs Debian's chromium-headless-shell (tests/web/browser.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser import require_browser, wait_js
from test_site_browser import READY
from test_site_meter import fresh_page

require_browser("the site's browser tests need Debian's chromium-headless-shell")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "stories.json"
#: The story's words (the language's), beside its content (the game's alone).
WORDS = ("sentences", "conclusion", "details", "chart_name", "plain", "where")

#: Play the game on the table to its end (forced moves), then ask for its story: the
#: answer's bytes, as the site's Python wrote them (the page's transport, no parsing).
TOLD = """async ([deal, variant]) => {
  const { api } = await import('./static/js/api.js');
  const { send } = await import('./static/js/transport.js');
  let s = await api.newGame(deal, variant, 'number');
  while (s.status === 'playing') s = (await api.step(s.id, s.version, 500)).state;
  return (await send(`/api/games/${s.id}/story`)).text();
}"""


def test_the_site_tells_the_golden_stories_under_4x_throttling(browser: Any, site_url: str) -> None:
    pg = fresh_page(browser, site_url + "?speed=0", throttle=4)
    wait_js(pg, READY, timeout=300_000)
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for key, want in golden.items():
        deal, variant = key.split()
        story = json.loads(pg.evaluate(TOLD, [int(deal), variant]))
        content = {k: v for k, v in story.items() if k not in WORDS}
        assert json.dumps(content, sort_keys=True) == json.dumps({**want, "deal": deal}, sort_keys=True), key
    errors = pg.errors
    pg.context.close()
    assert not errors
