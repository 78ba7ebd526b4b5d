"""By ear and by keyboard (issue 19, "Keyboard and screen reader"), in headless Chromium.

- The focus goes to the next sensible control after every action, never to <body>:
  a card played with Enter, Restart, New, the end panel closed, a dialog closed.
- What is said reaches the player where the player is: every dialog and the end panel
  has a live region of its own (a modal hides the page's #announce); the end's result,
  an import's result, the hint in words, undo/redo/restart, the language, replay steps.
- Runs of moves (Auto, Advance) are summed up: about one announcement a second at
  most, short, and a summary when Auto stops.
- The table summary (E) and the review of a pile or the waste (X; the Review button for
  touch), in both languages; a verbosity setting (brief/full) in the one settings schema.
- Help tabs are real tabs (arrow keys); the deal field's error is tied to it; the end
  banner is a titled section; the stock names no redeal that is not there.
- On a phone (390 × 844 and 844 × 390) axe-core finds nothing, in both languages, every
  button's name holds the words it shows, and there is an h1; under forced colours the
  active pile, the hint and the chance meter stay visible.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import (
    AXE,
    axe,
    close,
    deal_by_number,
    fresh_game,
    new_page,
    open_table,
    require_browser,
    settle,
    state,
    until,
    wait_js,
)

from firstlast.engine import Game
from firstlast.i18n.table import hint_text, review_words, table_summary

ROOT = Path(__file__).resolve().parents[2]

require_browser("accessibility tests need chromium-headless-shell and axe-core (npm ci --prefix tools/js)", AXE)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

DEAL_LOST = 1  # P1 waits 18 turns for a queen; then R2's king of hearts fits (deal 1's forced line)
PHONES = [{"width": 390, "height": 844}, {"width": 844, "height": 390}]

#: What the player's focus is on, as "TAG place-or-id".
FOCUS = ("(() => { const e = document.activeElement;"
         " return e ? e.tagName + ' ' + (e.dataset.place || e.id) : 'none'; })()")

#: The texts of the live regions a screen reader can hear now: only those inside the
#: modal on top (the last opened dialog, else the end panel) when one is open.
AUDIBLE = """(() => {
  const open = [...document.querySelectorAll('dialog[open]')];
  const ending = document.getElementById('ending');
  const top = open.length ? open.sort((a, b) => Number(b.dataset.openedAt || 0) - Number(a.dataset.openedAt || 0))[0]
    : (!ending.hidden ? ending : null);
  return [...document.querySelectorAll('[aria-live]')]
    .filter((r) => !top || top.contains(r))
    .filter((r) => !r.closest('[inert], [aria-hidden=true]'))
    .map((r) => r.textContent).filter((t) => t);
})()"""


def heard(pg: Any, *words: str, timeout: float = 30_000) -> str:
    """Wait until an audible live region says all of ``words``; return what it says
    (read in the same evaluation: a region is emptied before each new announcement)."""
    cond = " && ".join(f"t.includes({w!r})" for w in words) or "true"
    said: str | None = until(pg, f"{AUDIBLE}.find((t) => {cond}) || null", timeout)
    if said is None:
        raise AssertionError(f"never heard {words}; heard {pg.evaluate(AUDIBLE)}")
    return said


def set_lang(pg: Any, lang: str) -> None:
    if pg.evaluate("document.documentElement.lang") != lang:
        pg.keyboard.press("Shift+L")
        wait_js(pg, f"document.documentElement.lang === '{lang}' && !window.firstlast.busy")


def to_the_king(pg: Any) -> None:
    """Deal 1 with the keyboard: 18 Enters on the stock, until R2's king of hearts fits P1."""
    deal_by_number(pg, DEAL_LOST)
    pg.focus('.slot[data-place="stock"]')
    for _ in range(18):
        pg.keyboard.press("Enter")
        settle(pg)
    s = state(pg)
    assert s["hint"] == "R2" and s["reserve"][1]["rank"] == 13 and s["reserve"][1]["suit"] == "h", s["hint"]


