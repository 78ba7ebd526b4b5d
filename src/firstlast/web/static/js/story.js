// The story of a game (docs/story.md), on the end panel and beside a replay: first its
// conclusion in the server's sentences (how it ended; why it stopped and what would
// have brought it out, or the pass it came out on), then the chance to come out move by
// move as an SVG curve — every point with its 95 % band, the 50 % line, the moments that
// moved it most marked with their move (labels placed so that none overlaps another;
// one with no room left is thinned out), a won game's 50 % crossing — and below it the
// rest of the sentences (the moments, where every copy of the needed rank lay).
// Loaded from GET /api/games/{id}/story when asked for; "computing…" meanwhile; it
// never holds the table up (no queue, no await by the caller).
//
// ``storySvg`` is pure (no DOM): node tests it (tools/js/test/story.test.js).

import { ApiError, api } from "./api.js";
import { getLang, t } from "./i18n.js";

// The server's Story and its parts (api-types.d.ts: generated from play/story.py's records).
/** @typedef {import("./api-types").Point} StoryPoint */
/** @typedef {import("./api-types").Moment} StoryMoment */
/** @typedef {import("./api-types").Story} StoryData */
/** @typedef {import("./api-types").Stop} StoryStop */
/**
 * The chart's words, in the page's language.
 * @typedef {object} ChartLabels
 * @property {(n: number) => string} move "move 37"
 * @property {(n: number) => string} pass "pass 2"
 * @property {(n: number) => string} crossing "50 % at move 37"
 * @property {string} axis "moves"
 */

/** @type {ChartLabels} */
export const ENGLISH_LABELS = {
  move: (n) => `move ${n}`,
  pass: (n) => `pass ${n}`,
  crossing: (n) => `50\u00a0% at move ${n}`,
  axis: "moves",
};

/** The chart's size in its own units (it scales to the width it is given). */
export const CHART = { width: 640, height: 230, left: 58, right: 16, top: 22, bottom: 30 };

/**
 * The chart's frame for labels ``size`` units high: its margins grow with its words
 * (drawn small, as on a phone, the words are large in the chart's units so that they are
 * 12 px on the screen; "100 %" still fits beside the plot, "pass 2" above it).
 * @typedef {typeof CHART} Geometry
 * @param {number} size @returns {Geometry}
 */
export function chartGeometry(size) {
  return {
    ...CHART,
    left: Math.max(CHART.left, Math.ceil(3.5 * size + 10)),
    top: Math.max(CHART.top, Math.ceil(1.4 * size)),
    bottom: Math.max(CHART.bottom, Math.ceil(1.6 * size)),
  };
}

/** The frame a drawn chart was drawn with (its labels' size). @param {Element} svg */
export const geometryOf = (svg) => chartGeometry(Number(svg.getAttribute("data-size")) || 12);

/** @param {string} s */
export const escapeXml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** @param {number} x */
const r1 = (x) => String(Math.round(x * 10) / 10);

/**
 * The chart's scales: x from the move number, y from a probability.
 * @param {number} moves @param {Geometry} [g] the frame (chartGeometry)
 * @returns {{x: (move: number) => number, y: (p: number) => number}}
 */
export function scales(moves, g = CHART) {
  const w = g.width - g.left - g.right;
  const h = g.height - g.top - g.bottom;
  const span = Math.max(1, moves);
  return {
    x: (move) => g.left + (w * Math.max(0, Math.min(span, move))) / span,
    y: (p) => g.top + h * (1 - Math.max(0, Math.min(1, p))),
  };
}

/** The move nearest to ``x`` (chart units) on a chart of ``moves`` moves.
 * @param {number} x @param {number} moves @param {Geometry} [g] the frame (geometryOf) */
export function moveAt(x, moves, g = CHART) {
  const w = g.width - g.left - g.right;
  return Math.max(0, Math.min(moves, Math.round(((x - g.left) / w) * Math.max(1, moves))));
}

/**
 * A label's box in chart units (the page's sans-serif: about 0.6 em a character).
 * @typedef {{left: number, top: number, right: number, bottom: number}} Box
 */
/**
 * Where a label may go: its anchor point and alignment.
 * @typedef {{x: number, y: number, anchor: "start" | "middle" | "end"}} Spot
 */

/** The box a label takes, generously (the font's ascent and descent, bold digits), so
 * that boxes apart here are apart on the screen too.
 * @param {string} text @param {number} size @param {Spot} spot @returns {Box} */
