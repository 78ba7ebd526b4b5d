"""Accessibility, phones and sharing, in headless Chromium (issue 11).

- axe-core (tools/js/node_modules/axe-core, pinned in tools/js/package-lock.json) finds
  no violation on the table (fresh and mid-game), the help, the statistics, the settings,
  the deal dialog, the question before leaving a game and the end panel, in both
  languages. axe is injected with ``page.add_script_tag`` in a context that bypasses the
  page's CSP (the only thing the bypass is for: the page itself never needs it).
- Moves made by keyboard are said in the polite live region (#announce), from the
  server's ``announcement``, in English and in Russian; refusals are said in words.
- On a 390 × 844 phone every toolbar target is at least 44 × 44 px and the table fits.
- /?deal=N&variant=TOKEN&lang=… opens that deal and cleans the address; the share button
  gives the link of the game on the table; "New" asks before leaving a game in progress.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser import AXE, axe, close, deal_by_number, new_page, open_table, require_browser, settle, state, wait_js

from firstlast.engine import Game

require_browser("accessibility tests need chromium-headless-shell and axe-core (npm ci --prefix tools/js)", AXE)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

DEAL_RESERVE = 6  # forced line starts R4, R5
DEAL_LOST = 1


def set_lang(pg: Any, lang: str) -> None:
    if pg.evaluate("document.documentElement.lang") != lang:
        pg.click("#b-lang")
        wait_js(pg, f"document.documentElement.lang === '{lang}' && !window.firstlast.busy")


# ---------------------------------------------------------------------------- axe
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_axe_finds_no_violation_anywhere(browser: Any, server: str, lang: str) -> None:
    pg = new_page(browser, server, locale="ru-RU" if lang == "ru" else "en-US", bypass_csp=True)
    open_table(pg, speed=0)
    set_lang(pg, lang)
    axe(pg, "fresh table")
    deal_by_number(pg, DEAL_RESERVE)
    for _ in range(3):
        pg.keyboard.press("s")
        settle(pg)
    axe(pg, "mid-game")
    # The help: the rules (the server's fragment), the keys, the book.
    pg.keyboard.press("?")
    pg.locator("#help-body h1").wait_for()
    axe(pg, "help: rules")
    for tab in ("keys", "book"):
        pg.click(f'#dlg-help [data-tab="{tab}"]')
        pg.locator("#help-body table.keys" if tab == "keys" else "#help-body .book").wait_for()  # its text shown
        axe(pg, f"help: {tab}")
    pg.keyboard.press("Escape")
    pg.click("#b-settings")
    axe(pg, "settings")
    pg.keyboard.press("Escape")
    pg.click("#b-deal")
    axe(pg, "deal dialog")
    pg.keyboard.press("Escape")
    pg.keyboard.press("n")  # a game in progress: asked first
    pg.locator("#dlg-confirm[open]").wait_for()
    axe(pg, "confirm")
    pg.keyboard.press("Escape")
    # The end panel: finish now.
    pg.click("#b-finish")
    pg.locator("#ending.show").wait_for()
    axe(pg, "end panel")
    pg.keyboard.press("Escape")
    pg.click("#b-stats")
    pg.locator("#st-history tbody tr").first.wait_for()
    axe(pg, "statistics")
    pg.keyboard.press("Escape")
    close(pg)


# ---------------------------------------------------------------------------- screen readers
def announced(pg: Any, before: str = "", *words: str) -> str:
    """The live region's next words holding all of ``words`` (it is emptied, then filled;
    the words keep an earlier announcement, such as the deal's, from being read instead)."""
    holds = "".join(f" && t.includes({w!r})" for w in words)
    wait_js(pg, f"(() => {{ const t = document.getElementById('announce').textContent;"
                f" return t !== '' && t !== {before!r}{holds}; }})() && !window.firstlast.busy")
    return pg.evaluate("document.getElementById('announce').textContent")  # type: ignore[no-any-return]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_keyboard_moves_are_announced(browser: Any, server: str, lang: str) -> None:
    pg = new_page(browser, server, locale="ru-RU" if lang == "ru" else "en-US")
    open_table(pg, speed=0)
    set_lang(pg, lang)
    deal_by_number(pg, DEAL_RESERVE)
    region = pg.locator("#announce")
    assert region.get_attribute("aria-live") == "polite" and region.get_attribute("role") == "status"
    words = {
        "en": {"reserve": "reserve 4", "pile": "pile 1", "undo": "undone", "turn": "turned", "refused": "(R4)"},
        "ru": {"reserve": "места 4 нижнего ряда", "pile": "кучку 1", "undo": "отменено", "turn": "из колоды",
               "refused": "(R4)"},
    }[lang]
    # The places are named in words; only places that can act are buttons.
    r4 = pg.locator('.slot[data-place="R4"]')
    assert r4.get_attribute("role") == "button"
    label = r4.get_attribute("aria-label")
    assert label and "♥" not in label and "♠" not in label and "♦" not in label and "♣" not in label
    assert pg.locator('.slot[data-place="F1"]').get_attribute("role") == "img"
    assert pg.locator('.slot[data-place="F1"]').get_attribute("tabindex") is None
    assert pg.locator('.slot[data-place="waste"]').get_attribute("role") == "img"
    pile = pg.locator('.slot[data-place="P1"]').get_attribute("aria-label")
    assert pile and pile.startswith({"en": "pile 1, 0 of 13, needs", "ru": "кучка 1, 0 из 13"}[lang])
    stock = pg.locator('.slot[data-place="stock"]').get_attribute("aria-label")
    assert stock and stock.startswith({"en": "stock: 88 cards", "ru": "колода: 88 карт"}[lang])

    pg.keyboard.press("4")  # R4, the forced move
    said = announced(pg, "", words["reserve"], words["pile"])
    assert words["reserve"] in said and words["pile"] in said, said
    assert state(pg)["moves"] == 1
    pg.keyboard.press("u")
    said = announced(pg, said, words["undo"])
    assert said.startswith(words["undo"]), said
    pg.keyboard.press("Control+y")
    said = announced(pg, said, words["reserve"])
    assert words["reserve"] in said
    # A refused move is said in words, in the page's language.
    s = state(pg)
    wrong = next(f"{i + 1}" for i, c in enumerate(s["reserve"]) if c is not None and c["rank"] != s["need"]
                 and f"R{i + 1}" not in s["legal_moves"])
    pg.keyboard.press(wrong)
    said = announced(pg, said, "(R")
    assert words["refused"] in said or "(R9)" in said, said
    # Play the forced line until a turn is due: the turn is said too.
    while state(pg)["hint"] != "turn":
        pg.keyboard.press("s")
        settle(pg)
    pg.keyboard.press("t")
    said = announced(pg, said, words["turn"])
    assert words["turn"] in said, said
    close(pg)


