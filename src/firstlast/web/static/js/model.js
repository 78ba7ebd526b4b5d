// The board model: the table's places and the pure rules of the picture (where each
// card lies, how stacks show their thickness, how big the cards can be). No DOM here,
// so tools/js/test checks it under node.

import { PACES, PLACE_KINDS, REDEAL, ROWS, SOURCES, STOCK, TURN, WASTE } from "./vocabulary.js";

/** @typedef {import("./api-types").Card} Card */
/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").Movement} Movement */
/** @typedef {import("./api-types").StepFacts} StepFacts */
/** A face-down stock card: only its back (deck) is known. @typedef {{anon: true, deck: 1 | 2}} StockCard */
/** What lies at each place, bottom to top. @typedef {Record<string, (Card | StockCard)[]>} Picture */

/** Every place (the generated vocabulary's), in reading order: slots are created in
 * this order, so Tab walks the table row by row. */
export const PLACES = /** @type {string[]} */ ([...ROWS.first, ...ROWS.pile, ...ROWS.reserve, STOCK, WASTE]);

/** Places where cards lie on one another (the rest hold one card). */
export const STACKS = new Set([STOCK, WASTE, ...ROWS.pile]);

/** A place's kind: stock, waste, first, reserve or pile. @param {string} place */
const kindOf = (place) => /** @type {Record<string, string>} */ (PLACE_KINDS)[place];

/** The pace of play for a speed setting (0 = off … 3 = fast): the play layer's PACES
 * (generated vocabulary), the terminal's too; an unknown speed plays at normal pace.
 * @param {number} speed */
export function paceOf(speed) {
  return PACES[speed] ?? PACES[2];
}

/** Flight time of one card in ms, by speed setting (0 = off … 3 = fast). @param {number} speed */
export function flightMs(speed) {
  return paceOf(speed).flight_ms;
}

/** @typedef {{at: number, movements: Movement[]}} Beat */

/** When each card of ``movements`` (a Result's, in order) leaves, so that moves follow
 * one another at ``gapMs`` and a card may leave before the last one landed: one beat a
 * move, a redeal's gathering of the waste (its cards onto the stock, R10) one beat, its
 * cards a little staggered. ``start`` is the first beat's time. Pure (tested under node).
 * @param {Movement[]} movements @param {number} gapMs @param {number} [start]
 * @returns {Beat[]} */
export function flowBeats(movements, gapMs, start = 0) {
  /** @type {Beat[]} */
  const beats = [];
  let at = start;
  for (let i = 0; i < movements.length;) {
    const mv = movements[i];
    let j = i + 1;
    if (mv.from === WASTE && mv.to === STOCK) while (j < movements.length && movements[j].from === WASTE && movements[j].to === STOCK) j++;
    beats.push({ at, movements: movements.slice(i, j) });
    at += gapMs * (j - i > 1 ? 3 : 1); // the gathered waste takes a little longer to follow
    i = j;
  }
  return beats;
}

/** The gap between moves (ms) for Finish's cascade of ``beats`` moves: the pace's own
 * gap, shortened so that the whole cascade takes at most ``budgetMs``.
 * @param {number} speed @param {number} beats @param {number} budgetMs */
export function cascadeGap(speed, beats, budgetMs) {
  const rate = paceOf(speed).moves_per_s;
  const own = rate ? 1000 / rate : 0;
  return Math.max(0, Math.min(own, budgetMs / Math.max(1, beats)));
}

/** Where the cards of ``state`` lie: known cards as sent; stock cards anonymous.
 * @param {GameState} state
 * @returns {Picture} */
export function stateModel(state) {
  /** @type {Picture} */
  const m = {};
  ROWS.first.forEach((place, k) => { const c = state.first[k]; m[place] = c ? [c] : []; });
  ROWS.reserve.forEach((place, k) => { const c = state.reserve[k]; m[place] = c ? [c] : []; });
  ROWS.pile.forEach((place, k) => { m[place] = state.piles[k].slice(); });
  m.waste = state.waste.slice();
  // Bottom to top: stock_decks lists the next card first, i.e. the top first.
  m.stock = state.stock_decks.slice().reverse().map((deck) => ({ anon: /** @type {const} */ (true), deck }));
  return m;
}

/** Whether the ``i``-th of ``n`` cards at ``place`` is the one a play there would take:
 * the top card of a source (the vocabulary's SOURCES, R6).
 * @param {string} place @param {number} i index from the bottom @param {number} n cards there */
export function isSource(place, i, n) {
  return SOURCES.includes(place) && i === n - 1;
}

/** Whether the state says the card at ``place`` can be played now (its move is legal):
 * only such a card looks movable (grab cursor, hover ring) and can be dragged.
 * @param {GameState | null} state @param {string} place @param {boolean} [replaying] */
export function canPlay(state, place, replaying = false) {
  if (!state || replaying || state.status !== "playing") return false;
  return (state.legal_moves || []).includes(place);
}

/** Whether a press on ``place`` (holding ``n`` cards) does something — it plays, or the
 * state's refusal is said: the server's ``pressable`` (play.view.TableView decides;
 * the page knows no rule).
 * @param {GameState | null} state @param {string} place @param {number} n @param {boolean} [replaying] */
export function pressable(state, place, n, replaying = false) {
  if (!state || replaying || n === 0) return false;
  return (state.pressable || []).includes(place);
}

/** Stacking order of a place's bottom card: later rows lie over earlier ones.
 * @param {string} place */
export function baseZ(place) {
  return /** @type {Record<string, number>} */ ({ stock: 100, waste: 300, pile: 500, first: 800 })[kindOf(place)] ?? 700;
}

