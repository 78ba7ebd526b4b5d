"""A newcomer's first minute and every move after (issue 26, items 1–2), in headless
Chromium.

- A player who has never seen the game follows the first-visit tour, then plays a deal to
  its end by what the table shows alone: a marked card when there is one, else the
  stock, and now and then the hint (its words on screen and its arrow, from the card to
  where it goes); never the help. On the desktop (clicks) and on an upright phone
  (taps), in English and in Russian; the tour is axe-clean, its buttons in view and ≥ 44 px on phones
  (upright and sideways), it is never shown again once seen, and the help shows it again.
- The marks on the playable cards follow the play layer's legal moves; they go when the
  setting is off, and stay visible under forced colours.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from browser import close, new_page, require_browser, state, still, until, wait_js
from test_a11y import AXE, axe
from test_e2e_layout import MEASURE

from firstlast.engine import Game, Variant

require_browser("the guide's tests need chromium-headless-shell and axe-core (npm ci --prefix tools/js)", AXE)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

#: Deal 70 without redeals (V1 r0): a whole game in 127 moves, 43 of them cards played
#: from the rows (the privileged card among them), so that the test stays short.
DEAL, VARIANT = 70, "r0"

#: The documentation's pictures of the tour and the hint (README, docs/page.md): rewritten
#: only with FIRSTLAST_UPDATE_SCREENSHOTS=1, as test_e2e_story's.
DOC_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SIDEWAYS = {**PHONE, "viewport": {"width": 844, "height": 390}}

# The table as the player sees it: the places of the cards that show the mark now (a
# ring drawn around them, ::after), and where each of them and the stock's top lie
# (centres, window px); with the state's moves, status, legal moves and hint.
SEEN = r"""() => {
  const a = window.firstlast;
  const centre = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const marked = {};
  for (const el of a.els) {
    const after = getComputedStyle(el, '::after');
    if (after.content !== 'none' && parseFloat(after.borderTopWidth) > 0 && after.borderTopStyle !== 'none'
        && el.getBoundingClientRect().width > 0) marked[el.place] = centre(el);
  }
  const s = a.state;
  return { moves: s.moves, status: s.status, legal: s.legal_moves, hint: s.hint, marked,
           stock: centre(a.slots.stock), busy: a.busy };
}"""

# The tour as shown: its step, its card's box, its buttons' boxes, the rings' boxes.
TOUR = r"""() => {
  const dlg = document.querySelector('#dlg-tour');
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    open: dlg.open, step: dlg.dataset.step, focus: document.activeElement.id,
    card: box(document.querySelector('#tour-card')),
    buttons: [...dlg.querySelectorAll('.tour-card button')].filter((b) => !b.hidden).map(box),
    rings: [...dlg.querySelectorAll('.rings rect')].map((r) => box(r)),
    view: [innerWidth, innerHeight],
  };
}"""


# The hint arrow's start, and the centre of the card it starts from (board px).
ARROW_START = r"""() => {
  const d = document.querySelector('svg.hint-arrow .line').getAttribute('d');
  const [x, y] = d.slice(1).split(' ')[0].split(',').map(Number);
  const el = document.querySelector('#cards .card.hint') || document.querySelector('#board .slot.hint');
  const b = document.querySelector('#board').getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return [x, y, r.left + r.width / 2 - b.left, r.top + r.height / 2 - b.top];
}"""


def press(pg: Any, phone: bool, sel: str | None = None, at: list[float] | None = None) -> None:
    """Tap (a phone) or click at the middle of ``sel``, or ``at`` (window px), where the
    player sees it (a stock card lying over the stock's place takes the press, as a
    finger's would)."""
    if at is None:
        box = pg.locator(sel).bounding_box()
        at = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
    if phone:
        pg.touchscreen.tap(*at)
    else:
        pg.mouse.click(*at)


def forced_line() -> list[str]:
    """The deal's moves as the engine plays them (what the page must lead a player to)."""
    g = Game(DEAL, Variant.from_token(VARIANT))
    g.autoplay()
    return [str(m.source) if m.kind == "play" else m.kind for m in g.moves]


def sizes(pg: Any, where: str) -> None:
    """On a phone: every target shown ≥ 44 × 44 px, every text ≥ 12 px (test_e2e_layout's measure)."""
    m = pg.evaluate(MEASURE)
    small = [t for t in m["targets"] if t["w"] < 44 - 0.01 or t["h"] < 44 - 0.01]
    assert not small, f"{where}: targets under 44 × 44 px: {small}"
    tiny = [t for t in m["texts"] if t["px"] < 12 - 0.01]
    assert not tiny, f"{where}: text under 12 px: {tiny}"


def assert_tour_fits(pg: Any, where: str) -> None:
    """Each step of the open tour: its card and buttons wholly in the window (buttons
    ≥ 44 px where the window is a phone's), a ring around each part it points at."""
    t = pg.evaluate(TOUR)
    w, h = t["view"]
    left, top, right, bottom = t["card"]
    assert left >= 0 and top >= 0 and right <= w + 0.5 and bottom <= h + 0.5, f"{where}: card out of view {t}"
    for b in t["buttons"]:
        assert b[0] >= 0 and b[1] >= 0 and b[2] <= w + 0.5 and b[3] <= h + 0.5, f"{where}: a button out of view {t}"
        if w <= 900 and h <= 900:
            assert b[2] - b[0] >= 44 - 0.01 and b[3] - b[1] >= 44 - 0.01, f"{where}: a button under 44 px {t}"
    assert t["rings"], f"{where}: the step points at nothing {t}"


def doc_shot(pg: Any, name: str) -> None:
    """Save the documentation's picture ``name`` (with FIRSTLAST_UPDATE_SCREENSHOTS=1)."""
    if os.environ.get("FIRSTLAST_UPDATE_SCREENSHOTS") == "1":
        still(pg)  # the step's card at rest
        pg.screenshot(path=str(DOC_SHOTS / name))
    assert (DOC_SHOTS / name).is_file(), f"docs/screenshots/{name}: run with FIRSTLAST_UPDATE_SCREENSHOTS=1"


def follow_tour(pg: Any, where: str, *, check_axe: bool = False, shot: str | None = None) -> list[str]:
    """Go through the open tour with its Next button; the steps seen (``shot``: the
    documentation's picture of its second step)."""
    wait_js(pg, "document.querySelector('#dlg-tour').open")
    steps = []
    while pg.evaluate("document.querySelector('#dlg-tour').open"):
        t = pg.evaluate(TOUR)
        assert t["focus"] in ("tour-next", "tour-back"), f"{where}: the focus is not in the tour: {t}"
        steps.append(t["step"])
        assert_tour_fits(pg, f"{where}, step {t['step']}")
        if shot and len(steps) == 2:
            doc_shot(pg, shot)
        if check_axe and len(steps) in (1, 2):
            axe(pg, f"{where}: tour step {t['step']}")
            if t["view"][0] <= 900 and t["view"][1] <= 900:
                sizes(pg, f"{where}: tour step {t['step']}")
        n = len(steps)
        pg.click("#tour-next")
        wait_js(pg, "!document.querySelector('#dlg-tour').open"
                    f" || document.querySelector('#tour-count').textContent.startsWith('{n + 1}')")
        assert len(steps) < 10
    return steps


#: The documentation's pictures come from two of the four (README, docs/page.md).
DOC_CONFIGS = ("desktop-en", "phone-ru")


@pytest.mark.parametrize("config", ["desktop-en", "desktop-ru", "phone-en", "phone-ru"])
def test_newcomer_follows_the_tour_then_plays_a_deal_by_the_marks_and_the_hint(
        browser: Any, server: str, config: str) -> None:
    phone = config.startswith("phone")
    lang = config[-2:]
    pg = new_page(browser, server, locale="ru-RU" if lang == "ru" else "en-US", bypass_csp=True,
                  **(PHONE if phone else {}))
    # A link a friend sent; ?tour: a browser driven by a script meets the tour too.
    pg.goto(pg.base_url + f"?speed=0&tour=1&deal={DEAL}&variant={VARIANT}")
    documented = config in DOC_CONFIGS
    steps = follow_tour(pg, config, check_axe=True, shot=f"tour-{config}.png" if documented else None)
    assert steps[0] == "first" and {"pile", "reserve", "stock", "privileged", "hint"} <= set(steps), steps
    wait_js(pg, "window.firstlast.settings.tour_seen && !document.querySelector('dialog[open]')")
    assert state(pg)["deal"] == str(DEAL) and state(pg)["moves"] == 0

    line = forced_line()
    played = 0
    pictured = False  # the documentation's hint: the first one that plays a marked card
    seen = pg.evaluate(SEEN)
    while seen["status"] == "playing":
        move = line[seen["moves"]]
        marked = seen["marked"]
        # The marks are the play layer's legal moves (the state's), never the page's guess.
        assert sorted(marked) == sorted(m for m in seen["legal"] if m not in ("turn", "redeal")), seen
        picture = not pictured and move in marked
        if seen["moves"] % 30 == 5 or picture:
            # Not sure? The hint: its words on screen, an arrow from its card to where it goes.
            press(pg, phone, "#b-hint")
            wait_js(pg, "!document.querySelector('#hint-words').hidden"
                        " && document.querySelector('svg.hint-arrow.show')")
            words = pg.inner_text("#hint-words")
            assert words.startswith("Hint:" if lang == "en" else "Подсказка:"), words
            assert seen["hint"] == move
            start = pg.evaluate(ARROW_START)
            assert abs(start[0] - start[2]) < 2 and abs(start[1] - start[3]) < 2, (move, start)
            if picture:
                pictured = True
                if documented:
                    doc_shot(pg, f"hint-{config}.png")
                axe(pg, f"{config}: the hint shown")
                if phone:
                    sizes(pg, f"{config}: the hint shown")
        if marked:
            # Several marked cards: the one the forced line plays (they are alike: R11).
            assert move in marked, (move, marked)
            press(pg, phone, at=marked[move])
            played += 1
        else:
            assert move == "turn", (move, seen)
            press(pg, phone, at=seen["stock"])
        # The table after the move, read once it has answered (waited for in the page: a
        # poll of SEEN from Python cost more CPU than the whole game, issue 25.7).
        n = seen["moves"] + 1
        seen = until(pg, f"window.firstlast.state.moves >= {n} && !window.firstlast.busy && ({SEEN})()")
        assert seen and seen["moves"] >= n and not seen["busy"], (n, move, seen)
    assert state(pg)["moves"] == len(line) and played == sum(1 for m in line if m != "turn") and pictured
    # Its end, on screen: the end panel.
    pg.locator("#ending.show").wait_for()
    # Never the help.
    assert not pg.evaluate("document.querySelector('#dlg-help').open")
    close(pg)


def test_marks_follow_the_setting_and_forced_colours_and_the_tour_comes_back_from_help(
        browser: Any, server: str) -> None:
    """Desktop, in Russian: the tour on a first visit, not on the next (the settings
    remember it), again from the help; the marks stay under forced colours and go when
    the setting is off (saved: a reload keeps them off)."""
    pg = new_page(browser, server, locale="ru-RU")
    pg.goto(pg.base_url + "?speed=0&tour=1&deal=6&variant=r3")  # deal 6: the forced line starts R4
    wait_js(pg, "document.querySelector('#dlg-tour').open && window.firstlast.state")
    assert pg.inner_text("#tour-title") == "Верхний ряд"
    pg.keyboard.press("Escape")  # skipped: seen
    wait_js(pg, "window.firstlast.settings.tour_seen && !document.querySelector('dialog[open]')")
    # The page keeps it at once and saves it meanwhile: the server has it soon after.
    wait_js(pg, "fetch('/api/settings').then((r) => r.json()).then((s) => s.tour_seen === true)")
    pg.goto(pg.base_url + "?speed=0&tour=1")
    wait_js(pg, "window.firstlast.state && document.body.classList.contains('ready')")
    assert not pg.evaluate("document.querySelector('#dlg-tour').open"), "the tour came back by itself"
    # Asked for from the help: shown again, the focus back on the help's opener after it.
    pg.click("#b-rules")
    pg.click("#help-tour")
    wait_js(pg, "document.querySelector('#dlg-tour').open && document.activeElement.id === 'tour-next'")
    pg.click("#tour-skip")
    wait_js(pg, "!document.querySelector('dialog[open]') && document.activeElement.id === 'b-rules'")

    # The marks: the state's legal plays, ringed; under forced colours too, in the system's colour.
    legal = sorted(m for m in state(pg)["legal_moves"] if m not in ("turn", "redeal"))
    assert legal and sorted(pg.evaluate(SEEN)["marked"]) == legal
    pg.emulate_media(forced_colors="active")
    assert sorted(pg.evaluate(SEEN)["marked"]) == legal
    ring = pg.evaluate("""() => { const el = document.querySelector('#cards .card.source');
        const a = getComputedStyle(el, '::after'); return [a.borderTopColor, a.forcedColorAdjust]; }""")
    assert ring[1] == "none" and ring[0] not in ("rgba(0, 0, 0, 0)", "transparent"), ring
    pg.emulate_media(forced_colors="none")
    # Off in the settings: no mark; the card still plays by a click; saved with the player.
    pg.click("#b-settings")
    pg.uncheck("#set-playable")
    pg.keyboard.press("Escape")
    assert pg.evaluate(SEEN)["marked"] == {}
    wait_js(pg, "fetch('/api/settings').then((r) => r.json()).then((s) => s.show_playable === false)")
    pg.reload()
    wait_js(pg, "window.firstlast.state && document.body.classList.contains('ready')")
    assert pg.evaluate(SEEN)["marked"] == {}
    assert pg.evaluate("document.querySelectorAll('#cards .card.source').length") > 0  # still playable
    close(pg)


def test_the_tour_fits_a_sideways_phone(browser: Any, server: str) -> None:
    """844 × 390, English: every step's card and buttons in view, ≥ 44 px, axe-clean."""
    pg = new_page(browser, server, bypass_csp=True, **SIDEWAYS)
    pg.goto(pg.base_url + "?speed=0&tour=1")
    steps = follow_tour(pg, "sideways", check_axe=True)
    assert steps[0] == "first" and steps[-1] == "hint"
    close(pg)
