// The table in words, as the server makes them (GET /api/games/{id}/words; i18n/table.py,
// the terminal's words too): the hint, the table summary, each place's review, in the
// player's language and both verbosities. Fetched when asked for (H, E, X, the Review
// button), once per table; the page only chooses which to show and say.

import { api, errorText } from "./api.js";
import { getLang } from "./i18n.js";
import { verbosity } from "./live.js";
import { announce, app } from "./store.js";

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").TableWords} TableWords */

/** The words of the table last asked for, by the table they are of.
 * @type {{key: string, words: Promise<TableWords>} | null} */
let cached = null;

/** Which table ``s`` is, in which language (a replay's: its step).
 * @param {GameState} s */
function tableKey(s) {
  return [s.id, s.version, s.moves, app.replay ? app.replay.index : "", getLang()].join(":");
}

/** The server's words for table ``s`` (a replay's: of its step), fetched once per table
 * and language. @param {GameState} s @returns {Promise<TableWords>} */
export function tableWords(s) {
  const key = tableKey(s);
  if (!cached || cached.key !== key) {
    const words = api.words(s.id, app.replay ? app.replay.index : undefined);
    cached = { key, words };
    words.catch(() => { if (cached && cached.key === key) cached = null; }); // asked again next time
  }
  return cached.words;
}

/** The hint or the summary in the player's verbosity. @param {TableWords} w @param {"hint" | "summary"} what */
export function chosen(w, what) {
  return verbosity() === "brief" ? w[`${what}_brief`] : w[what];
}

/** ``then`` the words of the table on the page once they came, unless the table (or the
 * language) changed meanwhile; a failure is said instead. @param {(w: TableWords) => void} then */
export function withWords(then) {
  const s = app.state;
  if (!s) return;
  const key = tableKey(s);
  tableWords(s).then((w) => { if (app.state && tableKey(app.state) === key) then(w); }, (err) => announce(errorText(err)));
}