def test_dialogs_trap_focus_and_give_it_back_and_new_asks_first(browser: Any, server: str) -> None:
    pg = new_page(browser, server)
    open_table(pg, speed=0)
    deal_by_number(pg, DEAL_RESERVE)
    game = state(pg)["id"]
    # No moves yet: New deals at once.
    pg.keyboard.press("s")
    settle(pg)
    # A game in progress: New asks; Esc keeps the game, Enter leaves it.
    pg.focus("#b-new")
    pg.keyboard.press("Enter")
    pg.locator("#dlg-confirm[open]").wait_for()
    assert pg.evaluate("document.activeElement.id") == "confirm-ok"
    for _ in range(4):  # Tab stays in the dialog
        pg.keyboard.press("Tab")
        assert pg.evaluate("!!document.activeElement.closest('#dlg-confirm')")
    pg.keyboard.press("Escape")
    wait_js(pg, "!document.querySelector('#dlg-confirm[open]')")
    settle(pg)
    assert state(pg)["id"] == game
    wait_js(pg, "document.activeElement.id === 'b-new'")
    pg.keyboard.press("n")
    pg.locator("#dlg-confirm[open]").wait_for()
    pg.focus("#confirm-ok")
    pg.keyboard.press("Enter")
    wait_js(pg, f"window.firstlast.state.id !== '{game}' && !window.firstlast.busy")
    # The help scrolls by keyboard: its text takes the focus.
    pg.focus("#b-rules")
    pg.keyboard.press("Enter")
    pg.locator("#help-body h1").wait_for()
    body = pg.locator("#help-body")
    assert body.get_attribute("tabindex") == "0"
    body.focus()
    pg.keyboard.press("PageDown")
    wait_js(pg, "document.getElementById('help-body').scrollTop > 0")
    pg.keyboard.press("Escape")
    wait_js(pg, "document.activeElement.id === 'b-rules'")
    # The end panel keeps Tab inside, and gives the focus back when closed.
    pg.click("#b-finish")
    pg.locator("#ending.show").wait_for()
    for _ in range(6):
        pg.keyboard.press("Tab")
        assert pg.evaluate("!!document.activeElement.closest('#ending')")
    pg.keyboard.press("Escape")
    wait_js(pg, "document.getElementById('ending').hidden")
    # After the end the stock is no button and asks for nothing.
    stock = pg.locator('.slot[data-place="stock"]')
    assert stock.get_attribute("role") == "img"
    label = stock.get_attribute("aria-label") or ""
    assert "redeal" not in label and "turn" not in label and "click" not in label
    close(pg)


