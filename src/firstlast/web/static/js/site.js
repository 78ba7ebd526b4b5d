// The static site's side of the page (docs/site.md): loaded by transport.js only where
// the page is the site. It starts the game in this browser and is the page's `send`:
//
// 1. the service worker (sw.js) installs the whole build for offline use, and the page
//    waits until it serves (first visit: so that no file is fetched twice);
// 2. one tab holds the game (Web Locks): a tab opened later asks the holder to let go,
//    the holder finishes what it was doing, stores it and says that the game moved;
// 3. the play worker (static/site/worker.js: Pyodide and the same Python app) starts,
//    with the loading screen telling each step;
// 4. every request of the page is posted to that worker and answered as a Response.
//
// Its words come from the catalogs shipped beside it (static/site/i18n/), since the
// page's own catalog comes from Python, which is what is loading.

import { detectLang } from "./lang.js";

const base = new URL("../../", import.meta.url);
// Two sites on one origin (two project pages on one host) must not share a lock or a
// channel: both are named by the site's own path (so are its storage and its cache).
const LOCK = `firstlast-game:${base.pathname}`;
const CHANNEL = `firstlast-site:${base.pathname}`;

/** @type {Record<string, string>} */
let words = {};
/** @param {string} key @param {Record<string, string | number>} [args] */
function w(key, args = {}) {
  return (words[key] || key).replace(/\{(\w+)\}/g, (_, k) => String(args[k] ?? ""));
}

// ---------------------------------------------------------------- the loading screen

/** @type {HTMLElement | null} */
let screen = null;

async function loadWords() {
  try {
    const res = await fetch(new URL(`static/site/i18n/${detectLang()}.json`, base));
    if (res.ok) words = await res.json();
  } catch { /* offline before the first install: the keys show, the game still starts */ }
}

/** The loading screen: the build puts it in the page (so that nothing else shows
 * first); made here when missing. Its bar runs once from 0 to 100 %: the files saved for
 * offline play (a first visit) take the first half, Python's steps the rest. Only a new
 * step is said to screen readers (``.site-step`` is the polite live line), not each MB.
 * @param {string} step the step, in words @param {number} fraction 0…1 of the whole
 * @param {string} [detail] shown, not said (the MB counter) */
function loading(step, fraction, detail = "") {
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

/** Whether this visit filled the offline cache first (its bar's first half). */
let installing = false;

function loaded() {
  screen?.remove();
  screen = null;
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

// ---------------------------------------------------------------- one tab holds the game

/** @type {Worker | null} */
let worker = null;
/** @type {Map<number, {resolve: (r: Response) => void}>} */
const waiting = new Map();
let nextId = 0;
/** @type {(() => void) | null} */
let letGo = null;
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
// would not share the service worker's).
/** @type {Worker | null} */
let booted = "serviceWorker" in navigator && !navigator.serviceWorker.controller ? null : bootWorker();

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
  await loadWords();
  loading(w("site.loading.step0"), 0);
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => false);
  await serviceWorker();
  try {
    await takeGame();
  } catch (err) {
    loaded();
    panel(w("site.failed", { reason: String(err instanceof Error ? err.message : err) }), w("site.retry"),
      () => location.reload());
    throw err;
  }
  closePanel();
  loaded();
}

ready = start();

/** The page's requests, answered by the play worker (transport.js).
 * @param {string} path @param {RequestInit} [init] @returns {Promise<Response>} */
export async function send(path, init = {}) {
  await ready;
  const wk = worker;
  if (!wk || gone) throw new TypeError("the game is open in another tab");
  const id = ++nextId;
  /** @type {Record<string, string>} */
  const headers = {};
  new Headers(init.headers).forEach((v, k) => { headers[k] = v; });
  return new Promise((resolve) => {
    waiting.set(id, { resolve });
    wk.postMessage({ type: "request", id, method: (init.method || "GET").toUpperCase(), path, headers,
      body: typeof init.body === "string" ? init.body : "" });
  });
}
