// The HTTP API (docs/web-api.md). Every answer is JSON except records; a refused
// request throws an ApiError carrying the server's words for it in the page's language
// (``text``: the server renders every refusal, the page only shows it), its code and
// parameters and the rule it names.

import { getLang } from "./i18n.js";

import { keepNews } from "./news.js";
import { send } from "./transport.js";

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").ActionResult} ActionResult */
/** @typedef {import("./api-types").Replay} Replay */
/** @typedef {import("./api-types").TableWords} TableWords */
/** @typedef {import("./api-types").GameList} GameList */
/** @typedef {import("./api-types").StatsList} StatsList */
/** @typedef {import("./api-types").Settings} Settings */
/** @typedef {import("./api-types").Chance} Chance */
/** @typedef {import("./api-types").Story} Story */
/** @typedef {import("./api-types").VariantSpec} VariantSpec */
/** @typedef {Record<string, string | number | boolean | null>} ErrorParams */
/** @typedef {import("./api-types").SettingsChange} SettingsChange */

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status; 0 when the server could not be reached
   * @param {string} message the server's sentence (English)
   * @param {string | null} [rule] the rule a refused move breaks (R4…)
   * @param {string | null} [code] the stable error code (move.illegal, deal.invalid…)
   * @param {ErrorParams} [params] the code's parameters
   * @param {string | null} [text] the server's words for it in the page's language
   */
  constructor(status, message, rule, code, params, text) {
    super(message);
    this.status = status;
    this.rule = rule || null;
    this.code = code || null;
    /** @type {ErrorParams} */
    this.params = params || {};
    /** What the player reads: the server's words (English sentence if it gave none). */
    this.text = text || message;
  }
}

/** What the player reads for a failure: a refusal's words (the server's, in the page's
 * language), else the error's own message. @param {unknown} err */
export function errorText(err) {
  if (err instanceof ApiError) return err.text;
  return String(err instanceof Error ? err.message : err);
}

/**
 * @param {string} method @param {string} path @param {unknown} [body] sent as JSON
 * @param {{text?: boolean}} [opts] ``text``: answer the body as text
 * @returns {Promise<any>} the JSON answer (its shape is the endpoint's), text, or null for 204
 */
async function call(method, path, body, { text = false } = {}) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  // The server says refusals in the player's saved language, else in this one.
  const init = { method, credentials: "same-origin", headers: { "accept-language": getLang() } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let res;
  try {
    res = await send(path, init);
  } catch {
    throw new ApiError(0, "network", null, "network");
  }
  if (!res.ok) {
    let message = res.statusText || String(res.status);
    let rule = null;
    let code = null;
    let text = null;
    /** @type {ErrorParams} */
    let params = {};
    try {
      const j = await res.json();
      message = j.error || message;
      rule = j.rule || null;
      code = j.code || null;
      params = j.params || {};
      text = j.text || null;
    } catch {
      /* not JSON: keep the status text */
    }
    throw new ApiError(res.status, message, rule, code, params, text);
  }
  if (res.status === 204) return null;
  return text ? res.text() : res.json();
}

const game = (/** @type {string} */ id) => `/api/games/${encodeURIComponent(id)}`;
// Actions carry the game version the page shows: if the game moved on elsewhere (the
// terminal, another tab) the server refuses with code "game.changed" (docs/play.md).
/** @param {string} id @param {string} action @param {number | undefined} version
 * @param {Record<string, unknown>} [extra] @returns {Promise<ActionResult>} */
const act = (id, action, version, extra = {}) =>
  call("POST", `${game(id)}/${action}`, version === undefined ? extra : { ...extra, version }).then(keepNews);

/** @typedef {(id: string, version?: number) => Promise<ActionResult>} Action */

