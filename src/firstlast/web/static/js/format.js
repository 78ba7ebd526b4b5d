// The texts the table shows about a game (status bar, centre panel, chance meter),
// in the page's language. Pure: tools/js/test checks them under node.

import { cardName, plural, rankChar, t } from "./i18n.js";
import { ROWS } from "./vocabulary.js";

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").Card} Card */

/** What the active pile waits for ("Pile P3 needs 7"), or that all are complete.
 * @param {GameState} s */
export function needText(s) {
  const k = s.active;
  if (k === null) return t("all_done");
  // The pile ends with its own first card: the state says which (need_card, R5).
  if (s.need_card) return t("pile_needs_base", { pile: ROWS.pile[k], card: cardName(s.need_card) });
  return t("pile_needs", { pile: ROWS.pile[k], rank: rankChar(/** @type {number} */ (s.need)) });
}

/** "Pass 2 of 4", or without a limit "Pass 2 (unlimited redeals)".
 * @param {GameState} s */
export function passText(s) {
  return s.redeals_left === null
    ? t("pass_unl", { pass: s.passes })
    : t("pass_of", { pass: s.passes, max: s.passes + s.redeals_left });
}

/** The redeals left in words; empty when unlimited.
 * @param {number | null} left */
export function redealsLeftText(left) {
  if (left === null) return "";
  if (left === 1) return t("redeals_left_1");
  if (left === 0) return t("redeals_left_0");
  return t("redeals_left", { n: left });
}

/** "Score: 40/104 · 17 moves". @param {GameState} s */
export function scoreText(s) {
  return t("score_line", { score: s.score, moves: plural("count.moves", s.moves) });
}

/** ``text`` as a sentence on its own (a toast): its first letter a capital, in the
 * language's own way ("a card that fits…" → "A card that fits…"; "карта…" → "Карта…").
 * @param {string} text @param {string} [lang] */
export function sentence(text, lang) {
  const first = text.charAt(0);
  return first ? first.toLocaleUpperCase(lang) + text.slice(1) : text;
}