def king_by_api(pg: Any) -> None:
    """The position ``to_the_king`` reaches, put on the table through the API (deal 1 and
    its 18 forced moves; shown by the page's own loader): where the keys that get there
    are not what is tested."""
    r = pg.request.post(f"{pg.base_url}api/games", data={"deal": str(DEAL_LOST), "how": "number"})
    assert r.ok, r.text()
    gid = r.json()["id"]
    r = pg.request.post(f"{pg.base_url}api/games/{gid}/step", data={"n": 18})
    assert r.ok, r.text()
    pg.evaluate(f"import('/static/js/controller.js').then((m) => m.loadCurrent('{gid}'))")
    wait_js(pg, f"window.firstlast.state.id === '{gid}' && !window.firstlast.busy")
    s = state(pg)
    assert s["moves"] == 18 and s["hint"] == "R2" and s["reserve"][1]["rank"] == 13, s["hint"]


#: Whether the focus is on a control that can act.
ON_A_CONTROL = """(() => { const e = document.activeElement;
    if (!e || e === document.body || e.disabled || e.offsetParent === null) return false;
    return !e.classList.contains('slot') || e.getAttribute('role') === 'button'; })()"""


def on_table_control(pg: Any) -> str:
    """Wait until the focus is on a control that can act (never <body>, a disabled button
    or a place that can no longer act: a dialog's close gives it back a task later);
    returns FOCUS."""
    try:
        wait_js(pg, ON_A_CONTROL)
    except AssertionError:
        raise AssertionError(f"the focus is on no control that can act: {pg.evaluate(FOCUS)}") from None
    return pg.evaluate(FOCUS)  # type: ignore[no-any-return]


#: Whether the shared page is as it must be left: English, speed 0, full verbosity, no
#: forced colours, a game shown and at rest, no dialog, end panel or replay open.
CLEAN = """document.documentElement.lang === 'en' && !!window.firstlast && !!window.firstlast.state
  && !window.firstlast.busy && !window.firstlast.auto && !window.firstlast.replay && window.firstlast.speed === 0
  && window.firstlast.settings.verbosity === 'full' && !matchMedia('(forced-colors: active)').matches
  && !document.querySelector('dialog[open]') && document.getElementById('ending').hidden"""


@pytest.fixture(scope="module")
def shared_en(browser: Any, server: str) -> Iterator[Any]:
    pg = new_page(browser, server)
    open_table(pg, speed=0)
    yield pg
    close(pg)


@pytest.fixture
def table_en(shared_en: Any) -> Iterator[Any]:
    """The desktop table in English at speed 0: one profile and one page load for the
    tests that need nothing else (a profile and a load cost seconds of CPU; issue 25.7),
    a new game for each (``fresh_game``)."""
    def reset() -> None:
        shared_en.emulate_media(forced_colors="none")
        open_table(shared_en, speed=0)
        set_lang(shared_en, "en")

    with fresh_game(shared_en, CLEAN, reset) as pg:
        yield pg