export const api = {
  /** A new game on the table: ``how`` is number (with ``deal``), random, next, again,
   * daily or winnable; ``variant`` defaults to the player's setting; a variant given is
   * this game's alone unless ``asDefault`` (then the server makes it the setting too).
   * ``extra``: ``date`` (an earlier day's deal of the day) and ``wish`` (made before the deal).
   * @param {string | number | null} [deal] @param {VariantSpec | string | null} [variant] @param {string} [how]
   * @param {boolean} [asDefault] @param {{date?: string, wish?: string}} [extra]
   * @returns {Promise<GameState>} */
  newGame: (deal, variant, how, asDefault = false, extra = {}) => {
    /** @type {Record<string, unknown>} */
    const body = { ...extra };
    if (deal !== undefined && deal !== null && deal !== "") body.deal = String(deal);
    if (how) body.how = how;
    if (variant) body.variant = variant;
    if (asDefault) body.make_default = true;
    return call("POST", "/api/games", body);
  },
  /** The game on the table, or null. @returns {Promise<GameState | null>} */
  current: () => call("GET", "/api/games/current"),
  /** @param {string} id @returns {Promise<GameState>} */
  game: (id) => call("GET", game(id)),
  /** @param {string} id @returns {Promise<GameState>} */
  open: (id) => call("POST", `${game(id)}/open`),
  /** @param {string} [status] @param {number} [limit] @returns {Promise<GameList>} */
  games: (status, limit) => {
    const q = new URLSearchParams();
    if (status) q.set("status", status);
    if (limit) q.set("limit", String(limit));
    const qs = q.toString();
    return call("GET", "/api/games" + (qs ? `?${qs}` : ""));
  },
  /** @param {string} id @param {string} move @param {number} [version] */
  move: (id, move, version) => act(id, "moves", version, { move }),
  /** Up to ``n`` forced moves (one by default).
   * @param {string} id @param {number} [version] @param {number} [n] @returns {Promise<ActionResult>} */
  step: (id, version, n) => act(id, "step", version, n === undefined ? {} : { n }),
  /** @type {Action} */
  advance: (id, version) => act(id, "advance", version),
  /** @type {Action} */
  undo: (id, version) => act(id, "undo", version),
  /** @type {Action} */
  redo: (id, version) => act(id, "redo", version),
  /** @type {Action} */
  restart: (id, version) => act(id, "restart", version),
  /** The records game ``id`` set when it ended (an end panel shown again, after a reload).
   * @param {string} id @returns {Promise<import("./api-types").RecordList>} */
  records: (id) => call("GET", `${game(id)}/records`),
  /** @param {string} id @returns {Promise<Replay>} */
  replay: (id) => call("GET", `${game(id)}/replay`),
  /** The table in words (hint, summary, each place's review) in the player's language;
   * ``step``: a replay's step instead of the table as it stands.
   * @param {string} id @param {number} [step] @returns {Promise<TableWords>} */
  words: (id, step) => call("GET", `${game(id)}/words${step === undefined ? "" : `?step=${step}`}`),
  /** The game's record (docs/record-format.md), as text. @param {string} id @returns {Promise<string>} */
  record: (id) => call("GET", `${game(id)}/record`, undefined, { text: true }),
  // The record travels as a JSON string: a cross-site form cannot send JSON.
  /** @param {string} text @returns {Promise<GameState>} */
  importRecord: (text) => call("POST", "/api/games/import", { record: text }),
  /** Round ``round`` of the estimate, pooled with the rounds before it (each round draws
   * new samples of the same position); ``samples`` a round only to measure (benches):
   * the page leaves it to the server's policy (play.chance), the terminal's too.
   * @param {string} id @param {number} [round] @param {number} [samples] @returns {Promise<Chance>} */
  chance: (id, round = 0, samples = undefined) =>
    call("GET", `${game(id)}/chance?round=${round}${samples === undefined ? "" : `&samples=${samples}`}`),
  /** The story of the game, its sentences in the player's saved language.
   * @param {string} id @returns {Promise<Story>} */
  story: (id) => call("GET", `${game(id)}/story`),
  /** @returns {Promise<StatsList>} */
  stats: () => call("GET", "/api/stats"),
  /** A month of deals of the day (YYYY-MM; today's by default).
   * @param {string} [month] @returns {Promise<import("./api-types").Calendar>} */
  calendar: (month) => call("GET", `/api/calendar${month ? `?month=${month}` : ""}`),
  /** @returns {Promise<Settings>} */
  settings: () => call("GET", "/api/settings"),
  /** @param {SettingsChange} s @returns {Promise<Settings>} */
  saveSettings: (s) => call("PUT", "/api/settings", s),
  /** The player's backup (docs/backup.md): every game and the settings, as the file's text.
   * @returns {Promise<string>} */
  backup: () => call("GET", "/api/backup", undefined, { text: true }),
  /** Restore a backup from the file's text: its games are checked and merged with the player's.
   * @param {string} text @returns {Promise<import("./api-types").RestoreReport>} */
  restoreBackup: (text) => call("POST", "/api/backup", { backup: text }),
};
