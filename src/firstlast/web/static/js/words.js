// The words of a run of moves as it streams by (Auto, Advance, a replay playing): what
// it did, counted from its movements, and what the active pile needs now. The hint, the
// table summary and the pile review are not worded here: the server sends them
// (GET /api/games/{id}/words, i18n/table.py, the terminal's words too; review.js fetches
// them). Pure: built from the server's state through the catalogs (i18n.js), no rule
// decided here; tools/js/test/words.test.js checks them under node in both languages.

import { cardWords, placeName, plural, rankName, t } from "./i18n.js";

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").Card} Card */
/** @typedef {import("./api-types").Movement} Movement */
/** @typedef {"brief" | "full"} Verbosity */

/** The active pile in words ("pile 3, 5 of 13, needs a seven"), or that all are done.
 * @param {GameState} s */
export function pileWords(s) {
  const k = s.active;
  if (k === null) return t("say.summary.done");
  const name = placeName(`P${k + 1}`);
  const n = s.piles[k].length;
  if (s.need_card) return t("aria.pile.base", { pile: name, card: cardWords(s.need_card) }); // R5, from the state
  return t("aria.pile.needs", { pile: name, n, rank: rankName(/** @type {number} */ (s.need), "a") });
}

/** ``text`` ending with a full stop (once). @param {string} text */
function period(text) {
  const first = text.charAt(0).toLocaleUpperCase();
  const s = first + text.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/**
 * What a run of movements did, counted: cards turned, cards laid on the piles (the last
 * one named), redeals.
 * @typedef {object} Tally
 * @property {number} turned
 * @property {number} played
 * @property {number} redeals
 * @property {{card: Card, to: string} | null} last the last card laid on a pile
 */

/** @param {Movement[]} movements @returns {Tally} */
export function tally(movements) {
  /** @type {Tally} */
  const out = { turned: 0, played: 0, redeals: 0, last: null };
  let prev = null;
  for (const m of movements) {
    if (m.from === "stock" && m.to === "waste") out.turned++;
    else if (m.from === "waste" && m.to === "stock") {
      if (!(prev && prev.from === "waste" && prev.to === "stock")) out.redeals++;
    }
    if (m.to[0] === "P") {
      out.played++;
      out.last = { card: m.card, to: m.to };
    }
    prev = m;
  }
  return out;
}

/** A run of ``moves`` moves in a few words ("12 moves: 9 cards turned, 3 onto the
 * piles, the last the queen of hearts onto pile 1"); ``full`` adds what the active
 * pile needs now. @param {number} moves @param {Tally} done @param {GameState | null} s @param {Verbosity} [verbosity] */
export function streamWords(moves, done, s, verbosity = "full") {
  const parts = [];
  if (done.turned) parts.push(plural("say.stream.turned", done.turned));
  if (done.played) parts.push(plural("say.stream.played", done.played));
  if (done.redeals) parts.push(plural("variant.redeals", done.redeals));
  if (done.last) parts.push(t("say.stream.last", { card: cardWords(done.last.card), onto: placeName(done.last.to, "onto") }));
  let text = t("say.stream.summary", { moves: plural("count.moves", moves), parts: parts.join(t("list.join.parts")) });
  if (verbosity === "full" && s && s.status === "playing") text += ` ${period(pileWords(s))}`;
  return text;
}
