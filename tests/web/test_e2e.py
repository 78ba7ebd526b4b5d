"""End-to-end tests of the browser game: the real server (`firstlast play`) driven in
headless Chromium through Playwright.

They need Debian's Chromium headless shell (`apt-get install chromium-headless-shell`) and the
playwright Python package; without either they are skipped with the reason, or fail
under FIRSTLAST_NO_SKIP=1 (browser.py, shared with the other browser tests; fixtures in
conftest.py). Screenshots go to test-artifacts/ (gitignored). The deals used were picked
with the engine: deal 6 starts with two reserve plays (R4, then R5), deal 7 comes out
under the canonical rules and deal 1 does not. Auto plays whole games at speed 0, one
request and one drawing a move, so its games are the shortest found among deals 0–2999:
deal 1285 comes out in 172 moves (deal 7 takes 223), deal 593 is lost in 205 (deal 1: 310).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import close, deal_by_number, new_page, open_table, require_browser, settle, state, still, wait_js

from firstlast.engine import Game, Variant

require_browser()

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

DEAL_RESERVE = 6  # forced line starts R4, R5
DEAL_WON = 7
DEAL_LOST = 1
AUTO_WON = 1285  # the shortest won game among deals 0–2999 (canonical rules)
AUTO_LOST = 593  # the shortest lost one


# ---------------------------------------------------------------------------- fixtures
@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh browser profile (so a new player) on a desktop-sized window, in English."""
    pg = new_page(browser, server)
    yield pg
    close(pg)


