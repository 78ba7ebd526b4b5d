"""One story everywhere (issue 27, item 5): the site's own Python, in Chromium under
Lighthouse's mobile CPU throttling (4×), tells deal 1's story as the play layer and the
local server do, every point and moment (the golden ``tests/data/stories.json``; words aside, which
follow the language).

Needs Debian's chromium (tests/web/browser.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser import require_browser, wait_js
from test_site_browser import READY
from test_site_meter import fresh_page

require_browser("the site's browser tests need Debian's chromium at /usr/bin/chromium")

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "stories.json"
#: The story's words (the language's), beside its content (the game's alone).
WORDS = ("sentences", "conclusion", "details", "chart_name", "plain", "where")

TOLD = """async () => {
  const { api } = await import('./static/js/api.js');
  let s = window.firstlast.state;
  while (s.status === 'playing') s = (await api.step(s.id, s.version, 500)).state;
  return [s.status, await api.story(s.id)];
}"""


def test_the_site_tells_the_golden_story_under_4x_throttling(browser: Any, site_url: str) -> None:
    pg = fresh_page(browser, site_url + "?speed=0&deal=1", throttle=4)
    wait_js(pg, READY + " && window.firstlast.state.deal === '1'", timeout=300_000)
    status, story = pg.evaluate(TOLD)
    assert status == "lost"
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))["1 r3"]
    content = {k: v for k, v in story.items() if k not in WORDS}
    # Compared as values: the page reads the answer as JavaScript numbers (0.0 is 0 there).
    assert content == {**golden, "deal": "1"}
    errors = pg.errors
    pg.context.close()
    assert not errors
