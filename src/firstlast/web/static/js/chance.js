// The "chance to come out" meter. Half a second after the position settles (not during
// autoplay) it asks the server for round 0 of the estimate; then, while the player is
// idle (no key, no pointer for a second), for rounds 1, 2, … — new, independent samples
// of the same position (docs/odds.md, "Refinement rounds") — and pools them here: wins
// and samples summed, the 95 % Wilson interval recomputed. The figure obeys the one
// display rule of every face (i18n.chance_text, docs/i18n.md): never more digits than
// the interval supports. Any action (a new state) starts over; stale answers are
// dropped; the meter is hidden where the odds module is not installed.
//
// The top of this file is pure (node tests it: tools/js/test/chance.test.js).

import { ApiError, api } from "./api.js";
import { getLang, t } from "./i18n.js";
import { $, app } from "./store.js";

// ---------------------------------------------------------------------- pure part
/** z for a two-sided 95 % interval: NormalDist().inv_cdf(0.975), as odds.interval. */
const Z95 = 1.959963984540054;
/** The widest 95 % half-width, in points, shown with a figure ("25 % (24–26 %)"). */
export const POINT_HALF_WIDTH = 1.5;
export const MAX_DECIMALS = 3;

/**
 * The Wilson score interval of ``wins`` out of ``samples`` (> 0), without continuity
 * correction: odds.interval.wilson, number for number.
 * @param {number} wins @param {number} samples @returns {{probability: number, low: number, high: number}}
 */
export function wilson(wins, samples) {
  if (!(samples > 0)) throw new RangeError("samples must be > 0");
  if (!(wins >= 0 && wins <= samples)) throw new RangeError(`wins must be 0…${samples}`);
  const n = samples;
  const p = wins / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const low = wins === 0 ? 0 : Math.max(0, centre - half);
  const high = wins === samples ? 1 : Math.min(1, centre + half);
  return { probability: p, low, high };
}

/**
 * An estimate as the page keeps it: pooled rounds of one position.
 * @typedef {object} Estimate
 * @property {number} probability
 * @property {number} low
 * @property {number} high
 * @property {number} samples 0 when the game is decided (certain)
 * @property {number} wins
 * @property {boolean} certain nothing unknown: exact
 */

/** Two independent estimates of one position pooled (ChanceEstimate.merge).
 * @param {Estimate} a @param {Estimate} b @returns {Estimate} */
export function mergeEstimates(a, b) {
  if (a.certain || b.certain) return a.certain ? a : b; // exact already: nothing to add
  const wins = a.wins + b.wins;
  const samples = a.samples + b.samples;
  return { ...wilson(wins, samples), wins, samples, certain: false };
}

/**
 * The chance figure as the samples support it, in percent: i18n.chance_parts.
 * @typedef {object} ChanceParts
 * @property {"certain" | "point" | "range"} kind
 * @property {number} decimals
 * @property {number | null} point
 * @property {number} low rounded down
 * @property {number} high rounded up
 */

/** @param {{probability: number, low: number, high: number, certain?: boolean}} est @returns {ChanceParts} */
export function chanceParts(est) {
  if (est.certain) {
    const p = est.probability >= 0.5 ? 100 : 0;
    return { kind: "certain", decimals: 0, point: p, low: p, high: p };
  }
  const half = (100 * (est.high - est.low)) / 2;
  let d = 0;
  while (d < MAX_DECIMALS && half <= POINT_HALF_WIDTH / 10 ** (d + 1)) d++;
  const scale = 10 ** d;
  // Outward (the 1e-9 keeps float noise from widening it), the figure to nearest.
  const low = Math.floor(100 * est.low * scale + 1e-9) / scale;
  const high = Math.ceil(100 * est.high * scale - 1e-9) / scale;
  const point = Math.floor(100 * est.probability * scale + 0.5) / scale;
  if (half > POINT_HALF_WIDTH || point === 0 || point === 100) return { kind: "range", decimals: d, point: null, low, high };
  return { kind: "point", decimals: d, point, low, high };
}

/** ``value`` with ``decimals`` decimals, a decimal comma in Russian (percent_number).
 * @param {number} value @param {number} decimals @param {string} lang */
export function percentNumber(value, decimals, lang) {
  const text = value.toFixed(decimals);
  return lang === "ru" ? text.replace(".", ",") : text;
}

const NBSP = "\u00a0";
/** The catalogs' chance.* templates, should a catalog lack them (same in both). */
const TEMPLATES = { certain: `{p}${NBSP}%`, point: `{p}${NBSP}% ({low}–{high}${NBSP}%)`, range: `{low}–{high}${NBSP}%` };

/**
 * The figure in words, as i18n.chance_text: "25 % (24–26 %)", "20–25 %", "100 %".
 * @param {{probability: number, low: number, high: number, certain?: boolean}} est @param {string} lang
 * @param {(key: string, args: Record<string, string>) => string} [tr] the catalog lookup (i18n.t)
 */
export function chanceText(est, lang, tr) {
  const parts = chanceParts(est);
  const num = (/** @type {number} */ x) => percentNumber(x, parts.decimals, lang);
  /** @type {Record<string, string>} */
  const args = parts.kind === "range" ? { low: num(parts.low), high: num(parts.high) }
    : parts.kind === "certain" ? { p: num(/** @type {number} */ (parts.point)) }
      : { p: num(/** @type {number} */ (parts.point)), low: num(parts.low), high: num(parts.high) };
  const key = `chance.${parts.kind}`;
  const s = tr ? tr(key, args) : key;
  if (s !== key) return s;
  return TEMPLATES[parts.kind].replace(/\{(\w+)\}/g, (_, k) => args[k]);
}