export function labelBox(text, size, spot) {
  const w = text.length * size * 0.7;
  const left = spot.anchor === "start" ? spot.x : spot.anchor === "end" ? spot.x - w : spot.x - w / 2;
  return { left, right: left + w, top: spot.y - size * 0.95, bottom: spot.y + size * 0.3 };
}

/** @param {Box} a @param {Box} b */
export const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Place labels so that none overlaps another, nor an obstacle, nor leaves ``bounds``:
 * each takes the first of its spots that is free; a label with no free spot is left
 * out (``null``): thinned, never drawn over another.
 * @param {{text: string, size: number, spots: Spot[]}[]} labels
 * @param {Box} bounds @param {Box[]} [obstacles]
 * @returns {(Spot | null)[]}
 */
export function placeLabels(labels, bounds, obstacles = []) {
  const taken = [...obstacles];
  return labels.map(({ text, size, spots }) => {
    for (const spot of spots) {
      const box = labelBox(text, size, spot);
      const e = 0.5; // a rounding unit: a box that fits exactly fits
      const inside = box.left >= bounds.left - e && box.right <= bounds.right + e && box.top >= bounds.top - e &&
        box.bottom <= bounds.bottom + e;
      if (inside && !taken.some((t) => overlaps(box, t))) {
        taken.push(box);
        return spot;
      }
    }
    return null;
  });
}

/**
 * The story's chart as SVG markup: role="img", its accessible name the story's short
 * ``chart_name`` (a <title>; the sentences are shown beside it, not repeated in it).
 * @param {StoryData} story
 * @param {{labels?: ChartLabels, cursor?: number | null, id?: string, fontSize?: number}} [opts]
 *   ``cursor``: a move to mark (the replay's position); ``fontSize``: the labels' size in
 *   chart units (larger where the chart is drawn small, as on a phone)
 * @returns {string}
 */
