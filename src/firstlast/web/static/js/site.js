// The static site's side of the page (docs/site.md): loaded by transport.js only where
// the page is the site. It starts the game in this browser and is the page's `send`:
//
// 1. the service worker (sw.js) installs the whole build for offline use, and the page
//    waits until it serves (first visit: so that no file is fetched twice);
// 2. one tab holds the game (Web Locks): a tab opened later asks the holder to let go,
//    the holder finishes what it was doing, stores it and says that the game moved;
// 3. the play worker (static/site/worker.js: Pyodide and the same Python app) starts,
//    with the loading screen telling each step;
// 4. every request of the page is posted to that worker and answered as a Response;
// 5. the last table the page showed is kept in localStorage (``snapshot``): a later
//    visit shows it at once, while Python starts, and the moves made meanwhile wait in
//    the page's queue until the worker answers them (docs/site.md, "Loading");
// 6. when the browser's storage fails (full, or cleared while the tab is open) the page
//    says so and offers a backup of everything the tab holds (``storageNotice``).
//
// Its words come from the catalogs shipped beside it (static/site/i18n/), since the
// page's own catalog comes from Python, which is what is loading.

import { detectLang, pluralForm, render } from "./lang.js";
import { app, saveFile } from "./store.js";

const base = new URL("../../", import.meta.url);
// Two sites on one origin (two project pages on one host) must not share a lock or a
// channel: both are named by the site's own path (so are its storage and its cache).
const LOCK = `firstlast-game:${base.pathname}`;
const CHANNEL = `firstlast-site:${base.pathname}`;

/** The catalog of the page's language; null while it cannot be had (offline before the
 * first install), when the keys show and the game still starts. @type {Record<string, string> | null} */
let words = null;
/** @param {string} key @param {Record<string, string | number>} [args] */
function w(key, args = {}) {
  return words ? render(words, key, args) : key;
}

// ---------------------------------------------------------------- the loading screen

/** @type {HTMLElement | null} */
let screen = null;

/** The catalogs as files (static/site/i18n/, the very bytes the app serves at
 * /i18n/LANG.json): fetched once each, for the loading screen and for the page.
 * @type {Record<string, Promise<string>>} */
const catalogText = {};
/** @param {string} lang @returns {Promise<string>} */
function catalogFile(lang) {
  return catalogText[lang] ||= fetch(new URL(`static/site/i18n/${lang}.json`, base)).then((res) => {
    if (!res.ok) throw new Error(String(res.status));
    return res.text();
  });
}

async function loadWords() {
  try {
    words = JSON.parse(await catalogFile(detectLang()));
  } catch { /* offline before the first install: the keys show, the game still starts */ }
}

/** The loading screen: the build puts it in the page (so that nothing else shows
 * first); made here when missing. Its bar runs once from 0 to 100 %: the files saved for
 * offline play (a first visit) take the first half, Python's steps the rest. Only a new
 * step is said to screen readers (``.site-step`` is the polite live line), not each MB.
 * @param {string} step the step, in words @param {number} fraction 0…1 of the whole
 * @param {string} [detail] shown, not said (the MB counter) */
function loading(step, fraction, detail = "") {
  if (quiet) {
    if (first) strip(step, fraction);
    return;
  }
  screen ||= document.getElementById("site-loading");
  if (!screen) {
    screen = document.createElement("div");
    screen.id = "site-loading";
    screen.setAttribute("role", "dialog");
    screen.setAttribute("aria-modal", "true");
    screen.setAttribute("aria-labelledby", "site-loading-title");
    screen.innerHTML = '<div class="site-box"><p class="site-title" id="site-loading-title"></p>' +
      '<progress max="100" value="0"></progress>' +
      '<p class="site-step" aria-live="polite"></p><p class="site-detail" aria-hidden="true"></p></div>';
    document.body.prepend(screen);
  }
  cover(screen);
  document.documentElement.lang = detectLang(); // read in the language it is written in
  /** @type {HTMLElement} */ (screen.querySelector(".site-title")).textContent = w("site.loading.title");
  const bar = /** @type {HTMLProgressElement} */ (screen.querySelector("progress"));
  bar.value = Math.max(bar.value, Math.round(100 * fraction)); // never backwards
  bar.setAttribute("aria-label", w("site.loading.title"));
  const line = /** @type {HTMLElement} */ (screen.querySelector(".site-step"));
  if (line.textContent !== step) line.textContent = step;
  /** @type {HTMLElement} */ (screen.querySelector(".site-detail")).textContent = detail;
}

