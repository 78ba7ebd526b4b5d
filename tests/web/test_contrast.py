"""Text contrast on the table, measured in Chromium (issue 11).

axe-core cannot judge the contrast of text over the table's gradient felt, so it is
measured here. For every visible element with text of its own (text nodes, the slots'
labels drawn by ``::after``, the shown option of a ``select``), on a fresh table, in a
game, with the phone's menu open and once the game is over (the banner), at 1280 × 800
and on a 390 × 844 phone, in both languages:

- the text colour is its computed ``color``, its alpha times the ``opacity`` of the
  element and of every ancestor;
- what lies behind it is every painted ``background-color`` and ``background-image``
  (linear, radial, conic and repeating gradients) of the element and its ancestors,
  composited from the canvas up (each ancestor's opacity applied to its group). An
  ancestor whose box does not hold the text (a counter drawn below its slot) adds no
  background; one that holds part of it counts both with and without. A gradient counts
  with EVERY colour stop: the worst combination of stops decides;
- large text (≥ 24 px, or ≥ 18.66 px bold) needs 3:1, other text 4.5:1 (WCAG 1.4.3 AA).
  Text of a disabled control is exempt (WCAG: "part of an inactive user interface
  component").

The cards' indices are SVG ``<text>`` in the sprite of faces: their ``fill`` (with its
opacities) against the face's own colour, 4.5:1 whatever their size.

All failures are reported at once: where (selector), the text, the colours and the ratio.
``test_the_measure_finds_low_contrast`` shows that the measure fails what it should.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser import close, new_page, require_browser, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

require_browser("contrast tests need Debian's chromium-headless-shell")

DEAL = 6
DEAL_FRESH = 1  # the fresh table's deal: a fixed one, so that every run measures the same texts
VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "has_touch": True,
        "is_mobile": True,
    },
}

# The measure, in the page. ``measure(root)`` returns one record per piece of text under
# ``root``; ``faces()`` one per index of the cards' faces.
MEASURE_JS = r"""
(() => {
  const RGBA = /rgba?\(([^)]*)\)/g;
  /** "rgb(1, 2, 3)" / "rgba(1, 2, 3, 0.5)" / "transparent" / "none" -> [r, g, b, a] */
  function color(text) {
    if (!text || text === "none" || text === "transparent") return [0, 0, 0, 0];
    const m = /rgba?\(([^)]*)\)/.exec(text);
    if (!m) throw new Error("colour not understood: " + text);
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  /** The top-level layers of a background-image, top first. */
  function splitLayers(text) {
    const out = [];
    let depth = 0, start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === "," && depth === 0) { out.push(text.slice(start, i).trim()); start = i + 1; }
    }
    out.push(text.slice(start).trim());
    return out.filter((s) => s && s !== "none");
  }
  /** Every colour a gradient can show: its stops. */
  function stops(layer) {
    if (!/gradient\(/.test(layer)) return null; // url(): cannot be judged
    const found = layer.match(RGBA) || [];
    const colours = found.map(color);
    if (/\btransparent\b/.test(layer)) colours.push([0, 0, 0, 0]);
    return colours;
  }
  // Premultiplied colours: [r, g, b, a] with r, g, b already times a (0…255, 0…1).
  const pre = ([r, g, b, a]) => [r * a, g * a, b * a, a];
  const over = (top, below) => [0, 1, 2, 3].map((i) => top[i] + below[i] * (1 - top[3]));
  const scale = (c, k) => c.map((v) => v * k);
  const straight = (c) => (c[3] > 0 ? [c[0] / c[3], c[1] / c[3], c[2] / c[3]] : [0, 0, 0]);
  function luminance(rgb) {
    const [r, g, b] = rgb.map((v) => {
      const s = Math.min(255, Math.max(0, v)) / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  function ratio(a, b) {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  }
  const byte = (v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, "0");
  const hex = (rgb) => "#" + rgb.map(byte).join("");

  function selector(el) {
    const parts = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      let s = n.localName + (n.id ? "#" + n.id : "");
      const cls = [...n.classList].slice(0, 3);
      if (cls.length) s += "." + cls.join(".");
      else if (!n.id && n.parentElement) s += `:nth-child(${[...n.parentElement.children].indexOf(n) + 1})`;
      parts.unshift(s);
      if (n.id) break;
    }
    return parts.join(" > ");
  }
  const contains = (outer, inner) =>
    outer.left <= inner.left + 1 && outer.top <= inner.top + 1
    && outer.right >= inner.right - 1 && outer.bottom >= inner.bottom - 1;
  const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  function union(rects) {
    const r = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (const x of rects) {
      r.left = Math.min(r.left, x.left); r.top = Math.min(r.top, x.top);
      r.right = Math.max(r.right, x.right); r.bottom = Math.max(r.bottom, x.bottom);
    }
    return r;
  }

  /** The background layers one box paints, top first: each a list of possible colours. */
  function paints(style) {
    const layers = [];
    for (const layer of splitLayers(style.backgroundImage)) {
      const colours = stops(layer);
      if (!colours) return { layers, unknown: layer };
      layers.push(colours);
    }
    const bg = color(style.backgroundColor);
    if (bg[3] > 0) layers.push([bg]);
    return { layers, unknown: null };
  }

  /**
   * The worst contrast of text ``fg`` (straight rgba) painted by ``el`` (``ownStyle``: its
   * style, or its pseudo-element's) over what lies behind ``rect``.
   */
  function worst(el, pseudoStyle, fg, rect) {
    // The chain of boxes, the text's own first; each with its background layers and opacity.
    const chain = [];
    const push = (style, where, who) => {
      const { layers, unknown } = paints(style);
      if (unknown && where !== "none") throw { unknown, where: who };
      chain.push({ layers: where === "none" ? [] : layers, part: where === "part", opacity: Number(style.opacity) });
    };
    try {
      if (pseudoStyle) push(pseudoStyle, "all", "pseudo-element");
      for (let n = el, first = !pseudoStyle; n; n = n.parentElement, first = false) {
        const r = n.getBoundingClientRect();
        const root = n === document.documentElement || n === document.body;
        push(getComputedStyle(n), first || root || contains(r, rect) ? "all" : overlaps(r, rect) ? "part" : "none",
             selector(n));
      }
    } catch (e) {
      if (e && e.unknown) return e;
      throw e;
    }
    // From the text down: pairs of (text pixel, background pixel), premultiplied.
    let pairs = [[pre(fg), [0, 0, 0, 0]]];
    const seen = (list) => {
      const out = new Map();
      for (const p of list) out.set(p.flat().map((v) => v.toFixed(2)).join(","), p);
      return [...out.values()];
    };
    for (const box of chain) {
      for (const colours of box.layers) {
        const options = box.part ? [...colours, [0, 0, 0, 0]] : colours;
        const next = [];
        for (const [t, b] of pairs) for (const c of options) next.push([over(t, pre(c)), over(b, pre(c))]);
        pairs = seen(next);
      }
      if (box.opacity < 1) pairs = pairs.map(([t, b]) => [scale(t, box.opacity), scale(b, box.opacity)]);
    }
    const canvas = [255, 255, 255, 1];
    let result = null;
    for (const [t, b] of pairs) {
      const tt = straight(over(t, canvas)), bb = straight(over(b, canvas));
      const k = ratio(tt, bb);
      if (!result || k < result.ratio) result = { ratio: k, shown: hex(tt), background: hex(bb), combos: pairs.length };
    }
    return result;
  }

  function cumulativeOpacity(el) {
    let k = 1;
    for (let n = el; n; n = n.parentElement) k *= Number(getComputedStyle(n).opacity);
    return k;
  }
  const INACTIVE = "button:disabled, select:disabled, input:disabled, fieldset:disabled, [aria-disabled='true']";
  const inactive = (el) => !!el.closest(INACTIVE);
  const visibleRect = (r) =>
    r.width > 1 && r.height > 1 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
  function shown(el) {
    const how = { opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true };
    if (!el.checkVisibility(how)) return false;
    if (cumulativeOpacity(el) === 0) return false;
    for (let n = el; n; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.clip !== "auto" && s.position === "absolute") return false; // .sr-only
    }
    return true;
  }
  function needs(style) {
    const px = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const large = px >= 24 || (bold && px >= 18.66);
    return { px, bold, large, need: large ? 3 : 4.5 };
  }
  function record(el, style, text, rect, pseudo) {
    const fg = color(style.color);
    const w = worst(el, pseudo ? style : null, fg, rect);
    const alpha = fg[3] * cumulativeOpacity(el) * (pseudo ? Number(style.opacity) : 1);
    return { selector: selector(el) + pseudo, text: text.trim().slice(0, 40), color: style.color,
             alpha: +alpha.toFixed(3), ...needs(style), ...w };
  }

  function measure(root = document.body) {
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.currentNode; el; el = walker.nextNode()) {
      if (!(el instanceof HTMLElement)) continue;
      if (el.closest("svg")) continue;
      if (!shown(el) || inactive(el)) continue;
      const style = getComputedStyle(el);
      // Its own text nodes.
      if (el.localName === "select") {
        const opt = el.selectedOptions[0];
        const r = el.getBoundingClientRect();
        if (opt && opt.text.trim() && visibleRect(r)) out.push(record(el, style, opt.text, r, ""));
      } else if (el.localName !== "option" && el.localName !== "script" && el.localName !== "style") {
        const rects = [];
        let text = "";
        for (const child of el.childNodes) {
          if (child.nodeType !== Node.TEXT_NODE || !child.data.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(child);
          rects.push(...[...range.getClientRects()].filter(visibleRect));
          text += child.data;
        }
        if (rects.length) out.push(record(el, style, text, union(rects), ""));
      }
      // Its pseudo-elements' text (the slots' labels).
      for (const pseudo of ["::before", "::after"]) {
        const ps = getComputedStyle(el, pseudo);
        if (ps.display === "none" || ps.visibility !== "visible" || Number(ps.opacity) === 0) continue;
        const content = ps.content;
        let text = "";
        const attr = /^attr\(([\w-]+)\)$/.exec(content);
        if (attr) text = el.getAttribute(attr[1]) || "";
        else if (/^".*"$/.test(content)) text = JSON.parse(content);
        if (!text.trim()) continue;
        const r = el.getBoundingClientRect();
        if (visibleRect(r)) out.push(record(el, ps, text, r, pseudo));
      }
    }
    return out;
  }

  /** The cards' indices: every SVG <text> of every face in the sprite, on the face. */
  function faces() {
    const out = [];
    for (const sym of document.querySelectorAll("#card-sprite symbol[id^='face-']")) {
      const face = color(getComputedStyle(sym.querySelector("rect")).fill);
      for (const text of sym.querySelectorAll("text")) {
        const s = getComputedStyle(text);
        let alpha = color(s.fill)[3] * Number(s.fillOpacity);
        for (let n = text; n && n !== sym; n = n.parentElement) alpha *= Number(getComputedStyle(n).opacity);
        const fg = color(s.fill);
        const t = straight(over(pre([fg[0], fg[1], fg[2], alpha]), pre(face)));
        const k = ratio(t, face.slice(0, 3));
        out.push({ selector: `#${sym.id} text`, text: text.textContent, color: s.fill, alpha, need: 4.5,
                   large: false, px: Number(text.getAttribute("font-size")), ratio: k, shown: hex(t),
                   background: hex(face.slice(0, 3)) });
      }
    }
    return out;
  }
  window.__contrast = { measure, faces, ratio };
})();
"""


def settle(pg: Any) -> None:
    wait_js(pg, "window.firstlast && window.firstlast.state && !window.firstlast.busy")
    # Transitions and finite animations (fades, the banner sliding in) over: colours as seen.
    wait_js(
        pg,
        "document.getAnimations().every((a) => a.playState !== 'running'"
        " || a.effect.getComputedTiming().endTime === Infinity)",
    )


def open_page(browser: Any, server: str, size: str, deal: int | None = None) -> Any:
    """A new player's table at ``size``: the page's own first deal, or ``deal`` by its link."""
    pg = new_page(browser, server, **VIEWPORTS[size])
    pg.goto(server + "?speed=0" + (f"&deal={deal}&variant=r3" if deal is not None else ""))
    settle(pg)
    if deal is not None:
        wait_js(pg, f"window.firstlast.state.deal === '{deal}'")
    return pg


def menu(pg: Any, open_it: bool) -> None:
    """The phone's menu (the less used buttons); a no-op where the bar holds them all."""
    if not pg.locator("#b-more").is_visible():
        return
    is_open = pg.evaluate("document.getElementById('topbar').classList.contains('menu-open')")
    if is_open != open_it:
        pg.click("#b-more")
        wait_js(pg, f"document.getElementById('topbar').classList.contains('menu-open') === {str(open_it).lower()}")


