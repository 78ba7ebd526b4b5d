// The story of a game (docs/story.md), on the end panel and beside a replay: the chance
// to come out move by move as an SVG curve — every point with its 95 % band, the 50 %
// line, the moments that moved it most marked with their move, a won game's 50 %
// crossing — and below it the server's sentences (why it stopped: which pile, which
// rank it needed, where every copy of that rank lay; or where a won game crossed 50 %).
// Loaded from GET /api/games/{id}/story when asked for; "computing…" meanwhile; it
// never holds the table up (no queue, no await by the caller).
//
// ``storySvg`` is pure (no DOM): node tests it (tools/js/test/story.test.js).

import { ApiError, api } from "./api.js";
import { getLang, t } from "./i18n.js";

/**
 * The chance after ``move`` moves (0: the deal).
 * @typedef {object} StoryPoint
 * @property {number} move
 * @property {number} pass
 * @property {number} probability
 * @property {number} low
 * @property {number} high
 * @property {boolean} [certain]
 */
/**
 * One of the largest changes, and the move that ended it.
 * @typedef {object} StoryMoment
 * @property {number} move
 * @property {number} first_move
 * @property {number} span
 * @property {number} pass
 * @property {number} before
 * @property {number} after
 * @property {boolean} clear
 */
/**
 * What the page draws of a story (the server's Story, docs/story.md).
 * @typedef {object} StoryData
 * @property {string} deal
 * @property {"playing" | "won" | "lost"} status
 * @property {number} moves
 * @property {StoryPoint[]} points
 * @property {StoryMoment[]} moments
 * @property {{point: StoryPoint, previous: StoryPoint | null} | null} crossing
 * @property {string[]} sentences
 */
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

/** @param {string} s */
export const escapeXml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** @param {number} x */
const r1 = (x) => String(Math.round(x * 10) / 10);

/**
 * The chart's scales: x from the move number, y from a probability.
 * @param {number} moves @returns {{x: (move: number) => number, y: (p: number) => number}}
 */
export function scales(moves) {
  const w = CHART.width - CHART.left - CHART.right;
  const h = CHART.height - CHART.top - CHART.bottom;
  const span = Math.max(1, moves);
  return {
    x: (move) => CHART.left + (w * Math.max(0, Math.min(span, move))) / span,
    y: (p) => CHART.top + h * (1 - Math.max(0, Math.min(1, p))),
  };
}

/** The move nearest to ``x`` (chart units) on a chart of ``moves`` moves.
 * @param {number} x @param {number} moves */
export function moveAt(x, moves) {
  const w = CHART.width - CHART.left - CHART.right;
  return Math.max(0, Math.min(moves, Math.round(((x - CHART.left) / w) * Math.max(1, moves))));
}

/**
 * The story's chart as SVG markup: role="img", its text alternative the story's
 * sentences (a <title>, or ``labelledBy``, the id of the element that shows them).
 * @param {StoryData} story
 * @param {{labels?: ChartLabels, labelledBy?: string, cursor?: number | null, id?: string}} [opts]
 *   ``cursor``: a move to mark (the replay's position)
 * @returns {string}
 */