/** The table is shown from the snapshot: no loading screen over it. */
let quiet = false;

/** A first visit plays on the built table while the offline copy is saved and Python
 * starts: a thin bar along the top shows how far (nothing covered, nothing made inert),
 * and each new step is said politely.
 * @param {string} step @param {number} fraction */
function strip(step, fraction) {
  let bar = document.getElementById("site-progress");
  if (!bar) {
    bar = document.createElement("div");
    bar.id = "site-progress";
    bar.setAttribute("role", "region"); // a landmark of its own: every part of the page is in one
    bar.innerHTML = '<progress max="100" value="0"></progress><span class="sr-only" aria-live="polite"></span>';
    document.body.append(bar);
  }
  const meter = /** @type {HTMLProgressElement} */ (bar.querySelector("progress"));
  meter.value = Math.max(meter.value, Math.round(100 * fraction));
  meter.setAttribute("aria-label", w("site.loading.title"));
  bar.setAttribute("aria-label", w("site.loading.title"));
  const line = /** @type {HTMLElement} */ (bar.querySelector("span"));
  if (line.textContent !== step) line.textContent = step;
}

/** Whether this visit filled the offline cache first (its bar's first half). */
let installing = false;

function loaded() {
  screen?.remove();
  screen = null;
  document.getElementById("site-progress")?.remove();
  uncover();
}

/** What ``cover`` made inert (and only that: the page's own inert parts stay so). @type {Set<HTMLElement>} */
const covered = new Set();

/** The table under the loading screen is neither read nor reached by Tab until it is
 * ready: everything beside ``top`` in the body is inert. @param {HTMLElement} top */
function cover(top) {
  for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (document.body.children)) {
    if (el !== top && !el.inert) {
      el.inert = true;
      covered.add(el);
    }
  }
}

function uncover() {
  for (const el of covered) el.inert = false;
  covered.clear();
}

/** A panel over the table with one sentence and, maybe, one button.
 * @param {string} text @param {string | null} button @param {() => void} [onPress] */
function panel(text, button, onPress) {
  document.getElementById("site-panel")?.remove();
  const box = document.createElement("div");
  box.id = "site-panel";
  box.setAttribute("role", "alertdialog");
  box.setAttribute("aria-modal", "true");
  box.setAttribute("aria-labelledby", "site-panel-text");
  box.innerHTML = '<div class="site-box"><p id="site-panel-text"></p></div>';
  /** @type {HTMLElement} */ (box.querySelector("p")).textContent = text;
  if (button) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = button;
    b.addEventListener("click", () => onPress && onPress());
    /** @type {HTMLElement} */ (box.querySelector(".site-box")).append(b);
    setTimeout(() => b.focus(), 0);
  }
  document.body.append(box);
  for (const el of document.body.children) {
    if (el !== box) /** @type {HTMLElement} */ (el).inert = true;
  }
  window.addEventListener("keydown", keepKeys, true);
}

/** While a panel is up, the game's keys do nothing (the panel's own button still works:
 * only the page's listeners are kept from the key, not its default action).
 * @param {KeyboardEvent} e */
function keepKeys(e) {
  e.stopPropagation();
}

function closePanel() {
  document.getElementById("site-panel")?.remove();
  for (const el of document.body.children) /** @type {HTMLElement} */ (el).inert = false;
  window.removeEventListener("keydown", keepKeys, true);
}

// ---------------------------------------------------------------- offline and updates

/** Register the service worker and wait until it serves this page (the whole build is
 * then in its cache: the worker's files come from there, fetched once). */
async function serviceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const sw = navigator.serviceWorker;
  sw.addEventListener("message", (e) => {
    if (e.data && e.data.type === "missing") missingFile(String(e.data.path));
    if (e.data && e.data.type === "install" && !sw.controller) {
      installing = true;
      loading(w("site.loading.files_step"), 0.5 * (e.data.done / e.data.total),
        w("site.loading.files", { mb: (e.data.done / 1e6).toFixed(1), total: (e.data.total / 1e6).toFixed(1) }));
    }
  });
  let reg;
  try {
    reg = await sw.register(new URL("sw.js", base), { scope: base.pathname });
  } catch {
    return; // no offline copy (a private window, a host that refuses it): play online
  }
  watchUpdates(reg);
  if (sw.controller) return;
  await new Promise((resolve) => {
    sw.addEventListener("controllerchange", resolve, { once: true });
    // An install that fails (storage full) leaves the page online, not stuck.
    const failed = () => reg.installing === null && reg.waiting === null && !reg.active && resolve(undefined);
    reg.installing?.addEventListener("statechange", failed);
    setTimeout(resolve, 120000);
  });
}