def tool(pg: Any, sel: str) -> None:
    """Click a toolbar button, from the phone's menu where it is there."""
    if not pg.locator(sel).is_visible():
        menu(pg, True)
    pg.click(sel)


def set_lang(pg: Any, lang: str) -> None:
    """Switch with the language button (on a phone, from its menu)."""
    if pg.evaluate("document.documentElement.lang") == lang:
        return
    tool(pg, "#b-lang")
    wait_js(pg, f"document.documentElement.lang === '{lang}' && !window.firstlast.busy")
    menu(pg, False)
    settle(pg)


def measure(pg: Any, where: str) -> list[dict[str, Any]]:
    if not pg.evaluate("!!window.__contrast"):
        pg.evaluate(MEASURE_JS)
    records: list[dict[str, Any]] = pg.evaluate("window.__contrast.measure()")
    for r in records:
        r["where"] = where
    return records


def failures(records: list[dict[str, Any]]) -> list[str]:
    out = []
    for r in records:
        if "unknown" in r:
            out.append(f"{r['where']}: {r['selector']} {r['text']!r}: background image not judged: {r['unknown']}")
        elif r["ratio"] < r["need"]:
            out.append(
                f"{r['where']}: {r['selector']} {r['text']!r}: {r['color']} (alpha {r['alpha']}) "
                f"= {r['shown']} on {r['background']}: "
                f"{r['ratio']:.2f}:1 < {r['need']}:1 ({r['px']:.1f}px{' bold' if r['bold'] else ''})"
            )
    return out