export function storySvg(story, opts = {}) {
  const labels = opts.labels || ENGLISH_LABELS;
  const size = opts.fontSize || 12;
  const g = chartGeometry(size);
  const { width: W, height: H, left: L, right: R, top: T, bottom: B } = g;
  const pts = [...story.points].sort((a, b) => a.move - b.move);
  const moves = Math.max(story.moves, pts.length ? pts[pts.length - 1].move : 0);
  const { x, y } = scales(moves, g);
  const out = [];
  const name = escapeXml(story.chart_name || "");
  out.push(`<svg class="story-chart" viewBox="0 0 ${W} ${H}" role="img"` +
    ` data-status="${escapeXml(story.status)}" data-moves="${moves}" data-size="${size}"${opts.id ? ` id="${escapeXml(opts.id)}"` : ""}>`);
  out.push(`<title>${name}</title>`);
  /** @param {string} cls @param {Spot} s @param {string} text @param {number} [sz] */
  const label = (cls, s, text, sz = size) =>
    `<text${cls ? ` class="${cls}"` : ""} x="${r1(s.x)}" y="${r1(s.y)}" text-anchor="${s.anchor}" font-size="${sz}">${escapeXml(text)}</text>`;
  /** @type {Box[]} */
  const obstacles = [];
  // Frame and the 0 %, 50 %, 100 % lines.
  out.push(`<rect class="plot" x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}"/>`);
  for (const p of [0, 0.5, 1]) {
    out.push(`<line class="${p === 0.5 ? "half" : "grid"}" x1="${L}" x2="${W - R}" y1="${r1(y(p))}" y2="${r1(y(p))}"/>`);
    // The left margin is as wide as "100 %" (chartGeometry).
    /** @type {Spot} */
    const spot = { x: L - 6, y: y(p) + size * 0.33, anchor: "end" };
    obstacles.push(labelBox(`${p * 100}\u00a0%`, size, spot));
    out.push(label("axis", spot, `${p * 100}\u00a0%`));
  }
  const ay = H - Math.max(10, Math.round(size * 0.4));
  /** @type {Spot[]} */
  const axis = [{ x: L, y: ay, anchor: "start" }, { x: W - R, y: ay, anchor: "end" }, { x: (L + W - R) / 2, y: ay, anchor: "middle" }];
  const axisText = ["0", String(moves), labels.axis];
  axis.forEach((s, i) => {
    obstacles.push(labelBox(axisText[i], size, s));
    out.push(label("axis", s, axisText[i]));
  });
  // Where each pass begins (the first point of a new pass); a label with no room is thinned.
  const starts = pts.filter((p, i) => i > 0 && p.pass !== pts[i - 1].pass);
  // Above the plot, in its top margin (as high as the words: chartGeometry).
  const passSize = size;
  const passGap = Math.max(5, Math.ceil(size * 0.3));
  /** @param {number} px @returns {Spot[]} */
  const passAt = (px) => [{ x: px + 3, y: T - passGap, anchor: "start" }, { x: px - 3, y: T - passGap, anchor: "end" }];
  const passBounds = { left: 0, top: 0, right: W, bottom: T };
  const passSpots = placeLabels(starts.map((p) => ({ text: labels.pass(p.pass), size: passSize, spots: passAt(x(p.move)) })),
    passBounds);
  // A pass with no room for its words (a phone's larger words) is named by its number
  // where that fits, its words kept in its tooltip (<title>).
  /** @type {Box[]} */
  const passTaken = [];
  passSpots.forEach((s, i) => { if (s) passTaken.push(labelBox(labels.pass(starts[i].pass), passSize, s)); });
  const shortSpots = placeLabels(starts.map((p, i) => ({
    text: String(p.pass), size: passSize, spots: passSpots[i] ? [] : passAt(x(p.move)),
  })), passBounds, passTaken);
  starts.forEach((p, i) => {
    const px = r1(x(p.move));
    out.push(`<g class="pass-mark"><title>${escapeXml(labels.pass(p.pass))}</title>`);
    out.push(`<line class="pass" x1="${px}" x2="${px}" y1="${T}" y2="${H - B}"/>`);
    const s = passSpots[i];
    const short = shortSpots[i];
    if (s) out.push(label("pass-label", s, labels.pass(p.pass), passSize));
    else if (short) out.push(label("pass-label", short, String(p.pass), passSize));
    out.push("</g>");
  });
  if (pts.length) {
    // The 95 % band, then the curve and its points.
    const upper = pts.map((p) => `${r1(x(p.move))},${r1(y(p.high))}`);
    const lower = pts.slice().reverse().map((p) => `${r1(x(p.move))},${r1(y(p.low))}`);
    out.push(`<polygon class="band" points="${[...upper, ...lower].join(" ")}"/>`);
    out.push(`<polyline class="curve" points="${pts.map((p) => `${r1(x(p.move))},${r1(y(p.probability))}`).join(" ")}"/>`);
    for (const p of pts) out.push(`<circle class="point" cx="${r1(x(p.move))}" cy="${r1(y(p.probability))}" r="2"/>`);
  }
  // The moments (the change drawn as a bar, the move named) and a won game's 50 %
  // crossing: their markers first, then their labels, each where nothing else is.
  const moments = [...story.moments].sort((a, b) => a.move - b.move);
  const crossing = story.status === "won" && story.crossing ? story.crossing.point : null;
  /** @type {{text: string, size: number, spots: Spot[]}[]} */
  const marks = [];
  /** @param {number} mx @param {number} my @param {number} r */
  const around = (mx, my, r) => {
    const gap = r + 4;
    /** @type {Spot[]} */
    const spots = [];
    for (const dy of [-gap, gap + size * 0.95, -gap - size * 1.3, gap + size * 2.25]) {
      for (const anchor of /** @type {const} */ (["middle", "start", "end"])) {
        spots.push({ x: anchor === "middle" ? mx : anchor === "start" ? mx - 2 : mx + 2, y: my + dy, anchor });
      }
    }
    for (const dy of [size * 0.3, -size * 0.6, size * 1.2]) {
      spots.push({ x: mx + gap, y: my + dy, anchor: "start" }, { x: mx - gap, y: my + dy, anchor: "end" });
    }
    return spots;
  };
  for (const m of moments) {
    const mx = x(m.move);
    const my = y(m.after);
    obstacles.push({ left: mx - 6, right: mx + 6, top: my - 6, bottom: my + 6 });
    marks.push({ text: labels.move(m.move), size, spots: around(mx, my, 5) });
  }
  if (crossing) {
    const cx = x(crossing.move);
    const cy = y(crossing.probability);
    obstacles.push({ left: cx - 8, right: cx + 8, top: cy - 8, bottom: cy + 8 });
    marks.push({ text: labels.crossing(crossing.move), size, spots: around(cx, cy, 7) });
  }
  const spots = placeLabels(marks, { left: 0, top: T, right: W, bottom: H - B }, obstacles);
  moments.forEach((m, i) => {
    const mx = x(m.move);
    const up = m.after >= m.before;
    out.push(`<g class="moment ${up ? "up" : "down"}${m.clear ? "" : " noise"}" data-move="${m.move}">`);
    out.push(`<title>${escapeXml(labels.move(m.move))}</title>`);
    out.push(`<line x1="${r1(mx)}" x2="${r1(mx)}" y1="${r1(y(m.before))}" y2="${r1(y(m.after))}"/>`);
    out.push(`<circle cx="${r1(mx)}" cy="${r1(y(m.after))}" r="5"/>`);
    const s = spots[i];
    out.push(`${s ? label("", s, labels.move(m.move)) : ""}</g>`);
  });
  if (crossing) {
    const cx = x(crossing.move);
    const cy = y(crossing.probability);
    const s = spots[moments.length];
    out.push(`<g class="crossing" data-move="${crossing.move}"><title>${escapeXml(labels.crossing(crossing.move))}</title>` +
      `<path d="M${r1(cx)} ${r1(cy - 7)} l7 7 l-7 7 l-7 -7 Z"/>${s ? label("", s, labels.crossing(crossing.move)) : ""}</g>`);
  }
  if (opts.cursor !== undefined && opts.cursor !== null) {
    const cx = r1(x(opts.cursor));
    out.push(`<line class="cursor" x1="${cx}" x2="${cx}" y1="${T}" y2="${H - B}"/>`);
  }
  out.push("</svg>");
  return out.join("");
}