/** Files of the build the service worker could not serve whole (damaged or missing, and
 * offline). @type {Set<string>} */
const missing = new Set();

/** Say at once which files are missing, and what to do, instead of waiting on a start
 * that cannot end (Python's files) or showing what failed inside it. Once the game
 * answers, a missing file is for later (it will be fetched again when online).
 * @param {string} path */
function missingFile(path) {
  missing.add(path);
  if (answering) return;
  loaded();
  panel(w("site.missing", { files: [...missing].join(", ") }), w("site.retry"), () => location.reload());
}

/** Say when a new build is ready; it takes over when the player agrees (a reload),
 * never under a page that is running. @param {ServiceWorkerRegistration} reg */
function watchUpdates(reg) {
  const offer = () => {
    if (!reg.waiting || !navigator.serviceWorker.controller) return;
    const waiting = reg.waiting;
    const bar = document.getElementById("site-update") || document.createElement("div");
    bar.id = "site-update";
    bar.setAttribute("role", "status");
    bar.innerHTML = '<span></span><button type="button"></button>';
    /** @type {HTMLElement} */ (bar.querySelector("span")).textContent = w("site.update.ready");
    const b = /** @type {HTMLButtonElement} */ (bar.querySelector("button"));
    b.textContent = w("site.update.reload");
    b.addEventListener("click", () => {
      navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
      waiting.postMessage({ type: "activate" });
    });
    document.body.append(bar);
  };
  offer();
  reg.addEventListener("updatefound", () => {
    reg.installing?.addEventListener("statechange", offer);
  });
  // Look for a new build now and then while the page is open.
  setInterval(() => reg.update().catch(() => {}), 30 * 60 * 1000);
}

// ---------------------------------------------------------------- the last table, at once
// What the page needs to show its table (the settings and the game on it), as the worker
// last answered it, kept in localStorage: a later visit answers these from here while
// Python starts, so the table is there at once. Moves wait in the page's queue until the
// worker answers (``send``); once it does, the page looks again (``firstlast:refresh``),
// so a table moved on meanwhile elsewhere is shown as stored (and a move made on the
// older one is refused as "changed", never applied to another table).

const SNAPSHOT = `firstlast-snapshot:${base.pathname}`;
/** Paths answered from the snapshot before the worker answers. */
const SNAPSHOT_PATHS = ["/api/settings", "/api/games/current"];

/** @returns {Record<string, string>} */
function readSnapshot() {
  try {
    const got = JSON.parse(localStorage.getItem(SNAPSHOT) || "null");
    return got && typeof got === "object" ? got : {};
  } catch {
    return {};
  }
}

/** @type {Record<string, string>} */
const snapshot = readSnapshot();

// A first visit has no last table: the build made one (site/build.py, first_table), the welcome
// deal in each language, put in the page. It is shown at once, like a last table; the
// worker deals that very game when it first answers, and requests for the built game go
// to it (``firstPath``), so that moves made meanwhile are kept, in order.

/** @typedef {{id: string, deal: Record<string, string>, settings: object, tables: Record<string, object>}} FirstTable */
/** @returns {FirstTable | null} */
function readFirstTable() {
  try {
    const got = JSON.parse(document.getElementById("site-first-table")?.textContent || "null");
    return got && typeof got.id === "string" && got.tables ? got : null;
  } catch {
    return null;
  }
}
/** The built table, when this visit shows it (no last table in the browser's storage). */
const first = SNAPSHOT_PATHS.some((p) => typeof snapshot[p] === "string") ? null : readFirstTable();
if (first) {
  snapshot["/api/settings"] = JSON.stringify(first.settings);
  snapshot["/api/games/current"] = JSON.stringify(first.tables[detectLang()] || first.tables.en);
}
/** Whether this visit showed the table from the snapshot (then no loading screen). */
const fromSnapshot = SNAPSHOT_PATHS.every((p) => typeof snapshot[p] === "string");
/** Whether the worker answers yet (before: the snapshot answers what it can). */
let answering = false;
/** Whether an answer was taken from the snapshot (the page then looks again). */
let usedSnapshot = false;