def describe(r: dict[str, Any]) -> str:
    return f"{r['ratio']:.2f} {r['selector']} {r['text']!r}"


# ---------------------------------------------------------------------------- the table
@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_text_on_the_table_has_aa_contrast(browser: Any, server: str, size: str) -> None:
    """One page (one player) per size; each state of it is measured in both languages,
    switched between by the language button (as a player does): the fresh table, the game
    under way and the game over are each reached once, not once per language."""
    records: list[dict[str, Any]] = []
    faces: list[dict[str, Any]] = []
    pg = open_page(browser, server, size, DEAL_FRESH)
    for lang in ("en", "ru"):
        set_lang(pg, lang)
        records += measure(pg, f"{size}/{lang}/fresh")
    # A game under way: an active pile, counters, the hint pressed, the chance shown
    # (and, as while it is being worked out, dimmed).
    tool(pg, "#b-deal")
    pg.fill("#deal-input", str(DEAL))
    pg.click("#deal-ok")
    wait_js(
        pg,
        f"window.firstlast.state.deal === '{DEAL}' && !window.firstlast.busy"
        " && !document.querySelector('dialog[open]')",
    )
    menu(pg, False)
    for _ in range(3):
        pg.keyboard.press("s")
        settle(pg)
    pg.click("#b-hint")
    settle(pg)
    for lang in ("ru", "en"):
        set_lang(pg, lang)
        wait_js(pg, "window.firstlast.hintOn")  # still pressed in the other language
        records += measure(pg, f"{size}/{lang}/mid-game")
        stale = pg.evaluate("""() => {
            const box = document.getElementById('s-chance');
            if (box.hidden) return false;
            const had = box.classList.contains('stale');
            box.classList.add('stale');
            return { had };
        }""")
        if stale:
            records += measure(pg, f"{size}/{lang}/mid-game, chance dimmed")
            if not stale["had"]:
                pg.evaluate("document.getElementById('s-chance').classList.remove('stale')")
        if pg.locator("#b-more").is_visible():
            menu(pg, True)
            records += measure(pg, f"{size}/{lang}/menu open")
            menu(pg, False)
        where = f"{size}/{lang}/card faces"
        faces += [{**f, "where": where, "bold": True} for f in pg.evaluate("window.__contrast.faces()")]
    # The game over: the end panel closed, the banner on the table.
    tool(pg, "#b-finish")
    pg.locator("#ending.show").wait_for()
    pg.click("#end-close")
    pg.locator("#end-banner").wait_for()
    settle(pg)
    for lang in ("en", "ru"):
        set_lang(pg, lang)
        pg.locator("#end-banner").wait_for()
        records += measure(pg, f"{size}/{lang}/game over")
    close(pg)
    texts = {r["text"] for r in records}
    # The measure saw what it is for (else it would pass by measuring nothing).
    # Upright on a phone the rows' names stand where the reserve's keys do (issue 26).
    keys = ("First row", "Reserve", "Верхний ряд", "Нижний ряд") if size == "phone" else ("1",)
    # Slot labels, a reserve key or the rows' names, and a counter: the stock's on a fresh
    # table (104 cards less the 16 dealt).
    for what in ("F1", "R4", "88", *keys):
        assert what in texts, f"{what!r} not measured: {sorted(texts)}"
    selectors = " ".join(r["selector"] for r in records)
    for part in ("::after", ".pill", ".row-name" if size == "phone" else ".key", ".chip", "#end-banner", "#b-hint"):
        assert part in selectors, f"nothing measured in {part}"
    assert len(faces) >= 2 * 52 * 2, len(faces)  # two indices on each of 52 faces, two languages
    bad = failures(records) + failures(faces)
    assert not bad, f"{len(bad)} texts below WCAG AA contrast:\n" + "\n".join(bad)


