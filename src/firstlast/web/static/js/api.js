// The HTTP API (docs/web-api.md). Every answer is JSON except records; a refused
// request throws an ApiError carrying the server's sentence, its code and parameters
// (to be said in the page's language) and the rule it names.
export class ApiError extends Error {
  constructor(status, message, rule, code, params) {
    super(message);
    this.status = status;
    this.rule = rule || null;
    this.code = code || null;
    this.params = params || {};
  }
}

async function call(method, path, body, { text = false } = {}) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "network", null, "network");
  }
  if (!res.ok) {
    let message = res.statusText || String(res.status);
    let rule = null;
    let code = null;
    let params = {};
    try {
      const j = await res.json();
      message = j.error || message;
      rule = j.rule || null;
      code = j.code || null;
      params = j.params || {};
    } catch (_) {
      /* not JSON: keep the status text */
    }
    throw new ApiError(res.status, message, rule, code, params);
  }
  if (res.status === 204) return null;
  return text ? res.text() : res.json();
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;
// Actions carry the game version the page shows: if the game moved on elsewhere (the
// terminal, another tab) the server refuses with code "game.changed" (docs/play.md).
const act = (id, action, version, extra = {}) =>
  call("POST", `${game(id)}/${action}`, version === undefined ? extra : { ...extra, version });

export const api = {
  /** A new game on the table: ``how`` is number (with ``deal``), random, next, again,
   * daily or winnable; ``variant`` defaults to the player's setting. */
  newGame: (deal, variant, how) => {
    const body = {};
    if (deal !== undefined && deal !== null && deal !== "") body.deal = String(deal);
    if (how) body.how = how;
    if (variant) body.variant = variant;
    return call("POST", "/api/games", body);
  },
  /** The game on the table, or null. */
  current: () => call("GET", "/api/games/current"),
  game: (id) => call("GET", game(id)),
  open: (id) => call("POST", `${game(id)}/open`),
  games: (status, limit) => {
    const q = new URLSearchParams();
    if (status) q.set("status", status);
    if (limit) q.set("limit", String(limit));
    const qs = q.toString();
    return call("GET", "/api/games" + (qs ? `?${qs}` : ""));
  },
  move: (id, move, version) => act(id, "moves", version, { move }),
  step: (id, version) => act(id, "step", version),
  advance: (id, version) => act(id, "advance", version),
  undo: (id, version) => act(id, "undo", version),
  redo: (id, version) => act(id, "redo", version),
  restart: (id, version) => act(id, "restart", version),
  replay: (id) => call("GET", `${game(id)}/replay`),
  recordUrl: (id) => `${game(id)}/record`,
  // The record travels as a JSON string: a cross-site form cannot send JSON.
  importRecord: (text) => call("POST", "/api/games/import", { record: text }),
  chance: (id, samples) => call("GET", `${game(id)}/chance?samples=${samples}`),
  stats: () => call("GET", "/api/stats"),
  settings: () => call("GET", "/api/settings"),
  saveSettings: (s) => call("PUT", "/api/settings", s),
};