def shot(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def card_at(pg: Any, place: str) -> Any:
    """The top card element at ``place`` (as the page's picture has it)."""
    idx = pg.evaluate(
        f"(() => {{ const l = window.firstlast.model['{place}'];"
        " return window.firstlast.els.indexOf(l[l.length - 1]); })()"
    )
    assert idx >= 0, f"no card at {place}"
    return pg.locator("#cards > .card").nth(idx)


# ---------------------------------------------------------------------------- tests
def test_turn_play_click_drag_refuse_undo_redo_reload(page: Any) -> None:
    open_table(page, speed=0)  # motion: test_no_click_is_dropped…, test_deal_dialog…
    assert page.locator("#cards > .card").count() == 104
    # A deal number the server's one parser refuses is explained in the dialog, which
    # stays open, and the game on the table stays.
    table = state(page)["id"]
    page.click("#b-deal")
    for bad in ("18446744073709551616", "1 000", "12a"):
        page.fill("#deal-input", bad)
        page.evaluate("document.getElementById('deal-error').textContent = ''")
        page.click("#deal-ok")
        wait_js(page, "document.getElementById('deal-error').textContent !== ''")
        assert "0 to 18446744073709551615" in page.locator("#deal-error").inner_text()
        assert page.locator("#dlg-deal").is_visible()
    page.click("#deal-cancel")
    settle(page)
    assert state(page)["id"] == table
    deal_by_number(page, DEAL_RESERVE)
    s = state(page)
    assert s["moves"] == 0 and s["stock_count"] == 88
    assert page.locator("#cards > .card.down").count() == 88
    shot(page, "e2e-01-deal")

    # Play by click: the forced line starts with R4.
    card_at(page, "R4").click()
    wait_js(page, "window.firstlast.state.moves === 1 && !window.firstlast.busy")
    s = state(page)
    assert len(s["piles"][0]) == 1
    assert s["hint"] == "R5"

    # Play by drag: R5 onto the active pile P1.
    src = card_at(page, "R5").bounding_box()
    dst = page.locator('.slot[data-place="P1"]').bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(src["x"] + 10, src["y"] + 10, steps=3)
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
    page.mouse.up()
    wait_js(page, "window.firstlast.state.moves === 2 && !window.firstlast.busy")
    assert len(state(page)["piles"][0]) == 2

    # An illegal move is refused with its rule, and changes nothing.
    s = state(page)
    need = s["need"]
    wrong = next(f"R{i + 1}" for i, c in enumerate(s["reserve"]) if c is not None and c["rank"] != need)
    card_at(page, wrong).click()
    toast = page.locator("#toast.show")
    toast.wait_for()
    assert "(R4)" in toast.inner_text() or "(R9)" in toast.inner_text()
    settle(page)
    assert state(page)["moves"] == 2
    shot(page, "e2e-02-refused")

    # Turn the stock when nothing fits: play the forced line until a turn is due.
    while state(page)["hint"] != "turn":
        page.keyboard.press("s")
        settle(page)
    before = state(page)
    page.click('.slot[data-place="stock"]', force=True)
    wait_js(page, f"window.firstlast.state.moves === {before['moves'] + 1} && !window.firstlast.busy")
    after = state(page)
    assert after["stock_count"] == before["stock_count"] - 1

    # Undo and redo, by button and by key.
    page.click("#b-undo")
    wait_js(page, f"window.firstlast.state.moves === {before['moves']} && !window.firstlast.busy")
    assert state(page)["stock_count"] == before["stock_count"]
    assert state(page)["can_redo"]
    page.keyboard.press("Control+y")
    wait_js(page, f"window.firstlast.state.moves === {after['moves']} && !window.firstlast.busy")
    assert state(page)["waste"] == after["waste"]

    # The picture matches the state card for card.
    _check_picture(page)

    # Reload: the same game resumes.
    game_id = state(page)["id"]
    page.reload()
    settle(page)
    s = state(page)
    assert s["id"] == game_id and s["moves"] == after["moves"]
    _check_picture(page)
    shot(page, "e2e-03-resumed")


def _check_picture(page: Any) -> None:
    s = state(page)
    pic = page.evaluate(
        "(() => { const m = window.firstlast.model; const o = {};"
        " for (const k in m) o[k] = m[k].map(e => e.cardId); return o; })()"
    )
    for k in range(8):
        assert pic[f"F{k + 1}"] == ([s["first"][k]["id"]] if s["first"][k] else [])
        assert pic[f"R{k + 1}"] == ([s["reserve"][k]["id"]] if s["reserve"][k] else [])
        assert pic[f"P{k + 1}"] == [c["id"] for c in s["piles"][k]]
    assert pic["waste"] == [c["id"] for c in s["waste"]]
    assert len(pic["stock"]) == s["stock_count"] and all(c is None for c in pic["stock"])


def test_language_switch_russian_indices(page: Any) -> None:
    open_table(page, speed=0)
    assert page.locator("#topbar h1").inner_text() == "First and Last"
    assert page.locator("#face-1h text").first.text_content() == "A"
    page.click("#b-lang")
    wait_js(page, "document.querySelector('#topbar h1').textContent === 'Первые и последние'")
    # Russian card indices: Т (ace), В, Д, К (jack, queen, king); 10 stays 10.
    assert page.locator("#face-1h text").first.text_content() == "Т"
    assert page.locator("#face-11c text").first.text_content() == "В"
    assert page.locator("#face-12d text").first.text_content() == "Д"
    assert page.locator("#face-13s text").first.text_content() == "К"
    assert page.locator("#face-10h text").first.text_content() == "10"
    assert "Кучке P1" in page.locator("#s-need").inner_text()
    shot(page, "e2e-04-russian")
    # Saved: a reload keeps Russian; the rules help and the book's text are in Russian.
    page.reload()
    settle(page)
    assert page.locator("#topbar h1").inner_text() == "Первые и последние"
    page.keyboard.press("?")
    page.locator("#help-body h2").first.wait_for()
    assert "Карты" in page.locator("#help-body").inner_text()
    page.click('#dlg-help [data-tab="book"]')
    wait_js(page, "document.querySelector('#help-body').innerText.includes('Пасьянс раскладывается')")
    shot(page, "e2e-05-book")
    page.keyboard.press("Escape")
    page.click("#b-lang")
    wait_js(page, "document.querySelector('#topbar h1').textContent === 'First and Last'")


@pytest.mark.parametrize(("deal", "title"), [(AUTO_WON, "It came out!"), (AUTO_LOST, "It did not come out")])
def test_autoplay_matches_engine(page: Any, deal: int, title: str) -> None:
    open_table(page)
    # Animation off, through the settings dialog (saved for the player).
    page.click("#b-settings")
    page.select_option("#set-speed", "0")
    page.click("#dlg-settings button[value=close]")
    assert page.evaluate("window.firstlast.speed") == 0
    deal_by_number(page, deal)
    expected = Game(deal)
    steps = expected.autoplay()
    page.click("#b-auto")
    wait_js(page, "window.firstlast.state.status !== 'playing' && !window.firstlast.busy", timeout=90_000)
    s = state(page)
    assert s["status"] == expected.position.status
    assert s["score"] == expected.position.score
    assert s["passes"] == expected.position.passes
    assert s["moves"] == len(steps)
    _check_picture(page)
    overlay = page.locator("#ending")
    overlay.wait_for(state="visible")
    page.locator("#ending.show").wait_for()
    still(page, "#ending")  # the fade-in over, for the screenshot
    assert page.locator("#end-title").inner_text() == title
    assert str(deal) in page.locator("#end-meta").inner_text()
    shot(page, f"e2e-06-ending-{deal}")
    if deal == AUTO_WON:
        _check_stats_and_replay(page, deal, len(steps))
        return
    # "Next deal" deals the following number.
    page.click("#end-next")
    wait_js(page, f"window.firstlast.state.deal === '{deal + 1}' && !window.firstlast.busy")
    assert not overlay.is_visible()


def test_phone_layout_fits(browser: Any, server: str) -> None:
    pg = new_page(browser, server, locale="ru-RU", viewport={"width": 390, "height": 844}, device_scale_factor=2,
                  has_touch=True)
    open_table(pg, speed=0)
    # Russian by default from the browser's language (the title: the brand gives its
    # room to the buttons on a phone); nothing spills off the screen.
    assert pg.title() == "Первые и последние"
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    for box in [pg.locator(f'.slot[data-place="{p}"]').bounding_box() for p in ("F1", "F8", "R8", "stock")]:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    shot(pg, "e2e-07-phone")
    close(pg)


def _check_stats_and_replay(page: Any, deal: int, moves: int) -> None:
    """The finished game counts in the statistics, and replays without changing it."""
    page.click("#end-close")
    page.click("#b-stats")
    page.locator("#st-history button.replay").first.wait_for()
    cells = page.locator(".st-cell .st-val").all_inner_texts()
    assert cells[:5] == ["1", "1", "0", "0", "100\u00a0%"]  # played, won, lost, abandoned, win rate (catalog style)
    assert page.locator("svg.hist rect.bar.win").count() == 1
    shot(page, "e2e-08-stats")
    # Export the record, import it back: a second finished game in the history.
    game_id = state(page)["id"]
    record = page.request.get(f"{page.base_url}api/games/{game_id}/record").text()
    assert f'[Deal "{deal}"]' in record
    page.set_input_files("#import-file", files=[{"name": "game.txt", "mimeType": "text/plain",
                                                  "buffer": record.encode()}])
    wait_js(page, "document.querySelectorAll('#st-history button.replay').length === 2")
    page.locator("#st-history button.replay").first.click()
    wait_js(page, "window.firstlast.replay && !window.firstlast.busy")
    assert page.locator("#replaybar").is_visible()
    assert state(page)["moves"] == 0 and state(page)["score"] == 0
    for _ in range(3):
        page.click("#r-fwd")
        settle(page)
    assert page.evaluate("window.firstlast.replay.index") == 3
    page.click("#r-back")
    settle(page)
    assert page.evaluate("window.firstlast.replay.index") == 2
    page.fill("#r-range", str(moves))
    page.dispatch_event("#r-range", "change")
    wait_js(page, f"window.firstlast.replay.index === {moves} && !window.firstlast.busy", timeout=30_000)
    assert state(page)["score"] == 104 and state(page)["status"] == "won"
    shot(page, "e2e-09-replay")
    page.click("#r-exit")
    wait_js(page, "!window.firstlast.replay && !window.firstlast.busy")
    # The replayed game itself is unchanged: still won, all its moves made.
    wait_js(page, f"window.firstlast.state.deal === '{deal}'")
    s = state(page)
    assert s["status"] == "won" and s["moves"] == moves


def test_quiet_console_russian_checks_and_reload_of_a_finished_game(browser: Any, server: str) -> None:
    """Regressions found in QA: a first visit logged a 404 (GET /api/games/current) and
    every refused move a 409 in the console; the deal dialog's native validation blocked
    " 42 " and showed an untranslated bubble instead of our message, and Enter in its
    number field pressed Cancel (the first submit button); the stock showed its
    redeal mark with no redeal left; statistics named variants in English only and opened
    on the canonical tab whatever the game on the table; a corrupt
    import's error was not in the page's language; the book's heading was the reprinting
    site's "Библиотека"; a reload after a finished game showed an older unfinished one; a
    new game showed the last game's chance until its own came."""
    pg = new_page(browser, server, locale="ru-RU")  # page errors: ``close`` checks them
    problems: list[str] = []
    # A corrupt import is refused by the server (422), which the browser logs: expected. So
    # is a chance asked for a game a new one replaced meanwhile (404: chance.js hides the
    # meter quietly, as designed; the browser logs the 404 all the same).
    def expected(url: str, status: int) -> bool:
        return url.endswith("/api/games/import") or (status == 404 and "/chance?" in url)

    pg.on("console", lambda m: problems.append(f"console: {m.text}")
          if m.type in ("error", "warning") and not m.location.get("url", "").endswith("/api/games/import")
          and "404" not in m.text else None)
    pg.on("response", lambda r: problems.append(f"HTTP {r.status} {r.url}")
          if r.status >= 400 and not expected(r.url, r.status) else None)
    move_requests: list[str] = []
    pg.on("request", lambda r: move_requests.append(r.url) if r.url.endswith("/moves") else None)
    pg.goto(server + "?speed=0")
    settle(pg)

    # The deal dialog: our translated message for text that is no number; spaces are fine.
    pg.click("#b-deal")
    pg.fill("#deal-input", "abc")
    pg.click("#deal-ok")
    wait_js(pg, "document.getElementById('deal-error').textContent !== ''")
    assert "Номер раскладки" in pg.locator("#deal-error").inner_text()
    # Checked on the page first (the server's rule), so nothing was asked of the server.
    assert not problems, problems
    problems.clear()
    pg.fill("#deal-input", " 42 ")
    pg.press("#deal-input", "Enter")  # Enter starts the deal (it used to hit Cancel)
    wait_js(pg, "window.firstlast.state.deal === '42' && !window.firstlast.busy")
    unfinished = state(pg)["id"]

    # Deal 1 without redeals (comes out at once lost).
    pg.click("#b-deal")
    pg.fill("#deal-input", str(DEAL_LOST))
    # Deal 42's chance is on show before deal 1 replaces it.
    # (Unless this installation has no odds estimate: then the meter stays hidden.)
    wait_js(pg, "window.firstlast.chanceBroken"
                         " || /%\\)?$/.test(document.querySelector('#s-chance .value').textContent)", timeout=30_000)
    pg.select_option("#v-redeals", "0")
    pg.click("#deal-ok")
    # The new game does not show the last game's chance while its own is estimated.
    wait_js(pg, f"window.firstlast.state.deal === '{DEAL_LOST}'"
                         " && (window.firstlast.chanceBroken"
                         " || document.querySelector('#s-chance .value').textContent === '…')")
    settle(pg)
    # A refused move is explained from the state, in Russian, without a request.
    s = state(pg)
    assert s["legal_moves"] == ["turn"] and s["refusals"]["R1"]["rule"] == "R4"
    card_at(pg, "R1").click()
    pg.locator("#toast.show").wait_for()
    assert "(R4)" in pg.locator("#toast").inner_text() and "не подходит" in pg.locator("#toast").inner_text()
    # A second refusal, by key: the waste is no source in these rules (R6), said in Russian.
    assert s["refusals"]["waste"]["rule"] == "R6"
    pg.keyboard.press("w")
    wait_js(pg, "document.querySelector('#toast').textContent.includes('(R6')")
    assert "сборной кучки" in pg.locator("#toast").inner_text()
    assert move_requests == []
    # Moved on elsewhere (another tab, the terminal game): the page catches up when it
    # comes back into view.
    gid = state(pg)["id"]
    assert pg.request.post(f"{server}api/games/{gid}/step").ok
    pg.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    wait_js(pg, "window.firstlast.state.moves === 1 && !window.firstlast.busy")
    _check_picture(pg)
    pg.click("#b-auto")
    wait_js(pg, "window.firstlast.state.status === 'lost' && !window.firstlast.busy", timeout=60_000)
    finished = state(pg)["id"]
    assert state(pg)["stock_count"] == 0 and "redeal" not in state(pg)["legal_moves"]
    assert not pg.locator('.slot[data-place="stock"] .redeal-mark').is_visible()
    pg.keyboard.press("Escape")

    # Statistics name the variant in Russian; a corrupt record changes nothing.
    pg.click("#b-stats")
    pg.locator("#st-history tbody tr").first.wait_for()
    # Only variants with counted games have a tab (deal 42, dealt and never played, is gone).
    assert pg.locator("#st-tabs [role=tab]").all_inner_texts() == ["перекладок 0"]
    assert pg.locator('#st-tabs [aria-selected="true"]').inner_text() == "перекладок 0"
    assert pg.locator(".st-cell .st-val").first.inner_text() == "1"
    assert pg.locator("#st-history tbody td").nth(1).inner_text() == "перекладок 0"
    rows = pg.locator("#st-history tbody tr").count()
    pg.set_input_files("#import-file", files=[{"name": "bad.txt", "mimeType": "text/plain", "buffer": b"garbage\n"}])
    # The refusal's toast is the import's last act (stats.js): nothing is loaded after it.
    wait_js(pg, "document.querySelector('#toast').textContent.startsWith('Запись не загружена')")
    assert pg.locator("#st-history tbody tr").count() == rows
    pg.keyboard.press("Escape")

    # The book's text starts at the patience's title.
    pg.keyboard.press("?")
    pg.click('#dlg-help [data-tab="book"]')
    pg.locator("#help-body .book h3").wait_for()
    assert pg.locator("#help-body .book h3").inner_text() == "Первые и последние"
    pg.keyboard.press("Escape")

    # A reload shows the finished game that was on the table, not the older unfinished one.
    pg.reload()
    settle(pg)
    assert state(pg)["id"] == finished != unfinished
    shot(pg, "e2e-10-quiet-russian")
    close(pg)
    assert not problems, problems


def test_no_click_is_dropped_and_advance_turns_until_a_card_fits(page: Any) -> None:
    """Ten quick clicks on the stock are ten turns (none dropped while cards fly); the F
    key advances: it turns until a card fits (deal 1's P1 waits 17 turns for a queen)."""
    open_table(page)
    deal_by_number(page, 1)
    stock = page.locator('.slot[data-place="stock"]')
    for _ in range(10):
        stock.click(force=True, delay=0)
    wait_js(page, "window.firstlast.state.moves === 10 && !window.firstlast.busy")
    s = state(page)
    assert s["stock_count"] == 78 and len(s["waste"]) == 10
    _check_picture(page)
    page.keyboard.press("f")
    wait_js(page, "window.firstlast.state.moves > 10 && !window.firstlast.busy")
    s = state(page)
    reference = Game(1)
    for _ in range(s["moves"]):
        reference.step()
    assert s["moves"] == len(reference)
    # It stopped where the turned card went onto P1, or where a card fits.
    assert len(s["piles"][0]) == 1 or s["legal_moves"][0] != "turn"
    _check_picture(page)


def test_the_waste_is_played_by_its_name(page: Any) -> None:
    """The move that plays the waste's top card is the place's name, "waste" (V2): the W
    key and a click on the card send it; a refused one is explained from the state,
    without a request."""
    # Deal 1 under V2: its forced line plays the waste's top card after a few turns.
    reference = Game(DEAL_LOST, Variant(waste_playable=True))
    while str(reference.position.legal_moves()[0]) != "waste":
        reference.step()
    before = len(reference)
    bodies: list[str] = []
    page.on("request", lambda r: bodies.append(r.post_data or "") if r.url.endswith("/moves") else None)
    open_table(page, speed=0)
    page.click("#b-deal")
    page.fill("#deal-input", str(DEAL_LOST))
    page.check("#v-waste")
    page.click("#deal-ok")
    wait_js(page, f"window.firstlast.state.deal === '{DEAL_LOST}' && window.firstlast.state.variant.waste_playable"
                  " && !window.firstlast.busy")
    # The waste is empty: refused at once with the engine's sentence (R6), and nothing is
    # asked of the server.
    refused = state(page)["refusals"]["waste"]
    assert refused["rule"] == "R6"
    page.keyboard.press("w")
    page.locator("#toast.show").wait_for()
    # The engine's sentence, shown on its own: it starts with a capital (issue 7).
    error = refused["error"]
    assert error[0].islower()
    assert page.locator("#toast").inner_text() == error[0].upper() + error[1:]
    settle(page)
    assert state(page)["moves"] == 0 and bodies == []
    for _ in range(before):
        page.keyboard.press("s")
    wait_js(page, f"window.firstlast.state.moves === {before} && !window.firstlast.busy")
    top = state(page)["waste"][-1]
    page.keyboard.press("w")
    wait_js(page, f"window.firstlast.state.moves === {before + 1} && !window.firstlast.busy")
    assert bodies and '"move":"waste"' in bodies[-1].replace(" ", "")
    s = state(page)
    assert not s["waste"] or s["waste"][-1]["id"] != top["id"]
    assert top["id"] in [c["id"] for pile in s["piles"] for c in pile]
    # Taken back, then played again by a click on the card.
    page.keyboard.press("u")
    wait_js(page, f"window.firstlast.state.moves === {before} && !window.firstlast.busy")
    card_at(page, "waste").click()
    wait_js(page, f"window.firstlast.state.moves === {before + 1} && !window.firstlast.busy")
    assert len(bodies) == 2 and '"move":"waste"' in bodies[-1].replace(" ", "")
    _check_picture(page)


# ------------------------------------------------------------- the reviewer's findings
def test_space_on_the_table_turns_the_stock_and_never_deals_anew(page: Any) -> None:
    """Nothing (no New button) has the focus on load: Space turns the stock, on the same
    deal; a dialog closed with nothing to give the focus back to leaves it on the table."""
    # Deal 1 (a shared link) starts with a turn to make: the stock is all it can do.
    page.goto(page.base_url + f"?speed=0&deal={DEAL_LOST}&variant=r3")
    wait_js(page, f"window.firstlast && window.firstlast.state && window.firstlast.state.deal === '{DEAL_LOST}'"
                  " && !window.firstlast.busy && document.body.classList.contains('ready')")
    s = state(page)
    assert s["moves"] == 0 and s["legal_moves"] == ["turn"]
    assert page.evaluate("document.activeElement.tagName") != "BUTTON"
    page.keyboard.press(" ")
    wait_js(page, "window.firstlast.state.moves === 1 && !window.firstlast.busy")
    after = state(page)
    assert after["id"] == s["id"] and after["deal"] == s["deal"]
    assert after["stock_count"] == s["stock_count"] - 1
    # The help opened by key and closed by Esc: the focus falls back on the stock, not New.
    page.keyboard.press("?")
    page.locator("#dlg-help").wait_for()
    page.keyboard.press("Escape")
    wait_js(page, "!document.querySelector('dialog[open]') && !!document.activeElement.closest('#board')")
    assert page.evaluate("document.activeElement.id") != "b-new"
    page.keyboard.press(" ")
    wait_js(page, "window.firstlast.state.moves === 2 && !window.firstlast.busy")
    assert state(page)["id"] == s["id"] and state(page)["stock_count"] == s["stock_count"] - 2


def test_deal_dialog_checks_the_number_first_and_closes_before_the_deal_is_animated(page: Any) -> None:
    """A bad number is said at once (no question about leaving, no variant saved, the
    game stays); a good one asks, and the dialog closes as soon as the server dealt."""
    open_table(page)
    deal_by_number(page, DEAL_RESERVE)
    page.keyboard.press("s")
    wait_js(page, "window.firstlast.state.moves === 1 && !window.firstlast.busy")
    game = state(page)["id"]
    saved = page.request.get(page.base_url + "api/settings").json()["variant"]
    page.click("#b-deal")
    page.check("#v-waste")
    for bad in ("abc", "18446744073709551616", "-1"):
        page.fill("#deal-input", bad)
        page.evaluate("document.getElementById('deal-error').textContent = ''")
        page.click("#deal-ok")
        wait_js(page, "document.getElementById('deal-error').textContent !== ''")
        assert "18446744073709551615" in page.locator("#deal-error").inner_text()
        assert not page.locator("#dlg-confirm").is_visible()
        assert page.locator("#dlg-deal").is_visible()
    assert page.request.get(page.base_url + "api/settings").json()["variant"] == saved
    assert state(page)["id"] == game and state(page)["moves"] == 1
    # A good number: asked first; Cancel keeps the game.
    page.uncheck("#v-waste")
    page.fill("#deal-input", str(DEAL_WON))
    page.click("#deal-ok")
    page.locator("#dlg-confirm").wait_for()
    page.click("#confirm-cancel")
    # Cancel answered: the question closed, the deal dialog still open, nothing queued.
    wait_js(page, "!document.getElementById('dlg-confirm').open")
    assert page.evaluate("document.getElementById('dlg-deal').open && !window.firstlast.busy")
    assert state(page)["id"] == game
    # Agreed: the dialog is gone while the new deal is still being animated (the page's
    # state noted as the dialog closes, not whenever the test looks).
    page.evaluate("""() => { const d = document.getElementById('dlg-deal'); window.busyAtClose = null;
        new MutationObserver(() => {
          if (!d.open && window.busyAtClose === null) window.busyAtClose = window.firstlast.busy;
        }).observe(d, { attributes: true, attributeFilter: ['open'] }); }""")
    page.click("#deal-ok")
    page.locator("#dlg-confirm").wait_for()
    page.click("#confirm-ok")
    wait_js(page, "window.busyAtClose !== null")
    assert page.evaluate("window.busyAtClose"), "the dialog waited for the deal's animation"
    settle(page)
    assert state(page)["deal"] == str(DEAL_WON) and state(page)["id"] != game


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_phone_toolbar_labels_fit(browser: Any, server: str, locale: str) -> None:
    """At 390 px every label under a toolbar icon is shown whole, in both languages."""
    pg = new_page(browser, server, locale=locale, viewport={"width": 390, "height": 844}, device_scale_factor=2,
                  has_touch=True)
    open_table(pg, speed=0)
    labels = pg.evaluate(
        "[...document.querySelectorAll('#topbar .tools > button > span')].filter(s => s.offsetParent !== null)"
        ".map(s => [s.textContent, s.scrollWidth, s.clientWidth])")
    assert len(labels) == 7, labels
    for text, scroll, client in labels:
        assert text and scroll <= client, f"label {text!r} cut: {scroll} > {client}"
    shot(pg, f"e2e-phone-labels-{locale}")
    close(pg)


def test_statistics_in_russian_numbers_variant_names_and_notes(browser: Any, server: str) -> None:
    """Statistics in Russian: numbers the Russian way, the variant named in Russian (its
    tooltip too), "no finished games" said once, no "Finished" column for unfinished
    games; a refusal's toast starts with a capital."""
    pg = new_page(browser, server, locale="ru-RU")
    open_table(pg, speed=0)
    none = "Законченных раскладок пока нет"
    pg.click("#b-stats")
    wait_js(pg, "document.querySelector('#dlg-stats[open]:not([aria-busy])')")  # loaded whole
    assert pg.locator("#dlg-stats").inner_text().count(none) == 1
    pg.keyboard.press("Escape")
    # A refusal said on its own starts with a capital (the waste is no source: R6).
    pg.keyboard.press("w")
    pg.locator("#toast.show").wait_for()
    text = pg.locator("#toast").inner_text()
    assert "(R6" in text and text[0].isupper(), text
    # A game abandoned: counted (played 1, won 0), and listed among the unfinished.
    pg.keyboard.press("s")
    wait_js(pg, "window.firstlast.state.moves === 1 && !window.firstlast.busy")
    first = state(pg)["id"]
    pg.keyboard.press("n")
    pg.locator("#dlg-confirm").wait_for()
    pg.click("#confirm-ok")
    wait_js(pg, f"window.firstlast.state.id !== '{first}' && !window.firstlast.busy")
    pg.click("#b-stats")
    pg.locator("#st-unfinished tbody tr").first.wait_for()
    pg.locator("#st-history p").wait_for()
    def cells() -> dict[str, str]:
        keys = pg.locator(".st-cell .st-key").all_inner_texts()
        return dict(zip(keys, pg.locator(".st-cell .st-val").all_inner_texts(), strict=True))

    # No game played to the end: no average to show.
    c = cells()
    assert c["Сыграно"] == "0" and c["Доля удач"] == "—" and c["Проходов в среднем"] == "—", c
    assert pg.locator("#dlg-stats").inner_text().count(none) == 1
    heads = pg.locator("#st-unfinished th").all_inner_texts()
    assert "Окончена" not in heads and "Последний ход" in heads
    assert pg.locator("#st-unfinished tbody tr").first.locator("td").nth(2).inner_text() == "брошена"
    tab = pg.locator('#st-tabs [aria-selected="true"]')
    english = [v["description"] for v in pg.request.get(server + "api/stats").json()["variants"]]
    assert tab.get_attribute("title") == tab.inner_text() == "Правила книги"
    assert tab.get_attribute("title") not in english
    pg.keyboard.press("Escape")
    # A lost game: the numbers written the Russian way.
    deal_by_number(pg, AUTO_LOST)
    pg.click("#b-auto")
    wait_js(pg, "window.firstlast.state.status === 'lost' && !window.firstlast.busy", timeout=60_000)
    pg.keyboard.press("Escape")
    pg.click("#b-stats")
    pg.locator("#st-history tbody tr").first.wait_for()
    wait_js(pg, "document.querySelector('.st-cell .st-val').textContent === '1'")
    c = cells()
    assert c["Доля удач"] == "0\u00a0%", c
    assert re.fullmatch(r"\d+,\d\d", c["Проходов в среднем"]), c
    assert none not in pg.locator("#dlg-stats").inner_text()
    pg.keyboard.press("Escape")
    close(pg)