# ---------------------------------------------------------------------------- focus
def test_the_focus_goes_to_the_next_sensible_control_never_to_body(table_en: Any) -> None:
    pg = table_en
    to_the_king(pg)
    # Enter on "reserve 2: king of hearts": played, and the focus stays on the table.
    pg.focus('.slot[data-place="R2"]')
    pg.keyboard.press("Enter")
    wait_js(pg, "window.firstlast.state.moves === 19 && !window.firstlast.busy")
    where = on_table_control(pg)
    assert where.startswith("DIV "), where  # a place on the table
    heard(pg, "king of hearts", "reserve 2", "pile 1")
    # Restart (by keyboard on its button, which is disabled after): to the table.
    pg.focus("#b-restart")
    pg.keyboard.press("Enter")
    pg.locator("#dlg-confirm[open]").wait_for()  # Restart asks first, as New does
    pg.keyboard.press("Enter")
    wait_js(pg, "window.firstlast.state.moves === 0 && !window.firstlast.busy")
    assert on_table_control(pg).startswith("DIV "), pg.evaluate(FOCUS)
    heard(pg, "Deal 1 from the start")
    # New, asked first (a game in progress) and agreed: the focus is back on a control.
    pg.keyboard.press("s")
    settle(pg)
    game = state(pg)["id"]
    pg.focus("#b-new")
    pg.keyboard.press("Enter")
    pg.locator("#dlg-confirm[open]").wait_for()
    pg.keyboard.press("Enter")
    wait_js(pg, f"window.firstlast.state.id !== '{game}' && !window.firstlast.busy")
    on_table_control(pg)
    # A dialog closed gives the focus back to its opener.
    pg.focus("#b-settings")
    pg.keyboard.press("Enter")
    pg.locator("#dlg-settings[open]").wait_for()
    pg.keyboard.press("Escape")
    wait_js(pg, "document.activeElement.id === 'b-settings'")
    # The end panel closed: a control of the finished table, never <body>.
    deal_by_number(pg, DEAL_LOST)
    pg.focus('.slot[data-place="stock"]')
    pg.keyboard.press("Enter")
    settle(pg)
    pg.click("#b-finish")
    pg.locator("#ending.show").wait_for()
    assert pg.evaluate("document.activeElement.id") == "end-again"
    pg.keyboard.press("Escape")
    wait_js(pg, "document.getElementById('ending').hidden")
    on_table_control(pg)


def test_a_card_played_by_enter_keeps_the_focus_in_russian_too(browser: Any, server: str) -> None:
    pg = new_page(browser, server, locale="ru-RU")
    open_table(pg, speed=2)  # animated: the focus is kept through the card's flight
    set_lang(pg, "ru")
    king_by_api(pg)  # the keys that get there are test_the_focus_goes...'s (in English)
    pg.focus('.slot[data-place="R2"]')
    pg.keyboard.press("Enter")
    wait_js(pg, "window.firstlast.state.moves === 19 && !window.firstlast.busy")
    assert on_table_control(pg).startswith("DIV ")
    heard(pg, "король червей", "места 2 нижнего ряда", "на кучку 1")
    close(pg)


