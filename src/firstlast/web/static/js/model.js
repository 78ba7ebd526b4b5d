// The board model: the table's places and the pure rules of the picture (where each
// card lies, how stacks show their thickness, how big the cards can be). No DOM here,
// so tools/js/test checks it under node.

/** @typedef {import("./api-types").Card} Card */
/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").Movement} Movement */
/** @typedef {import("./api-types").StepFacts} StepFacts */
/** A face-down stock card: only its back (deck) is known. @typedef {{anon: true, deck: 1 | 2}} StockCard */
/** What lies at each place, bottom to top. @typedef {Record<string, (Card | StockCard)[]>} Picture */

/** Every place, in reading order: slots are created in this order, so Tab walks the
 * table row by row. */
export const PLACES = /** @type {string[]} */ ([]);
for (const row of "FPR") for (let k = 1; k <= 8; k++) PLACES.push(`${row}${k}`);
PLACES.push("stock", "waste");

/** Places where cards lie on one another (the rest hold one card). */
export const STACKS = new Set(["stock", "waste", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]);

/** Flight time of one card in ms, by speed setting (0 = off … 3 = fast). */
export const DURATION = /** @type {Record<number, number>} */ ({ 0: 0, 1: 520, 2: 300, 3: 150 });

/** @param {number} speed */
export function flightMs(speed) {
  return DURATION[speed] ?? 300;
}

/** Where the cards of ``state`` lie: known cards as sent; stock cards anonymous.
 * @param {GameState} state
 * @returns {Picture} */
export function stateModel(state) {
  /** @type {Picture} */
  const m = {};
  for (let k = 0; k < 8; k++) {
    const first = state.first[k];
    const reserve = state.reserve[k];
    m[`F${k + 1}`] = first ? [first] : [];
    m[`R${k + 1}`] = reserve ? [reserve] : [];
    m[`P${k + 1}`] = state.piles[k].slice();
  }
  m.waste = state.waste.slice();
  // Bottom to top: stock_decks lists the next card first, i.e. the top first.
  m.stock = state.stock_decks.slice().reverse().map((deck) => ({ anon: /** @type {const} */ (true), deck }));
  return m;
}

/** The place's card that can be played (the top of a source place), as the controls
 * mark it: reserve and first-row cards, and the waste's top card.
 * @param {string} place @param {number} i index from the bottom @param {number} n cards there */
export function isSource(place, i, n) {
  return place[0] === "R" || place[0] === "F" || (place === "waste" && i === n - 1);
}

/** Whether the state says the card at ``place`` can be played now (its move is legal):
 * only such a card looks movable (grab cursor, hover ring) and can be dragged.
 * @param {GameState | null} state @param {string} place @param {boolean} [replaying] */
export function canPlay(state, place, replaying = false) {
  if (!state || replaying || state.status !== "playing") return false;
  const legal = state.legal_moves || [];
  return legal.includes(place) || (place === "waste" && legal.includes("W"));
}

/** Whether a press on ``place`` (holding ``n`` cards) does something: it plays, or the
 * state's refusal is explained (a reserve card, the privileged card F8, the waste's top
 * in variant V2). First-row cards that never move, and the waste where it is no source,
 * are not pressable.
 * @param {GameState | null} state @param {string} place @param {number} n @param {boolean} [replaying] */
export function pressable(state, place, n, replaying = false) {
  if (!state || replaying || state.status !== "playing" || n === 0) return false;
  if (canPlay(state, place)) return true;
  if (place[0] === "R") return true;
  if (place === "F8") return state.privileged === "F8";
  if (place === "waste") return !!state.variant && state.variant.waste_playable;
  return false;
}

/** Stacking order of a place's bottom card: later rows lie over earlier ones.
 * @param {string} place */
export function baseZ(place) {
  if (place === "stock") return 100;
  if (place === "waste") return 300;
  if (place[0] === "P") return 500;
  if (place[0] === "F") return 800;
  return 700;
}

/** Offset in px of the ``i``-th card of ``place`` from its slot. A fanned pile (``fan``
 * px a card, tall screens) shows every card; other stacks show their thickness, one
 * small step per few cards, at most a few.
 * @param {string} place @param {number} i @param {number} fan @param {number} cw card width, px
 * @returns {[number, number]} */