# ---------------------------------------------------------------------------- the measure itself
def test_the_measure_finds_low_contrast(browser: Any, server: str) -> None:
    """Known colours give known ratios; a gradient's worst stop decides; opacity counts."""
    pg = open_page(browser, server, "desktop")
    pg.evaluate(MEASURE_JS)
    got = pg.evaluate("""() => {
        const box = document.createElement('div');
        const add = (css, text) => {
            const el = document.createElement('div');
            for (const [k, v] of Object.entries(css)) el.style.setProperty(k, v);
            el.textContent = text;
            box.append(el);
            return el;
        };
        for (const [k, v] of Object.entries({ position: 'fixed', left: '0', top: '0', 'z-index': '99999',
                                              background: '#ffffff', color: '#000000', 'font-size': '16px',
                                              'padding-bottom': '60px' }))
            box.style.setProperty(k, v);
        document.body.append(box);
        add({ color: '#777777' }, 'grey on white');                       // 4.48:1: fails
        add({ color: '#767676' }, 'darker grey on white');                // 4.54:1: passes
        add({ color: '#777777', 'font-size': '24px' }, 'large grey');    // needs 3:1: passes
        add({ color: '#000000', opacity: '0.3' }, 'faded black');         // black at 30 %: fails
        // Cream text on a gradient of dark green and a pale stop: the pale stop decides.
        add({ color: '#f3efe2', 'background-image': 'linear-gradient(#0f4d2c, #0f4d2c 90%, #c9e8d0)' },
            'cream on a gradient');
        // A parent's semi-transparent black over the white: dark enough for cream.
        const p = add({ background: 'rgba(0, 0, 0, 0.8)' }, '');
        const c = document.createElement('span');
        c.textContent = 'cream on 80 % black';
        c.style.setProperty('color', '#f3efe2');
        p.append(c);
        // Drawn below its dark parent (as the reserve keys under their slots): on the white.
        const q = add({ background: '#000000', position: 'relative', height: '20px' }, '');
        const d = document.createElement('span');
        d.textContent = 'cream below its box';
        for (const [k, v] of Object.entries({ color: '#f3efe2', position: 'absolute', top: '30px', left: '0' }))
            d.style.setProperty(k, v);
        q.append(d);
        const out = window.__contrast.measure(box);
        box.remove();
        return out;
    }""")
    by = {r["text"]: r for r in got}
    assert by["grey on white"]["ratio"] == pytest.approx(4.48, abs=0.01)
    assert by["darker grey on white"]["ratio"] == pytest.approx(4.54, abs=0.01)
    assert by["faded black"]["ratio"] == pytest.approx(2.11, abs=0.01)  # #000 at 30 % over #fff: #b3b3b3
    assert by["cream on a gradient"]["background"] == "#c9e8d0"
    assert by["cream on 80 % black"]["background"] == "#333333"
    assert by["cream below its box"]["background"] == "#ffffff"
    assert by["large grey"]["need"] == 3 and by["grey on white"]["need"] == 4.5
    bad = {r["text"] for r in got if r["ratio"] < r["need"]}
    assert bad == {"grey on white", "faded black", "cream on a gradient", "cream below its box"}, [
        describe(r) for r in got
    ]
    # A card face whose index is pale grey on the face fails; the real faces do not.
    faces = pg.evaluate("""() => {
        const sprite = document.querySelector('#card-sprite defs');
        const NS = 'http://www.w3.org/2000/svg';
        const sym = document.createElementNS(NS, 'symbol');
        sym.id = 'face-test';
        sym.innerHTML = '<rect width="200" height="280" fill="#fffdf7"/><g fill="#1b1b22"><text fill="#aaaaaa">Z</text>'
            + '<text fill-opacity="0.3">Y</text><text>X</text></g>';
        sprite.append(sym);
        const out = window.__contrast.faces();
        sym.remove();
        return out;
    }""")
    test = {f["text"]: f["ratio"] for f in faces if f["selector"] == "#face-test text"}
    assert test["Z"] < 2.5 and test["Y"] < 2 and test["X"] > 15, test
    assert all(f["ratio"] >= 4.5 for f in faces if f["selector"] != "#face-test text")
    close(pg)
