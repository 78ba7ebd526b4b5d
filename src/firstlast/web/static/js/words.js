// The table in words, for the ear (and for anyone who asks): the hint as a sentence,
// the table summary, a place's cards in order (pile review), and the summary of a run
// of moves (Auto, Advance). Pure: built from the server's state through the catalogs
// (i18n.js), no rule decided here (the hint is the server's, the need is the server's);
// tools/js/test/words.test.js checks them under node in both languages.

import { redealsLeftText } from "./format.js";
import { cardWords, placeName, plural, rankName, t } from "./i18n.js";
import { PLACE_KINDS, ROWS, STOCK, WASTE } from "./vocabulary.js";

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").Card} Card */
/** @typedef {import("./api-types").Movement} Movement */
/** @typedef {"brief" | "full"} Verbosity */

/** A card in words as the object of a verb ("play the king of hearts"; in Russian the
 * accusative, "короля червей"). @param {{rank: number, suit: string}} card */
export function cardObject(card) {
  return t("card", { rank: rankName(card.rank, "acc"), suit: t(`suit.${card.suit}`) });
}

/** The card lying on top of ``place`` in ``s`` (null for the stock and empty places).
 * @param {GameState} s @param {string} place @returns {Card | null} */
export function topCard(s, place) {
  const kind = PLACE_KINDS[/** @type {keyof typeof PLACE_KINDS} */ (place)];
  if (kind === "waste") return s.waste.length ? s.waste[s.waste.length - 1] : null;
  const k = Number(place.slice(1)) - 1;
  if (kind === "reserve") return s.reserve[k] || null;
  if (kind === "first") return s.first[k] || null;
  if (kind === "pile") return s.piles[k].length ? s.piles[k][s.piles[k].length - 1] : null;
  return null;
}

/** The active pile in words ("pile 3, 5 of 13, needs a seven"), or that all are done.
 * @param {GameState} s */
export function pileWords(s) {
  const k = s.active;
  if (k === null) return t("say.summary.done");
  const name = placeName(`P${k + 1}`);
  const n = s.piles[k].length;
  const first = s.first[k];
  if (n === 12 && first) return t("aria.pile.base", { pile: name, card: cardWords(first) });
  return t("aria.pile.needs", { pile: name, n, rank: rankName(/** @type {number} */ (s.need), "a") });
}

/** The server's hint (its forced move, ``s.hint``) as a sentence: "Hint: play the king
 * of hearts from reserve 2 onto pile 1", "Hint: turn the stock" (``full``: and why).
 * @param {GameState} s @param {Verbosity} [verbosity] */
export function hintWords(s, verbosity = "full") {
  const move = s.hint;
  if (s.status !== "playing" || !move) return t("say.hint.none");
  if (move === "turn") {
    if (verbosity === "full" && s.active !== null) return t("say.hint.turn.why", { pile: pileWords(s) });
    return t("say.hint.turn");
  }
  if (move === "redeal") return t("say.hint.redeal", { left: redealsLeftText(s.redeals_left) || t("say.summary.unlimited") });
  const card = topCard(s, move);
  const onto = s.drop_target || (s.active !== null ? `P${s.active + 1}` : null);
  if (!card || !onto) return t("say.hint.turn");
  return t("say.hint.play", { card: cardObject(card), from: placeName(move, "from"), onto: placeName(onto, "onto") });
}

/** Where the copies of ``rank`` lie that can be seen: the reserve, the first row, the
 * waste (counted from its top) — and how many are on the piles or in the stock (two
 * decks: eight copies; what is not face up is in the stock).
 * @param {GameState} s @param {number} rank
 * @returns {{places: string[], piles: number, stock: number}} */
export function copiesOf(s, rank) {
  /** @type {string[]} */
  const places = [];
  s.reserve.forEach((c, k) => { if (c && c.rank === rank) places.push(t("say.summary.at", { place: placeName(`R${k + 1}`), card: cardWords(c) })); });
  s.first.forEach((c, k) => { if (c && c.rank === rank) places.push(t("say.summary.at", { place: placeName(`F${k + 1}`), card: cardWords(c) })); });
  const n = s.waste.length;
  for (let i = n - 1; i >= 0; i--) {
    const c = s.waste[i];
    if (c.rank !== rank) continue;
    const depth = n - i;
    places.push(depth === 1 ? t("say.summary.waste.top", { card: cardWords(c) }) : t("say.summary.waste.depth", { n: depth, card: cardWords(c) }));
  }
  const piles = s.piles.reduce((sum, p) => sum + p.filter((c) => c.rank === rank).length, 0);
  const seen = places.length + piles;
  return { places, piles, stock: Math.max(0, 8 - seen) };
}