export function storySvg(story, opts = {}) {
  const labels = opts.labels || ENGLISH_LABELS;
  const { width: W, height: H, left: L, right: R, top: T, bottom: B } = CHART;
  const pts = [...story.points].sort((a, b) => a.move - b.move);
  const moves = Math.max(story.moves, pts.length ? pts[pts.length - 1].move : 0);
  const { x, y } = scales(moves);
  const out = [];
  const alt = escapeXml(story.sentences.join(" "));
  const aria = opts.labelledBy ? ` aria-labelledby="${escapeXml(opts.labelledBy)}"` : "";
  out.push(`<svg class="story-chart" viewBox="0 0 ${W} ${H}" role="img"${aria}` +
    ` data-status="${escapeXml(story.status)}" data-moves="${moves}"${opts.id ? ` id="${escapeXml(opts.id)}"` : ""}>`);
  out.push(`<title>${alt}</title>`);
  // Frame and the 0 %, 50 %, 100 % lines.
  out.push(`<rect class="plot" x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}"/>`);
  for (const p of [0, 0.5, 1]) {
    out.push(`<line class="${p === 0.5 ? "half" : "grid"}" x1="${L}" x2="${W - R}" y1="${r1(y(p))}" y2="${r1(y(p))}"/>`);
    out.push(`<text class="axis" x="${L - 6}" y="${r1(y(p) + 4)}" text-anchor="end">${p * 100}\u00a0%</text>`);
  }
  out.push(`<text class="axis" x="${L}" y="${H - 10}" text-anchor="start">0</text>`);
  out.push(`<text class="axis" x="${W - R}" y="${H - 10}" text-anchor="end">${moves}</text>`);
  out.push(`<text class="axis" x="${r1((L + W - R) / 2)}" y="${H - 10}" text-anchor="middle">${escapeXml(labels.axis)}</text>`);
  // Where each pass begins (the first point of a new pass).
  for (let i = 1; i < pts.length; i++) {
    if (pts[i].pass === pts[i - 1].pass) continue;
    const px = r1(x(pts[i].move));
    out.push(`<line class="pass" x1="${px}" x2="${px}" y1="${T}" y2="${H - B}"/>`);
    out.push(`<text class="pass-label" x="${r1(x(pts[i].move) + 3)}" y="${T - 6}">${escapeXml(labels.pass(pts[i].pass))}</text>`);
  }
  if (pts.length) {
    // The 95 % band, then the curve and its points.
    const upper = pts.map((p) => `${r1(x(p.move))},${r1(y(p.high))}`);
    const lower = pts.slice().reverse().map((p) => `${r1(x(p.move))},${r1(y(p.low))}`);
    out.push(`<polygon class="band" points="${[...upper, ...lower].join(" ")}"/>`);
    out.push(`<polyline class="curve" points="${pts.map((p) => `${r1(x(p.move))},${r1(y(p.probability))}`).join(" ")}"/>`);
    for (const p of pts) out.push(`<circle class="point" cx="${r1(x(p.move))}" cy="${r1(y(p.probability))}" r="2"/>`);
  }
  // The moments: the change drawn as a bar, the move named (a label close to the last
  // one goes to the other side of its marker, so that the two do not overlap).
  /** @type {{x: number, below: boolean} | null} */
  let last = null;
  for (const m of [...story.moments].sort((a, b) => a.move - b.move)) {
    const mx = x(m.move);
    const y0 = y(m.before);
    const y1 = y(m.after);
    const up = m.after >= m.before;
    out.push(`<g class="moment ${up ? "up" : "down"}${m.clear ? "" : " noise"}" data-move="${m.move}">`);
    out.push(`<line x1="${r1(mx)}" x2="${r1(mx)}" y1="${r1(y0)}" y2="${r1(y1)}"/>`);
    out.push(`<circle cx="${r1(mx)}" cy="${r1(y1)}" r="5"/>`);
    // The label beside the marker, inside the plot whichever end it is near.
    let below = y1 < T + 16;
    if (last && Math.abs(mx - last.x) < 80 && last.below === below) below = !below;
    if (below && y1 + 16 > H - B) below = false;
    last = { x: mx, below };
    const ly = below ? y1 + 18 : y1 - 9;
    const anchor = mx > W - R - 60 ? "end" : mx < L + 60 ? "start" : "middle";
    out.push(`<text x="${r1(mx)}" y="${r1(ly)}" text-anchor="${anchor}">${escapeXml(labels.move(m.move))}</text></g>`);
  }
  // A won game: where it first reached 50 %.
  if (story.status === "won" && story.crossing) {
    const c = story.crossing.point;
    const cx = x(c.move);
    const cy = y(c.probability);
    const anchor = cx > W - R - 90 ? "end" : cx < L + 90 ? "start" : "middle";
    out.push(`<g class="crossing" data-move="${c.move}">` +
      `<path d="M${r1(cx)} ${r1(cy - 7)} l7 7 l-7 7 l-7 -7 Z"/>` +
      `<text x="${r1(cx)}" y="${r1(cy + 22 > H - B ? cy - 12 : cy + 22)}" text-anchor="${anchor}">${escapeXml(labels.crossing(c.move))}</text></g>`);
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
 * Returns at once (the story arrives later).
 * @param {HTMLElement} section @param {string} id @param {number} moves
 * @param {{prefix?: string, cursor?: number | null, onStory?: (s: StoryData) => void}} [opts]
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
    drawStory(section, story, { prefix, cursor: opts.cursor });
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

/** Draw ``story`` in ``section`` (the chart, then the sentences).
 * @param {HTMLElement} section @param {StoryData} story @param {{prefix: string, cursor?: number | null}} opts */
export function drawStory(section, story, opts) {
  const textId = `${opts.prefix}-text`;
  const figure = document.createElement("div");
  figure.className = "story-figure";
  figure.innerHTML = storySvg(story, { labels: pageLabels(), labelledBy: textId, cursor: opts.cursor });
  const list = document.createElement("ul");
  list.className = "story-text";
  list.id = textId;
  // The list scrolls when long: focusable so that a keyboard can scroll it, named by the heading.
  list.tabIndex = 0;
  list.setAttribute("aria-labelledby", `${opts.prefix}-title`);
  for (const s of story.sentences) {
    const li = document.createElement("li");
    li.textContent = s;
    list.append(li);
  }
  section.replaceChildren(heading(opts.prefix), figure, list);
  section.removeAttribute("aria-busy");
  section.dataset.state = "ready";
}

/** Move the cursor of the chart in ``section`` to ``move`` (the replay's position).
 * @param {HTMLElement} section @param {number} move */
export function moveCursor(section, move) {
  const svg = section.querySelector("svg.story-chart");
  const line = svg && svg.querySelector("line.cursor");
  if (!svg || !line) return;
  const { x } = scales(Number(svg.getAttribute("data-moves")) || 0);
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