def test_only_movable_cards_look_movable_finish_and_speed(browser: Any, server: str) -> None:
    pg = new_page(browser, server)
    open_table(pg, speed=0)
    deal_by_number(pg, DEAL_RESERVE)
    movable = pg.evaluate("""(() => { const m = window.firstlast.model; const out = [];
        for (const k in m) {
          const top = m[k][m[k].length - 1];
          if (top && top.classList.contains('source')) out.push(k);
        }
        return out.sort(); })()""")
    assert movable == sorted(m for m in state(pg)["legal_moves"] if m not in ("turn", "redeal"))
    assert pg.evaluate("getComputedStyle(window.firstlast.model.R1[0]).cursor") != "grab" or "R1" in movable
    # The speed on the table is the setting, saved.
    # The page saves it in the background: wait for its PUT's answer (the server was
    # read here before the PUT landed under load), then it must stay saved.
    with pg.expect_response(lambda r: r.request.method == "PUT" and r.url.endswith("/api/settings")
                            and '"speed":3' in (r.request.post_data or "").replace(" ", "")) as put:
        pg.select_option("#b-speed", "3")
    assert put.value.ok, put.value.status
    wait_js(pg, "window.firstlast.speed === 3")
    assert pg.request.get(f"{pg.base_url}api/settings").json()["speed"] == 3
    # Finish now: the forced line to its end, at once.
    pg.click("#b-finish")
    wait_js(pg, "window.firstlast.state.status !== 'playing' && !window.firstlast.busy")
    reference = Game(DEAL_RESERVE)
    steps = reference.autoplay()
    s = state(pg)
    assert s["moves"] == len(steps) and s["score"] == reference.position.score
    assert pg.evaluate("document.querySelectorAll('#cards > .card.source').length") == 0
    close(pg)


# ---------------------------------------------------------------------------- phones
def test_phone_targets_and_fit(browser: Any, server: str) -> None:
    pg = new_page(browser, server, locale="ru-RU", viewport={"width": 390, "height": 844}, device_scale_factor=2,
                  has_touch=True, is_mobile=True)
    open_table(pg, speed=0)
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    buttons = pg.locator("#topbar .tools > button")
    assert buttons.count() >= 6
    for i in range(buttons.count()):
        b = buttons.nth(i)
        box = b.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (b.get_attribute("id"), box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        # A visible label (no icon-only button on touch), and no tooltip.
        assert b.locator("span").inner_text().strip(), b.get_attribute("id")
        assert b.get_attribute("title") is None
    # The rest is in a labelled menu, every item as large.
    pg.locator("#b-more").tap()
    pg.locator("#more").wait_for()
    assert pg.locator("#b-more").get_attribute("aria-expanded") == "true"
    for sel in ("#b-deal", "#b-restart", "#b-share", "#b-stats", "#b-rules", "#b-settings", "#b-lang", "#b-finish",
                "#b-speed"):
        box = pg.locator(sel).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (sel, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    pg.keyboard.press("Escape")
    wait_js(pg, "!document.getElementById('topbar').classList.contains('menu-open')")
    # The table fits the width, its cards as large as the screen allows (upright, the
    # columns in two halves: the height sets their size), and it fills the screen below
    # the bars (no half-screen wasted).
    board = pg.locator("#board").bounding_box()
    assert board and board["x"] >= 0 and board["x"] + board["width"] <= 390
    table = pg.locator("#table").bounding_box()
    assert table and board["y"] - table["y"] < 20
    assert board["width"] >= 390 * 0.9 or board["height"] >= table["height"] * 0.9
    assert board["y"] + board["height"] >= table["y"] + table["height"] * 0.6
    assert pg.locator('.slot[data-place="R1"]').bounding_box()["width"] >= 52
    close(pg)


# ---------------------------------------------------------------------------- sharing
def test_shared_links_open_the_deal_and_the_share_button_gives_one(browser: Any, server: str) -> None:
    pg = new_page(browser, server)
    pg.goto(pg.base_url + "?deal=42&variant=r0w&lang=ru")
    wait_js(pg, "window.firstlast.state && window.firstlast.state.deal === '42' && !window.firstlast.busy")
    s = state(pg)
    assert s["variant"]["token"] == "r0w" and s["moves"] == 0
    assert pg.evaluate("document.documentElement.lang") == "ru"
    assert pg.evaluate("location.search") == ""
    # Bad values: a clear toast, nothing started.
    pg.goto(pg.base_url + "?deal=12a&variant=r3")
    settle(pg)
    pg.locator("#toast.show").wait_for()
    assert "ничего не начато" in pg.locator("#toast").inner_text()
    assert state(pg)["id"] == s["id"]
    assert pg.evaluate("location.search") == ""
    pg.goto(pg.base_url + "?deal=18446744073709551616")
    settle(pg)
    pg.locator("#toast.show").wait_for()
    assert state(pg)["id"] == s["id"]
    # The share button on the local server: its link works on this machine only, and
    # the dialog says so (in words tied to the link field) instead of sharing it.
    pg.evaluate("document.getElementById('toast').classList.remove('show')")
    pg.click("#b-share")
    pg.locator("#dlg-share[open]").wait_for()
    expected = f"{pg.base_url}?deal=42&variant=r0w&lang=ru"
    assert pg.locator("#share-link").input_value() == expected
    note = pg.locator("#share-local")
    assert note.is_visible() and "только на этом компьютере" in note.inner_text()
    assert pg.locator("#share-link").get_attribute("aria-describedby") == "share-local"
    close(pg)