/** The table summary: the pile being built and the rank it needs, where the copies of
 * that rank can be seen, the stock and the waste, the redeals left; ``full`` adds where
 * the other copies are and the other piles. @param {GameState} s @param {Verbosity} [verbosity] */
export function summaryWords(s, verbosity = "full") {
  /** @type {string[]} */
  const out = [];
  if (s.status !== "playing") out.push(s.status === "won" ? t("won_title") : t("lost_title"));
  const k = s.active;
  if (k === null) {
    out.push(t("say.summary.done"));
  } else {
    out.push(t("say.summary.building", { pile: pileWords(s) }));
    const n = s.piles[k].length;
    const first = s.first[k];
    if (!(n === 12 && first) && s.need) {
      const { places, piles, stock } = copiesOf(s, s.need);
      const ranks = rankName(s.need, "pl");
      out.push(places.length ? t("say.summary.where", { ranks, places: places.join(t("say.summary.join")) }) : t("say.summary.where.none", { ranks }));
      if (verbosity === "full") out.push(t("say.summary.elsewhere", { piles, stock }));
    }
  }
  out.push(t("say.summary.counts", { stock: plural("aria.stock", s.stock_count), waste: plural("aria.waste", s.waste.length) }));
  out.push(redealsLeftText(s.redeals_left) || t("say.summary.unlimited"));
  if (verbosity === "full") {
    const others = s.piles.map((p, i) => (i === k || p.length === 0 ? "" : t(p.length === 13 ? "aria.pile.done" : "aria.pile.count",
      { pile: placeName(`P${i + 1}`), n: p.length }))).filter((x) => x);
    if (others.length) out.push(t("say.summary.others", { piles: others.join(t("say.summary.join")) }));
  }
  return out.map(period).join(" ");
}

/** ``text`` ending with a full stop (once). @param {string} text */
function period(text) {
  const first = text.charAt(0).toLocaleUpperCase();
  const s = first + text.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** The places a player can look into, in the order the review offers them. */
export const REVIEW_PLACES = [...ROWS.pile, WASTE, "rows"];

/** The cards of one place in order, in words (pile review): a pile bottom to top, the
 * waste top down, the stock by its count (face down), "rows" the first row and the
 * reserve card by card. @param {GameState} s @param {string} place @returns {{title: string, cards: string[]}} */
export function reviewWords(s, place) {
  if (place[0] === "P") {
    const k = Number(place[1]) - 1;
    const pile = s.piles[k];
    const name = placeName(place);
    const title = pile.length === 0 ? t("say.review.pile.empty", { pile: name })
      : t("say.review.pile", { pile: name, n: pile.length });
    return { title, cards: pile.map(cardWords) };
  }
  if (place === WASTE) {
    const cards = s.waste.slice().reverse().map(cardWords);
    return { title: cards.length ? t("say.review.waste", { count: plural("aria.waste", cards.length) }) : t("say.review.waste.empty"),
      cards };
  }
  if (place === STOCK) return { title: plural("say.review.stock", s.stock_count), cards: [] };
  const rows = [];
  for (let k = 0; k < 8; k++) {
    const f = s.first[k];
    rows.push(t("aria.place.card", { place: placeName(`F${k + 1}`), card: f ? cardWords(f) : t("say.review.gone") }));
  }
  for (let k = 0; k < 8; k++) {
    const r = s.reserve[k];
    rows.push(r ? t("aria.place.card", { place: placeName(`R${k + 1}`), card: cardWords(r) })
      : t("aria.place.empty", { place: placeName(`R${k + 1}`) }));
  }
  return { title: t("say.review.rows"), cards: rows };
}

/** A place's review as one sentence, to be said. @param {GameState} s @param {string} place */
export function reviewSentence(s, place) {
  const { title, cards } = reviewWords(s, place);
  return cards.length ? `${title}: ${cards.join(t("say.summary.join"))}.` : `${title}.`;
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
  if (done.redeals) parts.push(plural("say.stream.redeals", done.redeals));
  if (done.last) parts.push(t("say.stream.last", { card: cardWords(done.last.card), onto: placeName(done.last.to, "onto") }));
  let text = t("say.stream.summary", { moves: plural("say.stream.moves", moves), parts: parts.join(t("say.summary.join")) });
  if (verbosity === "full" && s && s.status === "playing") text += ` ${period(pileWords(s))}`;
  return text;
}