/** Offset in px of the ``i``-th card of ``place`` from its slot. A fanned pile (``fan``
 * px a card, tall screens) shows every card; other stacks show their thickness, one
 * small step per few cards, at most a few.
 * @param {string} place @param {number} i @param {number} fan @param {number} cw card width, px
 * @returns {[number, number]} */
export function stackOffset(place, i, fan, cw) {
  if (!STACKS.has(place)) return [0, 0];
  if (fan && kindOf(place) === "pile") return [0, i * fan];
  const step = Math.max(0.6, cw / 110);
  const depth = Math.min(Math.floor(i / 4), 6);
  return [-depth * step * 0.5, -depth * step];
}

/** Px a label row under cards takes at least (the reserve's key numbers, the counts):
 * 12 px text and its chip. The same minimums are the CSS rows --lab and --pillrow. */
export const LABEL_ROW = 18;
export const PILL_ROW = 22;

/** The card size for a table of ``width`` × ``height`` px. Three layouts: ``wide`` lays
 * the stock beside the rows (landscape); upright, the eight columns in one row, or,
 * where that leaves cards too small to touch (a phone: 41 px at 390 px wide), ``tall``:
 * columns 1–4 above 5–8 with the stock and waste beside them, so that the screen's
 * height makes the cards larger (68 px at 390 × 844). On tall screens ``fan`` (px)
 * spreads the piles downwards, so that every card of a pile shows its index.
 * @param {number} width @param {number} height
 * @returns {{wide: boolean, tall: boolean, cw: number, fan: number}} */
export function tableGeometry(width, height) {
  const wide = width / Math.max(1, height) > 1.3;
  const g = 0.14; // column gap / card width
  const padX = Math.min(24, width * 0.025);
  const padY = Math.min(18, height * 0.02) + 12;
  const w = width - 2 * padX;
  const h = height - 2 * padY;
  const lab = (/** @type {number} */ cw) => Math.max(0.3 * cw, LABEL_ROW);
  const pill = (/** @type {number} */ cw) => Math.max(0.42 * cw, PILL_ROW);
  /** The largest whole card width that fits: ``across`` card widths (with gaps),
   * ``rows`` rows of cards and the label rows ``under(cw)`` px.
   * @param {number} across @param {number} rows @param {(cw: number) => number} under */
  const fit = (across, rows, under) => {
    let cw = Math.floor(Math.min(w / across, h / (rows * 1.4)));
    while (cw > 28 && rows * 1.4 * cw + under(cw) > h) cw--;
    return Math.max(28, cw);
  };
  if (wide) return { wide, tall: false, cw: fit(9.5 + 9 * g, 3, (cw) => lab(cw) + pill(cw)), fan: 0 };
  // Upright: rows F, P, R and the stock, with their label rows; tall: twice F, P, R.
  const flatUnder = (/** @type {number} */ cw) => 2 * lab(cw) + pill(cw);
  const tallUnder = (/** @type {number} */ cw) => 2 * (2 * lab(cw) + pill(cw)) + 0.15 * cw;
  const flat = fit(8 + 7 * g, 4, flatUnder);
  const tallCw = fit(5 + 4 * g, 6, tallUnder);
  const tall = tallCw > flat * 1.15;
  const cw = tall ? tallCw : flat;
  const piles = tall ? 2 : 1; // rows of piles that fan
  const spare = h - (tall ? 6 * 1.4 * cw + tallUnder(cw) : 4 * 1.4 * cw + flatUnder(cw));
  let fan = Math.min(0.3 * 1.4 * cw, spare / (12 * piles));
  if (fan < 0.1 * 1.4 * cw) fan = 0;
  return { wide, tall, cw, fan: Math.floor(fan) };
}

/** The place a hint (a move) points at: a play's move is its source's name.
 * @param {string | null} hint @returns {string | null} */
export function hintPlace(hint) {
  if (!hint) return null;
  return hint === TURN || hint === REDEAL ? STOCK : hint;
}

/** The refusal the state gives for ``move``, if it is not legal now.
 * @param {GameState} state @param {string} move */
export function refusalFor(state, move) {
  return (state.refusals || {})[move] || null;
}

/** The movements of a step played backwards (for a replay's step back): last first,
 * each card from where it went to where it was, face up unless it returns to the stock.
 * @param {Movement[]} movements @returns {Movement[]} */
export function reversed(movements) {
  return movements.slice().reverse().map((m) => ({ card: m.card, from: m.to, to: m.from, face_up: m.from !== STOCK }));
}

/** The State a replay shows at step ``index``: the cards where the picture has them, the
 * engine's facts of that step (``facts``), and no controls (a replay takes no moves).
 * @param {GameState} initial @param {StepFacts} facts @param {number} index
 * @param {Picture} picture what lies where, as the page shows it now
 * @returns {GameState} */
export function replayState(initial, facts, index, picture) {
  const known = (/** @type {Card | StockCard | undefined} */ c) => (c && !("anon" in c) ? c : null);
  const row = (/** @type {readonly string[]} */ places) => places.map((p) => known(picture[p][0]));
  const cards = (/** @type {string} */ place) => picture[place].map(known).filter((c) => c !== null);
  return {
    ...initial,
    first: row(ROWS.first),
    reserve: row(ROWS.reserve),
    piles: ROWS.pile.map(cards),
    active: facts.active, need: facts.need, need_char: facts.need_char, need_card: facts.need_card, privileged: facts.privileged,
    waste: cards(WASTE),
    stock_count: picture.stock.length,
    stock_decks: picture.stock.map((c) => c.deck).reverse(),
    score: facts.score,
    passes: facts.passes,
    redeals_used: facts.redeals_used,
    redeals_left: facts.redeals_left,
    status: facts.status,
    moves: index,
    legal_moves: [], hint: null, can_undo: false, can_redo: false, refusals: {}, pressable: [],
  };
}