// ---------------------------------------------------------------------- on the page
/** Stories fetched, by game, moves and language (the server keeps them too). @type {Map<string, StoryData>} */
const cache = new Map();
/** The request each section shows the answer of. @type {WeakMap<HTMLElement, string>} */
const showing = new WeakMap();

/** The chart's words in the page's language. @returns {ChartLabels} */
export function pageLabels() {
  return {
    move: (n) => t("story.chart.move", { n }),
    pass: (n) => t("story.chart.pass", { n }),
    crossing: (n) => t("story.chart.crossing", { n }),
    axis: t("story.chart.axis"),
  };
}

/** The story of game ``id`` (``moves`` made: a new move is a new story), once per language.
 * @param {string} id @param {number} moves @returns {Promise<StoryData>} */
export async function loadStory(id, moves) {
  const key = `${id}:${moves}:${getLang()}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const story = await api.story(id);
  if (cache.size > 20) cache.clear();
  cache.set(key, story);
  return story;
}

/**
 * Show the story of game ``id`` in ``section``: "computing…" at once, the chart and the
 * sentences when the server has told it; hidden where this installation cannot tell it.
 * Returns at once (the story arrives later). ``ended``: shown under the end panel's
 * result, which says how it ended already (issue 26: one fact once).
 * @param {HTMLElement} section @param {string} id @param {number} moves
 * @param {{prefix?: string, cursor?: number | null, ended?: boolean, onStory?: (s: StoryData) => void}} [opts]
 */
export function showStory(section, id, moves, opts = {}) {
  const prefix = opts.prefix || section.id || "story";
  const key = `${id}:${moves}:${getLang()}`;
  showing.set(section, key);
  section.hidden = false;
  section.setAttribute("aria-busy", "true");
  section.setAttribute("aria-labelledby", `${prefix}-title`);
  section.dataset.state = "computing";
  section.replaceChildren(heading(prefix), paragraph("story-wait", t("story.computing")));
  loadStory(id, moves).then((story) => {
    if (showing.get(section) !== key) return;
    drawStory(section, story, { prefix, cursor: opts.cursor, ended: opts.ended });
    if (opts.onStory) opts.onStory(story);
  }, (err) => {
    if (showing.get(section) !== key) return;
    section.removeAttribute("aria-busy");
    if (err instanceof ApiError && err.status === 503) {
      section.hidden = true; // no odds here: no story to tell
      section.dataset.state = "none";
      return;
    }
    section.dataset.state = "error";
    section.replaceChildren(heading(prefix), paragraph("story-wait", t("story.unavailable")));
  });
}

/** The labels' size in chart units for a chart ``width`` CSS pixels wide: at least 12 px
 * on the screen however small the chart is drawn (the chart is 640 units wide).
 * @param {number} width */
export function labelSize(width) {
  return width > 0 ? Math.max(12, Math.min(48, Math.ceil((12 * CHART.width) / width))) : 12;
}

/** The labels' size for a chart drawn ``w`` × ``h`` CSS pixels: at least 12 px on the
 * screen, whichever of its width and its height (a phone's max-height) scales it.
 * @param {number} w @param {number} h */
export function fittedSize(w, h) {
  const scale = Math.min(w / CHART.width, h / CHART.height);
  return scale > 0 ? Math.max(12, Math.min(48, Math.ceil(12 / scale))) : 12;
}

/** What each drawn chart shows: redrawn when the screen changes size. @type {WeakMap<Element, {story: StoryData, cursor?: number | null}>} */
const drawn = new WeakMap();

/** Draw ``story``'s chart in ``figure`` with labels 12 px or more on the screen: drawn,
 * measured (its box does not depend on its labels: the viewBox is fixed), redrawn with
 * larger labels where it is drawn small. A hidden chart keeps the width's guess.
 * @param {HTMLElement} figure @param {StoryData} story @param {number | null | undefined} cursor @param {number} guess */
function fitChart(figure, story, cursor, guess) {
  drawn.set(figure, { story, cursor });
  const draw = (/** @type {number} */ fontSize) => {
    figure.innerHTML = storySvg(story, { labels: pageLabels(), cursor, fontSize });
  };
  draw(guess);
  const svg = figure.querySelector("svg");
  if (!svg || !figure.isConnected) return;
  // The laid-out size (not the bounding box: the end panel's scale-in transform is passing).
  const style = getComputedStyle(svg);
  const size = fittedSize(parseFloat(style.width) || 0, parseFloat(style.height) || 0);
  if (parseFloat(style.width) > 0 && size !== guess) draw(size);
}

let resizing = 0;
if (typeof window !== "undefined") {
  // A phone turned, a window resized: every chart shown fits its new size.
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = window.setTimeout(() => {
      for (const figure of document.querySelectorAll(".story-figure")) {
        const was = drawn.get(figure);
        const svg = figure.querySelector("svg");
        if (was && svg && figure instanceof HTMLElement) fitChart(figure, was.story, was.cursor, Number(svg.getAttribute("data-size")) || 12);
      }
    }, 150);
  });
}

/** Draw ``story`` in ``section``: first its plain words (how it ended, why, what would
 * have brought it out, the moments that mattered), the map of where the needed cards
 * lay, the chart; then, for the curious, a disclosure with the story in the rules' terms
 * (rule numbers, variants, intervals: the server's conclusion and details). ``ended``:
 * under the end panel's result (its title, score and words), the plain words start after
 * how it ended, which the panel has just said (one fact once).
 * @param {HTMLElement} section @param {StoryData} story
 * @param {{prefix: string, cursor?: number | null, ended?: boolean}} opts */
export function drawStory(section, story, opts) {
  const words = story.plain && story.plain.length ? story.plain : story.conclusion || story.sentences;
  const plain = opts.ended && story.plain && story.plain.length > 1 ? story.plain.slice(1) : words;
  const first = list("story-plain", `${opts.prefix}-plain`, plain);
  const figure = document.createElement("div");
  figure.className = "story-figure";
  /** @type {HTMLElement[]} */
  const parts = [heading(opts.prefix), first];
  if (story.stop && story.where) {
    const map = document.createElement("div");
    map.className = "story-map";
    const caption = paragraph("story-map-caption", story.where);
    caption.setAttribute("aria-hidden", "true"); // the map's own name says it
    map.innerHTML = mapSvg(story.stop, story.where, {
      stock: t("story.map.stock"), waste: t("story.map.waste"), first: t("story.map.first"),
      reserve: t("story.map.reserve"), piles: t("story.map.piles"),
    });
    map.prepend(caption);
    parts.push(map);
  }
  parts.push(figure);
  const more = document.createElement("details");
  more.className = "story-details";
  more.id = `${opts.prefix}-details`;
  const summary = document.createElement("summary");
  summary.textContent = t("story.plain.details");
  const conclusion = list("story-conclusion", `${opts.prefix}-conclusion`, story.conclusion || story.sentences);
  const details = list("story-text", `${opts.prefix}-text`, story.conclusion ? story.details || [] : []);
  more.append(summary, conclusion, details);
  parts.push(more);
  section.replaceChildren(...parts);
  fitChart(figure, story, opts.cursor, labelSize(section.clientWidth));
  section.removeAttribute("aria-busy");
  section.dataset.state = "ready";
}

/** The columns of the map: the eight of each row, then the stock and the waste. */
const MAP = { cw: 28, ch: 38, gap: 6, left: 6, top: 22, row: 62, font: 13 };

/** A small map of the table (SVG, pure): where each card of the rank a lost game needed
 * lay, each place that held some filled and counted, the pile that waited outlined;
 * ``name`` is its accessible name (the server's ``where``: the same in words).
 * @param {StoryStop} stop @param {string} name
 * @param {{stock: string, waste: string, first: string, reserve: string, piles: string}} words */
export function mapSvg(stop, name, words) {
  /** @type {Record<string, number>} */
  const count = {};
  for (const c of stop.copies) {
    const p = c.params;
    const place = c.code === "waste" ? "waste" : c.code === "stock" ? "stock" : String(p.pile && c.code === "pile" ? p.pile : p.place);
    count[place] = (count[place] || 0) + 1;
  }
  const { cw, ch, gap, left, top, row, font } = MAP;
  const x = (/** @type {number} */ k) => left + k * (cw + gap);
  const sideX = x(8) + gap * 2;
  const width = sideX + cw + left;
  const height = top + 2 * row + ch + 4;
  /** @type {string[]} */
  const out = [];
  const slot = (/** @type {string} */ place, /** @type {number} */ sx, /** @type {number} */ sy) => {
    const n = count[place] || 0;
    const waiting = place === stop.pile;
    out.push(`<rect class="map-slot${n ? " has" : ""}${waiting ? " waiting" : ""}" x="${sx}" y="${sy}" width="${cw}" height="${ch}" rx="4"/>`);
    if (n) out.push(`<text class="map-count" x="${sx + cw / 2}" y="${sy + ch / 2 + font * 0.36}" text-anchor="middle" font-size="${font + 2}">${n}</text>`);
  };
  const rows = /** @type {const} */ ([["F", words.first], ["P", words.piles], ["R", words.reserve]]);
  rows.forEach(([letter, label], r) => {
    const y = top + r * row;
    out.push(`<text class="map-label" x="${left}" y="${y - 6}" font-size="${font}">${escapeXml(label)}</text>`);
    for (let k = 0; k < 8; k++) slot(`${letter}${k + 1}`, x(k), y);
  });
  out.push(`<text class="map-label" x="${sideX + cw}" y="${top - 6}" font-size="${font}" text-anchor="end">${escapeXml(words.stock)}</text>`);
  slot("stock", sideX, top);
  out.push(`<text class="map-label" x="${sideX + cw}" y="${top + row - 6}" font-size="${font}" text-anchor="end">${escapeXml(words.waste)}</text>`);
  slot("waste", sideX, top + row);
  return `<svg class="story-map-svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(name)}">`
    + `<title>${escapeXml(name)}</title>${out.join("")}</svg>`;
}

/** @param {string} cls @param {string} id @param {string[]} sentences */
function list(cls, id, sentences) {
  const ul = document.createElement("ul");
  ul.className = cls;
  ul.id = id;
  for (const s of sentences) {
    const li = document.createElement("li");
    li.textContent = s;
    ul.append(li);
  }
  return ul;
}

/** Move the cursor of the chart in ``section`` to ``move`` (the replay's position).
 * @param {HTMLElement} section @param {number} move */
export function moveCursor(section, move) {
  const svg = section.querySelector("svg.story-chart");
  const line = svg && svg.querySelector("line.cursor");
  if (!svg || !line) return;
  const { x } = scales(Number(svg.getAttribute("data-moves")) || 0, geometryOf(svg));
  const was = svg.parentElement && drawn.get(svg.parentElement);
  if (was) was.cursor = move;
  const cx = r1(x(move));
  line.setAttribute("x1", cx);
  line.setAttribute("x2", cx);
}

/** @param {string} prefix */
function heading(prefix) {
  const h = document.createElement("h3");
  h.id = `${prefix}-title`;
  h.textContent = t("story.title");
  return h;
}

/** @param {string} cls @param {string} text */
function paragraph(cls, text) {
  const p = document.createElement("p");
  p.className = cls;
  p.textContent = text;
  return p;
}