# ---------------------------------------------------------------------------- what is said
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_hint_summary_and_review_in_words(request: pytest.FixtureRequest, browser: Any, server: str,
                                          shared_en: Any, lang: str) -> None:
    # (shared_en is asked for here so that it is made before the test, not in it)
    if lang == "en":
        pg = request.getfixturevalue("table_en")
    else:
        pg = new_page(browser, server, locale="ru-RU")
        open_table(pg, speed=0)
    set_lang(pg, lang)
    to_the_king(pg)
    words = {
        "en": {"hint": ("Hint: play the king of hearts", "from reserve 2", "onto pile 1"),
               "summary": ("pile 1, 1 of 13, needs a king", "Stock: 70 cards", "3 redeals left"),
               "pile": "bottom to top", "waste": "top down", "review": "Review"},
        "ru": {"hint": ("Подсказка: положите короля червей", "с места 2 нижнего ряда", "на кучку 1"),
               "summary": ("кучка 1, 1 из 13, ждёт карту: король", "Колода: 70 карт", "ерекладок осталось: 3"),
               "pile": "снизу вверх", "waste": "сверху вниз", "review": "Обзор"},
    }[lang]
    # The same position in Python: the page says exactly the one renderer's words
    # (i18n.table, the terminal's too; issue 18), not words of its own.
    s = state(pg)
    pos = Game(DEAL_LOST)
    for _ in range(s["moves"]):
        move = pos.position.forced_move()
        assert move is not None
        pos.push(move)
    # The hint is said in words, not only shown.
    pg.keyboard.press("h")
    assert heard(pg, *words["hint"]) == hint_text(pos.position, lang)
    assert pg.locator("#b-hint").get_attribute("aria-pressed") == "true"
    # The table summary key: the pile being built and what it needs, where that rank
    # lies in sight (R2's king), the stock and the waste, redeals left.
    pg.keyboard.press("e")
    said = heard(pg, *words["summary"])
    assert "R2" not in said and ("reserve 2" in said or "место 2 нижнего ряда" in said), said
    assert said == table_summary(pos.position, lang)
    # The review by key: the active pile's cards bottom to top; W the waste, top down.
    pg.keyboard.press("x")
    pg.locator("#dlg-review[open]").wait_for()
    assert heard(pg, words["pile"]) == review_words(pos.position, "P1", lang)[2]
    assert pg.locator("#rv-body li").all_inner_texts() == review_words(pos.position, "P1", lang)[1]
    assert len(pg.locator("#rv-body li").all_inner_texts()) == len(s["piles"][0]) == 1
    pg.keyboard.press("w")
    assert heard(pg, words["waste"]) == review_words(pos.position, "waste", lang)[2]
    items = pg.locator("#rv-body li").all_inner_texts()
    assert items == review_words(pos.position, "waste", lang)[1]
    assert len(items) == len(s["waste"]) > 10
    # Top down: the first is the waste's top card, as the table names it.
    label = pg.locator('.slot[data-place="waste"]').get_attribute("aria-label") or ""
    assert label.endswith(items[0]), (label, items[0])
    # The arrows walk the places (real tabs), each said as it is chosen.
    pg.focus("#rv-tab-P1")
    pg.keyboard.press("ArrowRight")
    wait_js(pg, "document.activeElement.id === 'rv-tab-P2'")
    assert pg.locator("#rv-tab-P2").get_attribute("aria-selected") == "true"
    assert pg.locator("#rv-body").get_attribute("aria-labelledby") == "rv-tab-P2"
    pg.keyboard.press("Escape")
    wait_js(pg, "!document.querySelector('dialog[open]')")
    # By touch: the Review button, shown to everyone, opens it on the summary.
    button = pg.locator("#b-review")
    assert button.is_visible() and button.inner_text() == words["review"]
    button.click()
    pg.locator("#dlg-review[open]").wait_for()
    assert words["summary"][0] in pg.locator("#rv-body").inner_text()
    assert pg.locator("#rv-body").inner_text() == table_summary(pos.position, lang)
    pg.locator("#rv-tab-waste").click()
    assert pg.locator("#rv-body li").first.inner_text() == items[0]
    pg.keyboard.press("Escape")
    if lang != "en":
        close(pg)


def test_dialogs_and_the_end_panel_are_heard(table_en: Any) -> None:
    pg = table_en
    deal_by_number(pg, DEAL_LOST)
    # The end panel's result is said where the player is (the table behind is inert).
    pg.click("#b-finish")
    pg.locator("#ending.show").wait_for()
    # The title, then the loss in kind words with the score (view.lostWords).
    said = heard(pg, "It did not come out.", "of the 104 cards")
    assert pg.evaluate("!!document.querySelector('#ending [data-live]')")
    assert f"{state(pg)['score']} of the 104 cards made it home" in said, said
    # The panel is described by its words, any record set and the wish's answer, and the meta line.
    described = pg.locator("#ending [role=dialog]").get_attribute("aria-describedby")
    assert described == "end-text end-records end-wish end-meta", described
    assert pg.evaluate(f"{described.split()!r}.every((id) => !!document.getElementById(id))")
    # The banner on the finished table: a titled section, its parts apart.
    pg.keyboard.press("Escape")
    wait_js(pg, "document.getElementById('ending').hidden")
    assert pg.locator("#end-banner h2").inner_text() == "It did not come out"
    assert pg.locator("#end-banner .sr-only").inner_text() == f"{state(pg)['score']} of 104 cards on the piles"
    assert pg.locator("#end-banner").get_attribute("role") != "status"
    # An import's result is heard while the statistics dialog is open.
    record = pg.request.get(f"{pg.base_url}api/games/{state(pg)['id']}/record").text()
    pg.click("#b-stats")
    pg.locator("#dlg-stats[open]").wait_for()
    pg.set_input_files("#import-file", files=[{"name": "game.txt", "mimeType": "text/plain",
                                                "buffer": record.encode()}])
    heard(pg, "mport")  # "Imported …", whatever the catalog's exact words
    pg.set_input_files("#import-file", files=[{"name": "bad.txt", "mimeType": "text/plain", "buffer": b"garbage\n"}])
    heard(pg, "not imported")
    pg.keyboard.press("Escape")