/** Keep ``body`` as the answer to ``path`` for the next visit. @param {string} path @param {string} body */
function keep(path, body) {
  if (snapshot[path] === body) return;
  snapshot[path] = body;
  try {
    localStorage.setItem(SNAPSHOT, JSON.stringify(snapshot));
  } catch { /* full: the next visit shows the loading screen */ }
}

/** The table the page shows is the next visit's first picture: kept after every action
 * and when the page is left. */
function keepTable() {
  if (!gone && answering && app.state && !app.replay) keep("/api/games/current", JSON.stringify(app.state));
}
document.addEventListener("firstlast:idle", keepTable);
addEventListener("pagehide", keepTable);

/** The answer the page can have without the worker, or null.
 * @param {string} method @param {string} path @returns {Response | Promise<Response> | null} */
function answerHere(method, path) {
  if (method !== "GET") return null;
  const json = { status: 200, headers: { "content-type": "application/json" } };
  const lang = /^\/i18n\/(en|ru)\.json$/.exec(path);
  if (lang) {
    // The catalog is a file of the build: never asked of Python.
    return catalogFile(lang[1]).then((text) => new Response(text, json));
  }
  if (!answering && SNAPSHOT_PATHS.includes(path) && typeof snapshot[path] === "string") {
    usedSnapshot = true;
    return new Response(snapshot[path], json);
  }
  return null;
}

// ---------------------------------------------------------------- the browser's storage

/** Save a backup of every game this tab holds (docs/backup.md), answered by the play
 * worker from what it holds, whether or not the browser's storage works. */
