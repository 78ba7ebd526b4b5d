// The play worker of the static site (docs/site.md): Pyodide running the firstlast
// package, whose web app (firstlast.site.bridge) answers the page's requests in-process.
// The database file lives in IndexedDB (Emscripten's IDBFS, mounted at MOUNT) and is
// synced after every commit, before the answer is posted: an acknowledged move is stored.
// When a save fails (the disk is full, the site's data was cleared) the tab keeps
// answering from what it holds, the page is told at once (it offers a backup), and the
// save is tried again, with backoff and on every change, until it goes through: the
// store is then written again whole, every file of it (docs/site.md, "Storage").
//
// Messages from the page: {type: "boot"} (start Python now), {type: "start", origin}
// (this tab holds the game: open it), {type: "request", id, method, path,
// headers, body}, {type: "stop"}. To the page: {type: "progress", step, steps},
// {type: "ready"}, {type: "failed", message}, {type: "answer", id, status, headers, body},
// {type: "storage", state: "full" | "cleared" | "failed" | "saved"}, {type: "stopped"},
// {type: "kept"} (a stop refused: what this tab holds is not stored yet).

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
/** Commits already in IndexedDB (-1: none, the store must be written whole): only
 * those a save that went through held. And the chain of saves (one at a time; it never
 * stays rejected). */
let synced = 0;
/** @type {Promise<boolean>} */
let syncing = Promise.resolve(true);
/** The last save failed: the page was told, and a retry is due. */
let failing = false;
/** The next save writes every file, whatever IndexedDB seems to hold (``touchAll``): set
 * when a save failed or the store was closed under us, until a save goes through. */
let whole = false;
/** How many times a save failed or the store was closed: a save that went through while
 * this moved counts for nothing (the one queued since writes it all again). */
let losses = 0;
let retryDelay = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retryTimer;
/** Retries back off from 1 s to 30 s (each change also tries at once). */
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30000;

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

/** Make every file under the mount newer than any copy of it in IndexedDB. IDBFS writes
 * only the entries whose mtime (ms) differs from the stored one's; after a failed save
 * (a transaction that may have been cut short, a store the browser rebuilt) or a cleared
 * store, what IndexedDB holds is not known, so nothing may be skipped.
 * @param {Pyodide} py */
function touchAll(py) {
  const fs = py.FS;
  const now = Date.now();
  /** @param {string} dir */
  const walk = (dir) => {
    for (const name of /** @type {string[]} */ (fs.readdir(dir))) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      const st = fs.lstat(path);
      if (fs.isDir(st.mode)) walk(path);
      // Later than now and than the file's own time: no stored copy has this time.
      const at = Math.max(now, new Date(st.mtime).getTime() + 1);
      fs.utime(path, at, at);
    }
  };
  walk(MOUNT);
}

/** IDBFS's table of open IndexedDB connections, by mount point.
 * @param {Pyodide} py @returns {Record<string, IDBDatabase>} */
function connections(py) {
  return /** @type {{dbs: Record<string, IDBDatabase>}} */ (py.FS.filesystems.IDBFS).dbs;
}

/** Forget IDBFS's connection: IDBFS keeps one forever, and one the browser closed (the
 * site's data cleared) or broke fails every later save. The next save opens the store
 * again (made anew if it was deleted) and writes into it every file that differs. */
function reconnect(/** @type {Pyodide} */ py) {
  const dbs = connections(py);
  const db = dbs[MOUNT];
  if (!db) return;
  delete dbs[MOUNT];
  try { db.close(); } catch { /* already closed */ }
}

/** Be told when the browser closes the store under us (site data cleared while the tab
 * is open): what this tab holds is written again whole at once. @param {Pyodide} py */
function watchStore(py) {
  const db = connections(py)[MOUNT];
  if (!db || db.onclose) return;
  db.onclose = () => {
    if (connections(py)[MOUNT] === db) delete connections(py)[MOUNT];
    synced = -1; // nothing of ours is stored any more
    failed(py, "cleared");
    persist();
  };
}