def test_undo_redo_restart_language_and_replay_are_said(table_en: Any) -> None:
    pg = table_en
    deal_by_number(pg, 7)
    pg.keyboard.press("s")
    settle(pg)
    first = heard(pg, "onto pile")
    pg.keyboard.press("u")
    heard(pg, "undone:")
    pg.keyboard.press("Control+y")
    heard(pg, "redone:")
    pg.click("#b-restart")
    pg.locator("#dlg-confirm[open]").wait_for()  # Restart asks first, as New does
    pg.keyboard.press("Enter")
    heard(pg, "Deal 7 from the start")
    pg.keyboard.press("Shift+L")
    heard(pg, "Страница на русском языке")
    pg.keyboard.press("Shift+L")
    heard(pg, "The page is in English")
    # A replay's steps are said, forwards and back.
    pg.click("#b-finish")
    pg.locator("#ending.show").wait_for()
    pg.keyboard.press("Escape")
    pg.click("#b-stats")
    pg.locator("#st-history button.replay").first.click()
    wait_js(pg, "window.firstlast.replay && !window.firstlast.busy")
    pg.click("#r-fwd")
    said = heard(pg, "Move 1 of")
    assert first.split(";")[0] in said, (first, said)
    pg.click("#r-back")
    heard(pg, "back:", "Move 0 of")
    pg.click("#r-exit")
    wait_js(pg, "!window.firstlast.replay && !window.firstlast.busy")


def test_runs_of_moves_are_summed_up_not_flooded(table_en: Any) -> None:
    pg = table_en
    deal_by_number(pg, DEAL_LOST)
    # One Advance from the start turns 18 cards: said in one short sentence (at speed 0:
    # what is said of an action does not depend on its flights).
    pg.keyboard.press("f")
    wait_js(pg, "window.firstlast.state.moves > 10 && !window.firstlast.busy", timeout=60_000)
    said = heard(pg, "cards turned")
    assert len(said) < 300, said
    # Auto at normal speed (chosen on the table): every announcement recorded with its time.
    pg.select_option("#b-speed", "2")
    wait_js(pg, "window.firstlast.speed === 2")
    pg.evaluate("""(() => { window.saidLog = []; window.saidObservers = [];
      for (const r of document.querySelectorAll('[aria-live]')) {
        const o = new MutationObserver(() => {
          if (r.textContent) window.saidLog.push([performance.now(), r.textContent]);
        });
        o.observe(r, { childList: true, characterData: true, subtree: true });
        window.saidObservers.push(o);
      } })()""")
    start = pg.evaluate("performance.now()")
    moves = state(pg)["moves"]
    pg.keyboard.press("a")
    # Auto runs until it has made moves enough to judge and been said a few times (at
    # most one announcement every STREAM_GAP, live.js: three take seconds of its run).
    wait_js(pg, f"window.firstlast.state.moves > {moves + 8} && window.saidLog.length >= 3", timeout=60_000)
    pg.keyboard.press("a")  # pause
    wait_js(pg, "!window.firstlast.auto && !window.firstlast.busy")
    assert state(pg)["moves"] > moves + 8, "Auto made too few moves to judge"
    log: list[list[Any]] = pg.evaluate("window.saidLog")
    wait_js(pg, "window.saidLog.some(([, t]) => t.startsWith('Auto paused.'))")
    log = pg.evaluate("window.saidLog")
    elapsed = (log[-1][0] - start) / 1000
    # At most about one a second, in the page's own time: the throttle's spacing, which load only widens.
    assert len(log) <= elapsed / 1.0 + 2, (len(log), elapsed, log)
    assert all(len(t) < 300 for _, t in log), log
    assert log[-1][1].startswith("Auto paused.") and "moves" in log[-1][1], log[-1]
    pg.evaluate("window.saidObservers.forEach((o) => o.disconnect())")
    pg.select_option("#b-speed", "0")  # the shared page's speed again
    wait_js(pg, "window.firstlast.speed === 0")