async function saveBackup() {
  const say = /** @type {HTMLElement} */ (document.querySelector("#site-storage .site-said"));
  try {
    const res = await send("/api/backup", { headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(String(res.status));
    const text = await res.text();
    const games = JSON.parse(text).games.length;
    saveFile(`firstlast-backup-${new Date().toISOString().slice(0, 10)}.json`, text, "application/json");
    say.textContent = w("backup_saved", { games: w(`count.games.${pluralForm(detectLang(), games)}`, { n: games }) });
  } catch {
    say.textContent = w("site.storage.backup_failed");
  }
}

/** The browser's storage failed (``full``, ``cleared`` while the tab is open, or
 * ``failed``), or works again (``saved``): a bar at the top says what happened and what
 * to do, in the player's language, and offers a backup at once.
 * @param {"full" | "cleared" | "failed" | "saved"} state */
function storageNotice(state) {
  let bar = document.getElementById("site-storage");
  if (state === "saved") {
    if (!bar) return;
    /** @type {HTMLElement} */ (bar.querySelector(".site-what")).textContent = w("site.storage.saved");
    /** @type {HTMLElement} */ (bar.querySelector(".site-close")).hidden = false;
    bar.dataset.state = "saved";
    return;
  }
  if (!bar) {
    bar = document.createElement("div");
    bar.id = "site-storage";
    bar.innerHTML = '<p class="site-what" role="alert"></p><p class="site-said" role="status"></p>' +
      '<div class="site-buttons"><button type="button" class="site-backup"></button>' +
      '<button type="button" class="site-close" hidden></button></div>';
    const backup = /** @type {HTMLButtonElement} */ (bar.querySelector(".site-backup"));
    backup.textContent = w("site.storage.backup");
    backup.addEventListener("click", saveBackup);
    const close = /** @type {HTMLButtonElement} */ (bar.querySelector(".site-close"));
    close.textContent = w("close");
    close.addEventListener("click", () => {
      const focusWasHere = /** @type {HTMLElement} */ (bar).contains(document.activeElement);
      /** @type {HTMLElement} */ (bar).remove();
      if (focusWasHere) /** @type {HTMLElement | null} */ (document.querySelector("#b-new"))?.focus();
    });
    document.body.append(bar);
  }
  bar.dataset.state = state;
  /** @type {HTMLElement} */ (bar.querySelector(".site-close")).hidden = true;
  /** @type {HTMLElement} */ (bar.querySelector(".site-what")).textContent =
    `${w(`site.storage.${state}`)} ${w("site.storage.what")}`;
}

// ---------------------------------------------------------------- one tab holds the game

/** @type {Worker | null} */
let worker = null;
/** @type {Map<number, {resolve: (r: Response) => void}>} */
const waiting = new Map();
let nextId = 0;
/** @type {(() => void) | null} */
let letGo = null;
/** Called when the play worker refused to let go (what it holds is not stored yet).
 * @type {(() => void) | null} */
let keepGame = null;
/** This tab gave the game to another: its requests are refused at once. */
let gone = false;
/** Resolved when the play worker answers requests. @type {Promise<void>} */
let ready = Promise.resolve();

/** The play worker, Python starting in it at once (while the page loads its words, the
 * service worker and the lock): it opens the game when this tab holds it (``startWorker``).
 * @returns {Worker} */
function bootWorker() {
  const wk = new Worker(new URL("static/site/worker.js", base), { type: "module" });
  wk.postMessage({ type: "boot" });
  return wk;
}

// On a first visit the service worker is filling its cache: Python then starts once it
// serves the page, so that no file is fetched twice (an uncontrolled worker's downloads
// would not share the service worker's). A visit that shows its last table from the
// snapshot starts Python once that table is drawn (or once a request needs it): Python's
// start (compiling 10 MB of WebAssembly, on every core it can get) would otherwise
// race the page for the CPU and show the table later, on a phone most of all.
/** Whether the service worker serves this page already (or there is none). */
const controlled = !("serviceWorker" in navigator) || !!navigator.serviceWorker.controller;
/** @type {Worker | null} */
let booted = controlled && !fromSnapshot ? bootWorker() : null;
/** Resolves when Python is wanted now: a request the snapshot cannot answer. */
let wanted = () => {};
/** Until the page has drawn its table, or a request wants Python. */
function tableDrawn() {
  return new Promise((resolve) => {
    wanted = () => resolve(undefined);
    const drawn = () => document.body.classList.contains("ready") && (resolve(undefined), true);
    if (drawn()) return;
    const watch = new MutationObserver(() => drawn() && watch.disconnect());
    watch.observe(document.body, { attributes: true, attributeFilter: ["class"] });
  });
}

/** Open the game in the play worker and wait until it is ready. */
function startWorker() {
  return new Promise((resolve, reject) => {
    const wk = booted || bootWorker();
    booted = null;
    wk.onmessage = (e) => {
      const m = e.data;
      if (m.type === "progress") {
        const part = m.step / m.steps;
        loading(w(`site.loading.step${m.step}`), installing ? 0.5 + 0.5 * part : part);
      }
      else if (m.type === "ready") resolve(undefined);
      else if (m.type === "failed") reject(new Error(m.message));
      else if (m.type === "answer") {
        const call = waiting.get(m.id);
        waiting.delete(m.id);
        const empty = m.status === 204 || m.status === 304;
        call?.resolve(new Response(empty ? null : m.body, { status: m.status, headers: m.headers }));
      } else if (m.type === "storage") {
        storageNotice(m.state);
      } else if (m.type === "kept") {
        if (keepGame) keepGame();
      } else if (m.type === "stopped") {
        wk.terminate();
        worker = null;
        if (letGo) letGo();
      }
    };
    wk.onerror = (e) => reject(new Error(e.message || "the play worker failed"));
    worker = wk;
    wk.postMessage({ type: "start", origin: location.origin });
  });
}

/** Hold the game in this tab (asking a tab that holds it to let go) and start it. */
async function takeGame() {
  const channel = new BroadcastChannel(CHANNEL);
  if (!("locks" in navigator)) return startWorker();
  let held = false;
  return new Promise((resolve, reject) => {
    channel.onmessage = (e) => {
      if (e.data === "take" && held && worker) {
        // Another tab wants the game: finish, store, let go, and say where it went.
        held = false;
        gone = true; // nothing more is sent from here
        worker.postMessage({ type: "stop" });
      }
    };
    keepGame = () => {
      // Not stored yet (the storage failed): handing over would lose moves. This tab
      // plays on; the other asks again, which tries the save again.
      held = true;
      gone = false;
    };
    navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => {
      if (lock) return hold(resolve, reject);
      // Held elsewhere: ask for it, and wait for it.
      loading(w("site.loading.other_tab"), 0);
      // Asked again each second until this tab holds it: when tabs open together, the
      // one that held the game may have let go to another, which must be asked in turn.
      channel.postMessage("take");
      const asking = setInterval(() => channel.postMessage("take"), 1000);
      return navigator.locks.request(LOCK, () => {
        clearInterval(asking);
        return hold(resolve, reject);
      });
    });
    /** @param {(v: unknown) => void} ok @param {(e: unknown) => void} fail */
    function hold(ok, fail) {
      held = true;
      return new Promise((release) => {
        letGo = () => {
          held = false;
          document.body.dataset.site = "elsewhere";
          release(undefined);
          panel(w("site.elsewhere"), w("site.play_here"), () => location.reload());
        };
        startWorker().then(ok, (err) => {
          release(undefined);
          fail(err);
        });
      });
    }
  });
}

async function start() {
  if (fromSnapshot) {
    // The table shows at once, from the snapshot: no loading screen over it.
    quiet = true;
    document.getElementById("site-loading")?.remove();
  }
  await loadWords();
  loading(w("site.loading.step0"), 0);
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => false);
  if (fromSnapshot && controlled) {
    await tableDrawn();
    booted ||= bootWorker(); // the frame with the table is painted first
  }
  await serviceWorker();
  try {
    await takeGame();
  } catch (err) {
    loaded();
    console.error(err); // the details, for the curious; the player reads what to do
    if (missing.size) missingFile([...missing][0]);
    else panel(w("site.failed_plain"), w("site.retry"), () => location.reload());
    throw err;
  }
  closePanel();
  loaded();
  answering = true;
  document.body.dataset.site = "answering"; // the site's Python answers (tests and benches wait for it)
  // The table came from the snapshot: look again at the stored game (the same, but for a
  // tab that moved it on meanwhile, or a store that could not keep the last moves).
  if (usedSnapshot) document.dispatchEvent(new Event("firstlast:refresh"));
}

