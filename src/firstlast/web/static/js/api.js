// The HTTP API (docs/web-api.md). Every answer is JSON except records; a refused
// request throws an ApiError carrying the server's one-sentence message and rule.

export class ApiError extends Error {
  constructor(status, message, rule) {
    super(message);
    this.status = status;
    this.rule = rule || null;
  }
}

async function call(method, path, body, { text = false, raw = false } = {}) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    if (raw) {
      init.body = body;
      init.headers["content-type"] = "text/plain; charset=utf-8";
    } else {
      init.body = JSON.stringify(body);
      init.headers["content-type"] = "application/json";
    }
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "network", null);
  }
  if (!res.ok) {
    let message = res.statusText || String(res.status);
    let rule = null;
    try {
      const j = await res.json();
      message = j.error || message;
      rule = j.rule || null;
    } catch (_) {
      /* not JSON: keep the status text */
    }
    throw new ApiError(res.status, message, rule);
  }
  return text ? res.text() : res.json();
}

export const api = {
  newGame: (deal, variant) => {
    const body = {};
    if (deal !== undefined && deal !== null && deal !== "") body.deal = String(deal);
    if (variant) body.variant = variant;
    return call("POST", "/api/games", body);
  },
  current: () => call("GET", "/api/games/current"),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  games: (status, limit) => {
    const q = new URLSearchParams();
    if (status) q.set("status", status);
    if (limit) q.set("limit", String(limit));
    const qs = q.toString();
    return call("GET", "/api/games" + (qs ? `?${qs}` : ""));
  },
  move: (id, move) => call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move }),
  step: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/step`),
  undo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/undo`),
  redo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/redo`),
  restart: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/restart`),
  replay: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/replay`),
  recordUrl: (id) => `/api/games/${encodeURIComponent(id)}/record`,
  importRecord: (text) => call("POST", "/api/games/import", text, { raw: true }),
  chance: (id, samples) => call("GET", `/api/games/${encodeURIComponent(id)}/chance?samples=${samples}`),
  stats: () => call("GET", "/api/stats"),
  settings: () => call("GET", "/api/settings"),
  saveSettings: (s) => call("PUT", "/api/settings", s),
};