def choose_verbosity(pg: Any, value: str) -> None:
    """Choose ``value`` in the open settings dialog and wait until it is saved: the page
    saves in the background, so its PUT's answer is waited for (in CI the server was read
    before the PUT had landed, under load)."""
    with pg.expect_response(lambda r: r.request.method == "PUT" and r.url.endswith("/api/settings")
                            and f'"verbosity":"{value}"' in (r.request.post_data or "").replace(" ", "")) as put:
        pg.select_option("#set-verbosity", value)
    assert put.value.ok, put.value.status
    wait_js(pg, f"window.firstlast.settings.verbosity === '{value}'")


def test_verbosity_is_a_setting_brief_says_less(table_en: Any) -> None:
    pg = table_en
    deal_by_number(pg, 6)  # R4 plays first
    pg.keyboard.press("4")
    said = heard(pg, "reserve 4", "pile 1")
    assert "needs" in said  # full: what the pile needs now
    pg.keyboard.press("u")
    heard(pg, "undone:")
    pg.click("#b-settings")
    choose_verbosity(pg, "brief")
    pg.keyboard.press("Escape")
    assert pg.request.get(f"{pg.base_url}api/settings").json()["verbosity"] == "brief"
    pg.evaluate("document.getElementById('announce').textContent = ''")
    pg.keyboard.press("4")
    said = heard(pg, "reserve 4", "pile 1")
    assert "needs" not in said, said
    # Kept: a reload reads it from the settings.
    pg.reload()
    settle(pg)
    pg.click("#b-settings")
    assert pg.locator("#set-verbosity").input_value() == "brief"
    choose_verbosity(pg, "full")  # the shared page's setting again
    pg.keyboard.press("Escape")


# ---------------------------------------------------------------------------- findings
def test_help_tabs_deal_error_and_the_stale_redeal(table_en: Any) -> None:
    pg = table_en
    # Help tabs are tabs: one Tab stop, the arrows move and select.
    pg.keyboard.press("?")
    pg.locator("#help-body h1").wait_for()
    assert pg.locator("#help-tab-rules").get_attribute("tabindex") == "0"
    assert pg.locator("#help-tab-keys").get_attribute("tabindex") == "-1"
    assert pg.locator("#help-body").get_attribute("role") == "tabpanel"
    pg.focus("#help-tab-rules")
    pg.keyboard.press("ArrowRight")
    wait_js(pg, "document.activeElement.id === 'help-tab-keys'")
    assert pg.locator("#help-tab-keys").get_attribute("aria-selected") == "true"
    wait_js(pg, "!!document.querySelector('#help-body table.keys')")
    assert pg.locator("#help-body").get_attribute("aria-labelledby") == "help-tab-keys"
    assert "E" in pg.locator("#help-body").inner_text()  # the summary key is listed
    pg.keyboard.press("End")
    wait_js(pg, "document.activeElement.id === 'help-tab-book'")
    pg.keyboard.press("Home")
    wait_js(pg, "document.activeElement.id === 'help-tab-rules'")
    pg.keyboard.press("Escape")
    # The deal field's error is tied to it.
    pg.click("#b-deal")
    pg.fill("#deal-input", "12a")
    pg.click("#deal-ok")
    wait_js(pg, "document.getElementById('deal-error').textContent !== ''")
    field = pg.locator("#deal-input")
    assert field.get_attribute("aria-invalid") == "true"
    assert field.get_attribute("aria-describedby") == "deal-error"
    pg.fill("#deal-input", str(DEAL_LOST))
    pg.click("#deal-ok")
    wait_js(pg, f"window.firstlast.state.deal === '{DEAL_LOST}' && !window.firstlast.busy")
    # The end of deal 1, two undos: the stock offers no redeal that is not there.
    pg.click("#b-finish")
    pg.locator("#ending.show").wait_for()
    pg.keyboard.press("Escape")
    wait_js(pg, "document.getElementById('ending').hidden")
    pg.keyboard.press("u")
    settle(pg)
    pg.keyboard.press("u")
    settle(pg)
    s = state(pg)
    assert s["status"] == "playing" and s["stock_count"] == 0 and s["redeals_left"] == 0
    label = pg.locator('.slot[data-place="stock"]').get_attribute("aria-label") or ""
    assert "redeal the waste" not in label, label