/** Why a save failed, as the page names it. @param {unknown} err */
function kind(err) {
  const name = err && typeof err === "object" && "name" in err ? String(err.name) : "";
  const text = String(err && typeof err === "object" && "message" in err ? err.message : err);
  return name === "QuotaExceededError" || /quota|space|full/i.test(text) ? "full" : "failed";
}

/** A save failed: tell the page (once, until a save goes through) and try again later.
 * @param {Pyodide} py @param {"full" | "cleared" | "failed"} why */
function failed(py, why) {
  reconnect(py);
  whole = true;
  losses++;
  if (!failing || why === "cleared") scope.postMessage({ type: "storage", state: why });
  failing = true;
  retryDelay = Math.min(RETRY_MAX_MS, retryDelay ? retryDelay * 2 : RETRY_MIN_MS);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => { persist(); }, retryDelay);
}

/** Store every commit made so far in IndexedDB (after the saves already asked for).
 * Answers whether everything is stored; never rejects: a failure is told to the page
 * and retried (``failed``), and the tab goes on from what it holds.
 * @returns {Promise<boolean>} */
function persist() {
  const py = pyodide;
  const b = bridge;
  if (!py || !b) return Promise.resolve(true);
  syncing = syncing.then(async () => {
    // What the save holds: read before it starts, and every commit up to here is in the
    // files it writes (IDBFS reads them after this), so no more than this is counted.
    const commits = b.commits;
    if (commits <= synced) return true;
    const lost = losses;
    try {
      if (whole) touchAll(py);
      await syncfs(py, false);
    } catch (err) {
      failed(py, kind(err));
      return false;
    }
    if (losses !== lost) return false;
    synced = commits;
    whole = false;
    watchStore(py);
    if (failing) {
      failing = false;
      retryDelay = 0;
      clearTimeout(retryTimer);
      scope.postMessage({ type: "storage", state: "saved" });
    }
    return true;
  });
  return syncing;
}

/** Python starts as soon as the page is opened (before this tab holds the game). @type {Promise<Pyodide> | null} */
let booting = null;

/** @param {string} origin */
async function start(origin) {
  progress(1);
  const py = await (booting ||= startPython());
  progress(2);
  py.FS.mkdirTree(MOUNT);
  py.FS.mount(py.FS.filesystems.IDBFS, {}, MOUNT);
  await syncfs(py, true); // the stored games, as the last tab left them
  progress(3);
  const mod = py.pyimport("firstlast.site.bridge");
  bridge = /** @type {Bridge} */ (mod.Bridge(DB, origin));
  pyodide = py;
  py.pyimport("firstlast.runtime").set_offload(compute); // run_cpu's computations: the computing worker
  synced = -1;
  await persist(); // a new player is stored before the first answer (or the page is told)
  progress(4);
  // The computing worker starts once this one answers, not beside its start: two
  // Pythons starting at once share a phone's few cores, and the table waited for both.
  // The deal's first estimate, asked for next, waits for it instead (the meter says so).
  computer ||= startComputer();
}

// ---------------------------------------------------------------- the computing worker
// Chance estimates and stories run in a second worker (compute.js, its own Pyodide), so
// that a move never waits behind one. It is started once this worker answers (start),
// so that both do not load Python at once.

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
    // Stored before it is answered; if the store fails, the answer still comes (this tab
    // holds it, the page says the storage failed and offers a backup, the save retries).
    await persist();
    scope.postMessage({ type: "answer", id: m.id, status, headers: JSON.parse(headers), body });
  } finally {
    inFlight--;
  }
}

/** Finish what is in flight, store it, and say so (another tab takes the game); or,
 * where it cannot be stored, keep the game here. */
async function stop() {
  stopping = true;
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  if (await persist()) {
    scope.postMessage({ type: "stopped" });
    return;
  }
  // Not stored: another tab would open the store without these moves. This tab keeps
  // the game (the other asks again each second, which tries the save again).
  stopping = false;
  scope.postMessage({ type: "kept" });
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
