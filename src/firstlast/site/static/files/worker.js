// The play worker of the static site (docs/site.md): Pyodide running the firstlast
// package, whose web app (firstlast.site.bridge) answers the page's requests in-process.
// The database file lives in IndexedDB (Emscripten's IDBFS, mounted at MOUNT) and is
// synced after every commit, before the answer is posted: an acknowledged move is stored.
//
// Messages from the page: {type: "boot"} (start Python now), {type: "start", origin}
// (this tab holds the game: open it), {type: "request", id, method, path,
// headers, body}, {type: "stop"}. To the page: {type: "progress", step, steps},
// {type: "ready"}, {type: "failed", message}, {type: "answer", id, status, headers, body},
// {type: "stopped"}.

import { startPython } from "./python.js";

/** @typedef {import("./python.js").Pyodide} Pyodide */
/** @typedef {{request_js: (m: string, p: string, h: string, b: string) => Promise<any>, commits: number}} Bridge */

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));
/** Where the database lives: an IDBFS mount named by the site's path, so that two sites
 * on one origin (two project pages on one host) keep their games apart. */
const MOUNT = "/firstlast" + new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const DB = MOUNT + "/firstlast.sqlite3";
/** Steps of the start, for the loading screen. */
const STEPS = 4;

/** @type {Bridge | null} */
let bridge = null;
/** @type {Pyodide | null} */
let pyodide = null;
let stopping = false;
let inFlight = 0;
/** Commits already in IndexedDB, and the chain of syncs (one at a time). */
let synced = 0;
/** @type {Promise<void>} */
let syncing = Promise.resolve();

/** @param {number} step */
function progress(step) {
  scope.postMessage({ type: "progress", step, steps: STEPS });
}

/** Emscripten's FS.syncfs as a promise. @param {Pyodide} py @param {boolean} populate */
function syncfs(py, populate) {
  return new Promise((resolve, reject) => {
    py.FS.syncfs(populate, (/** @type {unknown} */ err) => (err ? reject(err) : resolve(undefined)));
  });
}

/** Store every commit made so far in IndexedDB (after the syncs already asked for). */
function persist() {
  const py = pyodide;
  const b = bridge;
  if (!py || !b) return Promise.resolve();
  syncing = syncing.then(async () => {
    const commits = b.commits;
    if (commits <= synced) return;
    await syncfs(py, false);
    synced = commits;
  });
  return syncing;
}

/** Python starts as soon as the page is opened (before this tab holds the game). @type {Promise<Pyodide> | null} */
let booting = null;

/** @param {string} origin */
async function start(origin) {
  progress(1);
  const py = await (booting ||= startPython());
  // The computing worker starts now, beside the rest of this start (the stored games,
  // the web app, the page's first requests): it is ready, its fast line loaded, by the
  // time the page asks for the deal's chance.
  computer ||= startComputer();
  progress(2);
  py.FS.mkdirTree(MOUNT);
  py.FS.mount(py.FS.filesystems.IDBFS, {}, MOUNT);
  await syncfs(py, true); // the stored games, as the last tab left them
  progress(3);
  const mod = py.pyimport("firstlast.site.bridge");
  bridge = /** @type {Bridge} */ (mod.Bridge(DB, origin));
  pyodide = py;
  mod.install_offload(compute);
  await syncfs(py, false); // a new player is stored before the first answer
  synced = /** @type {Bridge} */ (bridge).commits;
  progress(4);
}

// ---------------------------------------------------------------- the computing worker
// Chance estimates and stories run in a second worker (compute.js, its own Pyodide), so
// that a move never waits behind one. It is started once this worker's Python runs
// (start), so that both do not load Python at once, and is ready before the first estimate.

/** @type {Worker | null} */
let computer = null;
/** @type {Map<number, {resolve: (v: string) => void, reject: (e: Error) => void}>} */
const calls = new Map();
let nextCall = 0;

function startComputer() {
  const w = new Worker(new URL("compute.js", import.meta.url), { type: "module" });
  w.onmessage = (/** @type {MessageEvent} */ e) => {
    const call = calls.get(e.data.id);
    if (!call) return;
    calls.delete(e.data.id);
    if (e.data.error) call.reject(new Error(e.data.error));
    else call.resolve(e.data.outcome);
  };
  w.onerror = () => {
    for (const call of calls.values()) call.reject(new Error("the computing worker failed"));
    calls.clear();
    computer = null;
  };
  return w;
}

/** Hand one pickled call (latin-1 text) to the computing worker. @param {string} payload
 * @returns {Promise<string>} */
function compute(payload) {
  computer ||= startComputer();
  const id = ++nextCall;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject });
    /** @type {Worker} */ (computer).postMessage({ id, call: payload });
  });
}

// ---------------------------------------------------------------- requests

/** @param {{id: number, method: string, path: string, headers: Record<string, string>, body: string}} m */
async function answer(m) {
  const b = bridge;
  if (!b || stopping) {
    scope.postMessage({ type: "answer", id: m.id, status: 503, headers: [["content-type", "application/json"]],
      body: JSON.stringify({ error: "the game is open in another tab", code: "site.elsewhere", params: {} }) });
    return;
  }
  inFlight++;
  try {
    const out = await b.request_js(m.method, m.path, JSON.stringify(m.headers || {}), m.body || "");
    const [status, headers, body] = out.toJs();
    out.destroy();
    try {
      await persist();
    } catch (err) {
      scope.postMessage({ type: "answer", id: m.id, status: 503, headers: [["content-type", "application/json"]],
        body: JSON.stringify({ error: `the browser's storage failed: ${err}`, code: "storage", params: {} }) });
      return;
    }
    scope.postMessage({ type: "answer", id: m.id, status, headers: JSON.parse(headers), body });
  } finally {
    inFlight--;
  }
}

/** Finish what is in flight, store it, and say so (another tab takes the game). */
async function stop() {
  stopping = true;
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  await persist().catch(() => {});
  scope.postMessage({ type: "stopped" });
}

scope.onmessage = (/** @type {MessageEvent} */ e) => {
  const m = e.data;
  if (m.type === "boot") {
    booting ||= startPython();
    booting.catch(() => {}); // reported by "start"
  } else if (m.type === "start") {
    start(m.origin).then(() => {
      scope.postMessage({ type: "ready" });
    }, (err) => scope.postMessage({ type: "failed", message: String(err && err.message ? err.message : err) }));
  } else if (m.type === "request") {
    answer(m);
  } else if (m.type === "stop") {
    stop();
  }
};