// ---------------------------------------------------------------------- the meter
/** Samples asked for in each round. */
export const SAMPLES = 5000;
/** Rounds asked for while idle, after round 0 (the server allows 0…63). */
export const MAX_ROUND = 15;
/** The player is idle after this long without a key or a pointer, ms. */
export const IDLE_MS = 1000;

/** @typedef {Estimate & {round?: number, text?: string}} ChanceAnswer */

let lastInput = 0;
let listening = false;
/** The pooled estimate on show: its position and rounds. */
let shown = /** @type {{key: string, est: Estimate, rounds: number} | null} */ (null);

/** Any key or pointer: not idle (refinement waits). */
function markInput() {
  lastInput = performance.now();
}

/** The position the meter is about: game, moves and version. */
function positionKey() {
  const s = app.state;
  return s ? `${s.id}:${s.version}:${s.moves}` : "";
}

/** One round of the estimate of game ``id``. @param {string} id @param {number} round
 * @returns {Promise<ChanceAnswer>} */
async function fetchRound(id, round) {
  const c = await api.chance(id, SAMPLES, round);
  // An older server answers no wins: count them from the probability.
  const wins = typeof c.wins === "number" ? c.wins : Math.round(c.probability * c.samples);
  return { ...c, wins, certain: c.certain === undefined ? c.samples === 0 : !!c.certain };
}

/** @param {HTMLElement} box @param {string} sel */
const part = (box, sel) => /** @type {HTMLElement} */ (box.querySelector(sel));

/** Show ``est`` on the meter. @param {Estimate} est */
function show(est) {
  const box = $("#s-chance");
  const lang = getLang();
  const text = chanceText(est, lang, t);
  box.hidden = false;
  box.classList.remove("stale");
  part(box, ".value").textContent = text;
  part(box, ".fill").style.width = `${Math.max(0, Math.min(100, est.probability * 100))}%`;
  const help = est.certain ? t("chance.help.certain", { text })
    : t("chance.help", { text, n: est.samples.toLocaleString(lang === "ru" ? "ru-RU" : "en-US") });
  box.title = help;
  box.setAttribute("aria-label", help);
  box.dataset.samples = String(est.samples);
}

/** @param {unknown} err @param {number} seq */
function failed(err, seq) {
  const box = $("#s-chance");
  if (err instanceof ApiError && [404, 405, 501, 503].includes(err.status)) {
    // No odds in this installation (or the game is gone): hide the meter quietly.
    if (err.status !== 404 || seq === app.chanceSeq) box.hidden = true;
    if (err.status !== 404) app.chanceBroken = true;
  } else if (seq === app.chanceSeq) {
    box.hidden = true;
  }
}

/** Ask for the chance of the position on the table, soon; then refine it while idle. */
export function scheduleChance() {
  clearTimeout(app.chanceTimer);
  if (!listening && typeof document.addEventListener === "function") {
    listening = true;
    for (const ev of ["keydown", "pointerdown", "wheel"]) document.addEventListener(ev, markInput, { capture: true, passive: true });
  }
  const box = $("#s-chance");
  const seq = ++app.chanceSeq;
  if (!app.showChance || app.chanceBroken || !app.state || app.replay) {
    box.hidden = true;
    return;
  }
  if (app.auto) return; // during autoplay, ask once it pauses or ends
  const id = app.state.id;
  const key = positionKey();
  if (shown && shown.key === key) {
    // The same position (a redrawn state): keep the pooled figure, go on refining.
    show(shown.est);
    app.chanceTimer = setTimeout(() => refine(seq, id, key), IDLE_MS);
    return;
  }
  box.classList.add("stale");
  if (app.chanceFor !== id) {
    // Another game: the last game's figure says nothing about this one.
    app.chanceFor = id;
    part(box, ".value").textContent = "…";
  }
  app.chanceTimer = setTimeout(async () => {
    try {
      const c = await fetchRound(id, 0);
      if (seq !== app.chanceSeq) return;
      shown = { key, est: c, rounds: 1 };
      show(c);
      if (!c.certain) app.chanceTimer = setTimeout(() => refine(seq, id, key), IDLE_MS);
    } catch (err) {
      failed(err, seq);
    }
  }, 500);
}

/** The next round, if the player is idle and the position unchanged; else wait.
 * @param {number} seq @param {string} id @param {string} key */
async function refine(seq, id, key) {
  if (seq !== app.chanceSeq || !shown || shown.key !== key || shown.est.certain || shown.rounds > MAX_ROUND) return;
  const idle = performance.now() - lastInput;
  if (idle < IDLE_MS || app.busy || app.auto || app.dragging || document.hidden) {
    app.chanceTimer = setTimeout(() => refine(seq, id, key), Math.max(200, IDLE_MS - idle));
    return;
  }
  const round = shown.rounds;
  let c;
  try {
    c = await fetchRound(id, round);
  } catch (err) {
    if (seq === app.chanceSeq) failed(err, seq);
    return;
  }
  // Any action meanwhile (a new state, a new request): this round is stale.
  if (seq !== app.chanceSeq || !shown || shown.key !== key || positionKey() !== key) return;
  shown = { key, est: mergeEstimates(shown.est, c), rounds: round + 1 };
  show(shown.est);
  if (shown.rounds <= MAX_ROUND) app.chanceTimer = setTimeout(() => refine(seq, id, key), 250);
}

/** The pooled estimate on show (for the tests and the curious). */
export function chanceShown() {
  return shown && { ...shown.est, rounds: shown.rounds };
}
