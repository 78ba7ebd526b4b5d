// What a game's end has to say beyond won or lost: the personal records it set (the
// answer of the action that ended it: play.stats.news, worded by the server) and, for a
// game laid out "on a wish", whether the wish will come true. The end panel shows them
// and its announcement says them.

import { t } from "./i18n.js";
import { $ } from "./store.js";

/** @typedef {import("./api-types").ActionResult} ActionResult */
/** @typedef {import("./api-types").RecordNews} RecordNews */
/** @typedef {import("./api-types").GameState} GameState */

/** The records each game set, by game id, as its ending action answered. @type {Map<string, RecordNews[]>} */
const news = new Map();

/** Keep the records an action's answer brings (only the action that ends a game has
 * any). @param {ActionResult} result @returns {ActionResult} */
export function keepNews(result) {
  if (result && result.records && result.records.length) news.set(result.state.id, result.records);
  return result;
}

/** Keep the records game ``id`` set, as the server answers them later (GET records).
 * @param {string} id @param {RecordNews[]} records */
export function keepRecords(id, records) {
  news.set(id, records);
}

/** The records game ``id`` set, if this page saw it end. @param {string} id @returns {RecordNews[]} */
export function newsOf(id) {
  return news.get(id) || [];
}

/** Fill the end panel's records and wish lines for ``s``; answer their words, to be
 * said with the end. @param {GameState} s @returns {string} */
export function showEndNews(s) {
  const list = $("#end-records");
  const records = newsOf(s.id);
  list.replaceChildren(...records.map((r) => {
    const li = document.createElement("li");
    li.textContent = r.text;
    li.dataset.kind = r.kind;
    return li;
  }));
  list.hidden = records.length === 0;
  const wish = $("#end-wish");
  wish.textContent = s.wish ? t(s.status === "won" ? "wish.true" : "wish.false") : "";
  wish.hidden = !s.wish;
  return [...records.map((r) => r.text), wish.textContent].filter(Boolean).join(" ");
}