# ---------------------------------------------------------------------------- phone
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("viewport", PHONES, ids=["portrait", "landscape"])
def test_phone_table_axe_names_and_h1(browser: Any, server: str, lang: str, viewport: dict[str, int]) -> None:
    pg = new_page(browser, server, locale="ru-RU" if lang == "ru" else "en-US", bypass_csp=True, viewport=viewport,
                  device_scale_factor=2, has_touch=True, is_mobile=True)
    pg.goto(pg.base_url + f"?speed=0&deal=6&lang={'en' if lang == 'ru' else 'ru'}")
    wait_js(pg, "window.firstlast.state && window.firstlast.state.deal === '6' && !window.firstlast.busy")
    set_lang(pg, lang)  # switched there and back: names follow
    pg.keyboard.press("s")
    settle(pg)
    axe(pg, "the phone's table")
    # Every button's name holds the words it shows (WCAG 2.5.3).
    mismatch = pg.evaluate("""[...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null)
        .map((b) => [b.id, (b.getAttribute('aria-label') || b.textContent).trim(), b.innerText.trim()])
        .filter(([, name, shown]) => shown && !name.toLowerCase().includes(shown.toLowerCase()))""")
    assert mismatch == [], mismatch
    assert pg.evaluate("document.querySelectorAll('h1').length") == 1
    assert pg.evaluate("getComputedStyle(document.querySelector('h1')).display") != "none"
    # The review opens by touch, its button a full target; nothing for axe there either.
    box = pg.locator("#b-review").bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box
    pg.locator("#b-review").tap()
    pg.locator("#dlg-review[open]").wait_for()
    pg.locator("#rv-tab-waste").tap()
    axe(pg, "the review by touch")
    close(pg)


def test_forced_colours_keep_the_active_pile_the_hint_and_the_chance(table_en: Any) -> None:
    pg = table_en
    pg.emulate_media(forced_colors="active")  # as a profile made with it (the shared page's)
    deal_by_number(pg, 6)
    assert pg.evaluate("matchMedia('(forced-colors: active)').matches")
    active = pg.evaluate("""(() => { const s = getComputedStyle(document.querySelector('.slot-P.active'));
        return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()""")
    assert active[0] == "solid" and active[1] >= 3, active
    pg.keyboard.press("h")
    wait_js(pg, "!!document.querySelector('.card.hint, .slot.hint')")
    hint = pg.evaluate("""(() => { const s = getComputedStyle(document.querySelector('.card.hint, .slot.hint'));
        return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()""")
    assert hint[0] == "dashed" and hint[1] >= 3, hint
    fill = pg.evaluate("""(() => { const s = getComputedStyle(document.querySelector('.chance .fill'));
        return [s.forcedColorAdjust, s.backgroundColor]; })()""")
    assert fill[0] == "none" and fill[1] not in ("rgba(0, 0, 0, 0)", "transparent"), fill
    pg.emulate_media(forced_colors="none")
