"""The page says refusals in the server's words, cards in words in both languages, and
decides no rule: what a press does comes from the state (issue 18, issue 19's
"refusals in words"). Real server, headless Chromium (browser.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import close, deal_by_number, new_page, open_table, require_browser, settle, state, wait_js

require_browser()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

DEAL = 1  # P1 needs a queen; R1 holds the eight of spades; nothing fits: turn (R9)


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    pg = new_page(browser, server)
    yield pg
    close(pg)


def _toast(pg: Any, part: str) -> str:
    wait_js(pg, f"document.querySelector('#toast').textContent.includes({part!r})")
    return str(pg.locator("#toast").inner_text())


def test_refusals_in_words_in_both_languages_without_a_request(page: Any) -> None:
    moves: list[str] = []
    page.on("request", lambda r: moves.append(r.url) if r.url.endswith("/moves") else None)
    open_table(page, speed=0)
    deal_by_number(page, DEAL)
    s = state(page)
    # What a press does is the server's: the reserve cards (R4 says what the pile needs)
    # and the privileged card; not the first row's other cards, nor the waste (R6, V2).
    assert "R1" in s["pressable"] and "F1" not in s["pressable"] and "waste" not in s["pressable"]
    assert page.evaluate("window.firstlast.els.filter((e) => e.classList.contains('pressable'))"
                         ".every((e) => window.firstlast.state.pressable.includes(e.place))")
    page.keyboard.press("1")
    text = _toast(page, "(R4)")
    assert text == "The eight of spades does not fit pile 1, which needs a queen (R4)", text
    settle(page)
    # The language changes: the table's refusals are fetched anew, in Russian.
    page.keyboard.press("Shift+L")  # L: the language
    wait_js(page, "document.documentElement.lang === 'ru'"
                  " && window.firstlast.state.refusals.R1.text.includes('восьмёрка')")
    page.keyboard.press("1")
    text = _toast(page, "не подходит")
    assert text == "Восьмёрка пик не подходит: на кучку P1 идёт только дама (R4)", text
    assert moves == []  # explained from the state: no request answered 409
