"""Looks and sound in the browser (issue 28), on one page per size, looping over the looks.

- Every felt, back, face (two or four colours, classic or large indices) and layout is
  chosen in the settings dialog (its preview follows), kept over a reload, measured
  (text contrast AA by test_contrast's measure, the cards' indices on their faces too),
  and axe-core finds nothing; the mirrored layout puts the stock on the other side, and
  the cards go with their slots.
- Sound: the page's AudioContext is wrapped by an init script that counts the sounds
  made. Off (the default) a move makes none and no AudioContext exists; the mute key (m)
  turns sounds on, said to the screen reader and saved, and then a move makes one; off
  again, none.
- The looks survive a backup round trip into a fresh player.
- A phone upright and sideways, in Russian: the paper felt, mirrored, with large indices:
  contrast, axe, the dialog's controls 44 px, the stock on the mirrored side.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser import close, new_page, require_browser, until, wait_js
from test_a11y import AXE, axe
from test_contrast import failures, measure
from test_contrast import settle as still

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

require_browser("looks tests need chromium-headless-shell and axe-core (npm ci --prefix tools/js)", AXE)

#: Counts what the page asks of Web Audio: contexts made and sounds started.
AUDIO_SPY = """
(() => {
  const Real = window.AudioContext;
  window.__audio = { contexts: 0, sounds: 0 };
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts++; }
    createOscillator() { window.__audio.sounds++; return super.createOscillator(); }
    createBufferSource() { window.__audio.sounds++; return super.createBufferSource(); }
  };
})();
"""

#: How the hint's motions play (its pulse, its arrow's flow): each play state once.
HINT_MOTION = """[...new Set(document.getAnimations()
  .filter((a) => ["pulse", "hint-flow"].includes(a.animationName)).map((a) => a.playState))]"""
#: What each of the hint's motions changes and how: the pulse only its glow's opacity
#: (the compositor's work, nothing drawn again), the arrow's flow in steps (drawn again only
#: when it moves); a pulsing box-shadow cost half a core (bench/idle_cost.py, its hint case).
HINT_FRAMES = """[...new Set(document.getAnimations()
  .filter((a) => ["pulse", "hint-flow"].includes(a.animationName))
  .map((a) => `${a.animationName}: ${[...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)
     .filter((p) => !["offset", "computedOffset", "easing", "composite"].includes(p))))]}`
     + ` ${[...new Set(a.effect.getKeyframes().map((k) => k.easing))]}`))].sort()"""
#: Every felt, every back, the four faces and both layouts, in four looks.
LOOKS = [
    {"felt": "green", "back": "lattice", "four_colour": False, "large_index": False, "layout": "standard"},
    {"felt": "blue", "back": "stripes", "four_colour": True, "large_index": False, "layout": "mirrored"},
    {"felt": "night", "back": "rosette", "four_colour": False, "large_index": True, "layout": "standard"},
    {"felt": "paper", "back": "stripes", "four_colour": True, "large_index": True, "layout": "mirrored"},
]
LOOK_KEYS = tuple(LOOKS[0])
#: A new player's looks (play.settings.Settings' defaults).
DEFAULT_LOOK = {"felt": "green", "back": "lattice", "four_colour": False, "large_index": False, "layout": "standard"}


def ready(pg: Any) -> None:
    wait_js(pg, "window.firstlast && window.firstlast.state && !window.firstlast.busy && window.firstlast.cw > 0")
    still(pg)


def saved(pg: Any) -> dict[str, Any]:
    return pg.request.get(f"{pg.base_url}api/settings").json()  # type: ignore[no-any-return]


def wait_saved(pg: Any, look: dict[str, Any]) -> None:
    """Wait until the server has ``look`` (the page saves in the background): asked by
    the page itself, in one wait (browser.until), not polled from here."""
    want = json.dumps(look)
    got = until(pg, f"""fetch('/api/settings').then((r) => r.json()).then((s) => {{
        const want = {want};
        return Object.keys(want).every((k) => s[k] === want[k]); }})""")
    assert got, (saved(pg), look)


def shown_look(pg: Any) -> dict[str, Any]:
    """What the page shows: <html>'s attributes, the cards' look, where the stock lies."""
    return pg.evaluate("""() => {
        const d = document.documentElement.dataset, s = window.firstlast.slots;
        const top = window.firstlast.model.stock.at(-1);
        return { felt: d.felt, back: d.back, face: d.face, layout: d.layout,
                 stockLeft: s.stock.offsetLeft < s.F1.offsetLeft,
                 stockRight: s.stock.offsetLeft > s.F8.offsetLeft,
                 cardAtSlot: !top || Math.abs(top.pos[0] - s.stock.offsetLeft) < 12,
                 preview: document.getElementById('look-preview').dataset.felt,
                 backs: [...document.querySelectorAll('#card-sprite symbol[id^=back-]')].length };
    }""")


def contrast(pg: Any, where: str) -> list[str]:
    records = measure(pg, where)
    for r in pg.evaluate("window.__contrast.faces()"):
        r.update(where=f"{where}/faces", bold=False)
        records.append(r)
    return failures(records)


def dialog_contrast(pg: Any, where: str) -> list[str]:
    """The open settings dialog's contrast, measured whole: in a window tall enough that
    it does not scroll (text scrolled half out of sight would be judged over the table)."""
    size = pg.viewport_size
    pg.set_viewport_size({"width": size["width"], "height": 1800})
    still(pg)
    out = contrast(pg, where)
    pg.set_viewport_size(size)
    still(pg)
    return out


def choose(pg: Any, look: dict[str, Any]) -> None:
    """Choose ``look`` in the settings dialog (open), the way a player does."""
    for key in ("felt", "back", "layout"):
        pg.select_option(f"#set-{key}", look[key])
    for key, box in (("four_colour", "#set-four"), ("large_index", "#set-large")):
        if pg.is_checked(box) != look[key]:
            pg.focus(box)
            pg.keyboard.press("Space")  # by keyboard
    wait_js(pg, f"document.getElementById('look-preview').dataset.felt === '{look['felt']}'")


def test_every_look_is_kept_accessible_and_sound_follows_the_setting(browser: Any, server: str) -> None:
    pg = new_page(browser, server, bypass_csp=True, viewport={"width": 1280, "height": 800})
    pg.add_init_script(AUDIO_SPY)
    # Deal 1 opens with turns: the move after the mute key makes the very cue the key made.
    pg.goto(server + "?speed=0&deal=1")
    wait_js(pg, "window.firstlast && window.firstlast.state && window.firstlast.state.deal === '1'")
    ready(pg)
    # Sound: off by default; a move by keyboard (a gesture) makes no sound, makes no context.
    pg.keyboard.press("s")
    ready(pg)
    assert pg.evaluate("window.__audio") == {"contexts": 0, "sounds": 0}
    assert saved(pg)["sound"] is False
    # The mute key: on, said, saved; a move now sounds.
    pg.keyboard.press("m")
    wait_js(pg, "document.getElementById('announce').textContent === 'Sound on'")
    wait_js(pg, "window.firstlast.settings.sound === true")
    before = pg.evaluate("window.__audio.sounds")
    pg.keyboard.press("s")
    ready(pg)
    wait_js(pg, f"window.__audio.sounds > {before}")
    assert pg.evaluate("window.__audio.contexts") == 1
    assert saved(pg)["sound"] is True
    # A refused move sounds too (R6: a reserve card that does not fit), by its key.
    refused = pg.evaluate("Object.keys(window.firstlast.state.refusals || {}).find((m) => /^R[1-8]$/.test(m))")
    if refused:
        before = pg.evaluate("window.__audio.sounds")
        pg.keyboard.press(refused[1])
        wait_js(pg, f"window.__audio.sounds > {before}")
        ready(pg)
    # Off again: silence.
    pg.keyboard.press("m")
    wait_js(pg, "document.getElementById('announce').textContent === 'Sound off'")
    wait_js(pg, "window.firstlast.settings.sound === false")
    quiet = pg.evaluate("window.__audio.sounds")
    for _ in range(3):
        pg.keyboard.press("s")
        ready(pg)
    assert pg.evaluate("window.__audio.sounds") == quiet

    problems: list[str] = []
    pg.keyboard.press("v")  # the settings, by keyboard
    wait_js(pg, "document.getElementById('dlg-settings').open")
    for look in LOOKS:
        choose(pg, look)
        wait_js(pg, " && ".join(f"window.firstlast.settings[{k!r}] === {json.dumps(v)}" for k, v in look.items()))
        if look is LOOKS[-1]:  # the dialog keeps its own colours: measured once, its preview on paper
            still(pg)
            axe(pg, f"settings dialog, {look}")
            problems += dialog_contrast(pg, f"{look['felt']}/dialog")
        pg.keyboard.press("Escape")
        wait_js(pg, "!document.getElementById('dlg-settings').open")
        wait_saved(pg, look)
        pg.reload()
        ready(pg)
        assert {k: v for k, v in saved(pg).items() if k in LOOK_KEYS} == look
        seen = shown_look(pg)
        face = f"{'four' if look['four_colour'] else 'two'}-{'large' if look['large_index'] else 'classic'}"
        assert (seen["felt"], seen["back"], seen["face"], seen["layout"]) == (
            look["felt"], look["back"], face, look["layout"]), seen
        # The wide table has the stock right of the rows; mirrored, left of them.
        assert seen["stockLeft"] if look["layout"] == "mirrored" else seen["stockRight"], seen
        assert seen["cardAtSlot"] and seen["backs"] == 2, seen
        pg.keyboard.press("h")  # the hint's words and arrow over this felt too
        wait_js(pg, "window.firstlast.hintOn")
        assert pg.evaluate(HINT_MOTION) == ["running"], look  # the pulse and the arrow's flow
        assert pg.evaluate(HINT_FRAMES) == ["hint-flow: strokeDashoffset steps(5)", "pulse: opacity ease-in-out"]
        still(pg)
        axe(pg, f"table, {look}")
        problems += contrast(pg, f"{look['felt']}/table")
        # The dialog shows the kept choices (and the next look is chosen in it). Under it
        # the hint holds still: each frame of its pulse had the blurred backdrop drawn again.
        pg.keyboard.press("v")
        wait_js(pg, "document.getElementById('dlg-settings').open")
        assert pg.evaluate(HINT_MOTION) == ["paused"], look
        assert [pg.locator(f"#set-{k}").input_value() for k in ("felt", "back", "layout")] == [
            look["felt"], look["back"], look["layout"]]
        assert (pg.is_checked("#set-four"), pg.is_checked("#set-large")) == (look["four_colour"], look["large_index"])
    pg.keyboard.press("Escape")
    wait_js(pg, "!document.getElementById('dlg-settings').open")
    # The end of a game on the light felt (its banner over the paper).
    pg.evaluate("document.getElementById('b-finish').click()")
    wait_js(pg, "window.firstlast.state.status !== 'playing' && !window.firstlast.busy", 60_000)
    still(pg)
    if pg.locator("#ending").is_visible():
        pg.keyboard.press("Escape")
        wait_js(pg, "document.getElementById('ending').hidden")
    still(pg)
    problems += contrast(pg, "paper/ended")
    assert not problems, "\n".join(problems)

    # A backup carries the looks to a fresh player (its settings at their defaults).
    text = pg.request.get(f"{server}api/backup").text()
    assert {k: v for k, v in json.loads(text)["settings"].items() if k in LOOK_KEYS} == LOOKS[-1]
    close(pg)
    fresh = new_page(browser, server)
    # A fresh player's looks are the defaults (asked of the server: the page is loaded once,
    # restored).
    assert {k: v for k, v in saved(fresh).items() if k in LOOK_KEYS} == DEFAULT_LOOK
    r = fresh.request.post(f"{server}api/backup", data=json.dumps({"backup": text}),
                           headers={"content-type": "application/json"})
    assert r.ok, r.text()
    fresh.goto(server + "?speed=0")
    ready(fresh)
    assert {k: v for k, v in saved(fresh).items() if k in LOOK_KEYS} == LOOKS[-1]
    assert shown_look(fresh)["felt"] == "paper"
    close(fresh)


@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["upright", "sideways"])
def test_phone_looks_in_russian(browser: Any, server: str, size: tuple[int, int]) -> None:
    pg = new_page(browser, server, bypass_csp=True, locale="ru-RU", viewport={"width": size[0], "height": size[1]},
                  device_scale_factor=2, has_touch=True, is_mobile=True)
    # The looks saved first (the PUT makes the player), then the page loaded once with them.
    r = pg.request.put(f"{server}api/settings", data=json.dumps(
        {"lang": "ru", "felt": "paper", "large_index": True, "layout": "mirrored", "back": "rosette"}),
        headers={"content-type": "application/json"})
    assert r.ok, r.text()
    pg.goto(server + "?speed=0")
    ready(pg)
    seen = shown_look(pg)
    assert (seen["felt"], seen["layout"], seen["face"]) == ("paper", "mirrored", "two-large")
    # Mirrored: the stock on the left of the first column (upright: beside the rows; sideways: the same).
    assert seen["stockLeft"], seen
    assert seen["cardAtSlot"], seen
    problems = contrast(pg, f"phone {size}/table")
    axe(pg, f"phone {size}, paper, mirrored")
    # The phone's menu, light on paper.
    pg.click("#b-more")
    wait_js(pg, "document.getElementById('topbar').classList.contains('menu-open')")
    still(pg)
    problems += contrast(pg, f"phone {size}/menu")
    pg.click("#b-more")
    wait_js(pg, "!document.getElementById('topbar').classList.contains('menu-open')")
    pg.evaluate("document.getElementById('b-settings').click()")
    wait_js(pg, "document.getElementById('dlg-settings').open")
    still(pg)
    assert pg.locator("#set-felt option[value=paper]").inner_text() == "Бумага (светлый)"
    assert pg.locator("fieldset.looks legend").inner_text() == "Оформление"
    small = pg.evaluate("""() => [...document.querySelectorAll(
        '#dlg-settings :is(select, input, button)')].filter((el) => el.checkVisibility())
        .map((el) => [el.id || el.localName, el.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44).map(([id]) => id)""")
    assert small == [], small
    axe(pg, f"phone {size}, settings")
    problems += dialog_contrast(pg, f"phone {size}/settings")
    assert not problems, "\n".join(problems)
    close(pg)