ready = start();

/** The page's requests, answered by the play worker (transport.js); before it answers,
 * what the snapshot holds is answered from there, and the rest waits.
 * @param {string} path @param {RequestInit} [init] @returns {Promise<Response>} */
export async function send(path, init = {}) {
  const method = (init.method || "GET").toUpperCase();
  const here = answerHere(method, path);
  if (here) return here;
  wanted();
  await ready;
  if (first) {
    // Every request waits until the built table's game is dealt (by the first of them):
    // one sent meanwhile (a deal asked for in the address) would otherwise be answered
    // before it, and then replaced by it.
    const to = await (firstGame ||= dealFirst());
    // The store held a game already (the last table lost, the store kept): a move made
    // on the built table is never applied to that other game (the worker answers it as
    // made on an unknown game); the page's look again (a GET) shows the stored game.
    if (path.startsWith(`/api/games/${first.id}`) && to.id && (to.made || method === "GET")) {
      path = path.replace(first.id, to.id);
    }
  }
  /** @type {Record<string, string>} */
  const headers = {};
  new Headers(init.headers).forEach((v, k) => { headers[k] = v; });
  const res = await post(method, path, headers, typeof init.body === "string" ? init.body : "");
  if (res.status === 200 && SNAPSHOT_PATHS.includes(path) && (method === "GET" || method === "PUT")) {
    keep(path, await res.clone().text());
  }
  return res;
}

/** One request to the play worker. @param {string} method @param {string} path
 * @param {Record<string, string>} headers @param {string} body @returns {Promise<Response>} */
function post(method, path, headers, body) {
  const wk = worker;
  if (!wk || gone) throw new TypeError("the game is open in another tab");
  const id = ++nextId;
  return new Promise((resolve) => {
    waiting.set(id, { resolve });
    wk.postMessage({ type: "request", id, method, path, headers, body });
  });
}

/** The game the worker dealt for the built table (``made``), or the one its store held
 * already. @type {Promise<{id: string | null, made: boolean}> | null} */
let firstGame = null;

/** Deal the built table's game in the worker, unless its store has a game on the table. */
async function dealFirst() {
  const json = { "content-type": "application/json" };
  const current = await post("GET", "/api/games/current", {}, "");
  if (current.status === 200) return { id: String((await current.json()).id), made: false };
  const made = await post("POST", "/api/games", json, JSON.stringify(first?.deal));
  return made.ok ? { id: String((await made.json()).id), made: true } : { id: null, made: false };
}