export function stackOffset(place, i, fan, cw) {
  if (!STACKS.has(place)) return [0, 0];
  if (fan && place[0] === "P") return [0, i * fan];
  const step = Math.max(0.6, cw / 110);
  const depth = Math.min(Math.floor(i / 4), 6);
  return [-depth * step * 0.5, -depth * step];
}

/** The card size for a table of ``width`` × ``height`` px: ``wide`` lays the stock
 * beside the rows; on tall screens ``fan`` (px) spreads the piles downwards, so that
 * every card of a pile shows its index, as on a real table.
 * @param {number} width @param {number} height
 * @returns {{wide: boolean, cw: number, fan: number}} */
export function tableGeometry(width, height) {
  const wide = width / Math.max(1, height) > 1.3;
  const g = 0.14; // column gap / card width
  // Widths in card widths: 8 columns (and, wide, a half-width gap column and the
  // stock's column) with their gaps; heights: card rows at 1.4 plus the CSS spacer rows.
  const across = wide ? 9.5 + 9 * g : 8 + 7 * g;
  const rows = wide ? 3 * 1.4 + 0.3 + 0.42 : 4 * 1.4 + 0.3 + 0.42 + 0.3;
  const padX = Math.min(24, width * 0.025);
  const padY = Math.min(18, height * 0.02) + 12;
  let cw = Math.min((width - 2 * padX) / across, (height - 2 * padY) / rows);
  cw = Math.max(28, Math.floor(cw));
  let fan = 0;
  if (!wide) {
    const spare = height - 2 * padY - rows * cw;
    fan = Math.min(0.3 * 1.4 * cw, spare / 12);
    if (fan < 0.1 * 1.4 * cw) fan = 0;
  }
  return { wide, cw, fan: Math.floor(fan) };
}

/** The place a hint (a move) points at.
 * @param {string | null} hint @returns {string | null} */
export function hintPlace(hint) {
  if (!hint) return null;
  if (hint === "turn" || hint === "redeal") return "stock";
  if (hint === "W" || hint === "waste") return "waste"; // "W": the engine's older name
  return hint;
}

/** The refusal the state gives for ``move``, if it is not legal now. The move that
 * plays a card is its place's name ("waste" too); a server from before the engine named
 * the waste's move "waste" keys its refusal "W".
 * @param {GameState} state @param {string} move */
export function refusalFor(state, move) {
  const r = state.refusals || {};
  return r[move] || (move === "waste" ? r.W : undefined) || null;
}

/** The movements of a step played backwards (for a replay's step back): last first,
 * each card from where it went to where it was, face up unless it returns to the stock.
 * @param {Movement[]} movements @returns {Movement[]} */
export function reversed(movements) {
  return movements.slice().reverse().map((m) => ({ card: m.card, from: m.to, to: m.from, face_up: m.from !== "stock" }));
}

/** The State a replay shows at step ``index``: the cards where the picture has them, the
 * engine's facts of that step (``facts``), and no controls (a replay takes no moves).
 * @param {GameState} initial @param {StepFacts} facts @param {number} index
 * @param {Picture} picture what lies where, as the page shows it now
 * @returns {GameState} */
export function replayState(initial, facts, index, picture) {
  const known = (/** @type {Card | StockCard | undefined} */ c) => (c && !("anon" in c) ? c : null);
  const row = (/** @type {string} */ r) => [1, 2, 3, 4, 5, 6, 7, 8].map((k) => known(picture[`${r}${k}`][0]));
  const cards = (/** @type {string} */ place) => picture[place].map(known).filter((c) => c !== null);
  return {
    ...initial,
    first: row("F"),
    reserve: row("R"),
    piles: [1, 2, 3, 4, 5, 6, 7, 8].map((k) => cards(`P${k}`)),
    active: facts.active, need: facts.need, need_char: facts.need_char, privileged: facts.privileged,
    waste: cards("waste"),
    stock_count: picture.stock.length,
    stock_decks: picture.stock.map((c) => c.deck).reverse(),
    score: facts.score,
    passes: facts.passes,
    redeals_used: facts.redeals_used,
    redeals_left: facts.redeals_left,
    status: facts.status,
    moves: index,
    legal_moves: [], hint: null, can_undo: false, can_redo: false, refusals: {},
  };
}
