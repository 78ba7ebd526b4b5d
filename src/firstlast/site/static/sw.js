// The static site's service worker (docs/site.md, "Offline and updates").
//
// Each build is one cache, named by its version, filled whole at install (every file of
// the build, checked against its hash) before it may serve: the site then loads with the
// network off, and a page is always served from one build, never a mix. A new build is
// a new sw.js (`firstlast site build` writes BUILD below); it installs beside the old
// one and waits until the page, told that an update is ready, asks it to take over.
//
// Every file is checked against its SHA-256 in BUILD before it is kept, and stamped with
// it (STAMP); each time it is served, its stamp and size are checked again (hashing 10 MB
// of Python's runtime on every visit would hold up the page's own files behind it). A
// damaged or missing copy is fetched again and kept (and the rest of the build with it,
// in the background, for a cache that was deleted); offline, the answer is a 503 naming
// the file, and the pages are told ({type: "missing", path}) so that they say so at once.

/** @typedef {{version: string, files: [string, number, string][]}} Build */
// Filled in by the build: this build's version and its files (path, size, sha256).
const BUILD = /** @type {Build} */ ({});

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const BASE = new URL("./", sw.location.href);
// Named by the site's path too: another firstlast site on the same origin keeps its own.
const PREFIX = `firstlast:${BASE.pathname}:`;
const CACHE = PREFIX + BUILD.version;
/** Files fetched at once while installing. */
const PARALLEL = 6;
/** The header a kept copy carries: the hash it was checked against when kept. */
const STAMP = "x-firstlast-sha256";
/** Each file of the build by its address. @type {Map<string, [string, number, string]>} */
const FILES = new Map(BUILD.files.map((f) => [new URL(f[0], BASE).href, f]));

/** Whether ``data`` hashes to ``hex``. @param {ArrayBuffer} data @param {string} hex */
async function sha256(data, hex) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") === hex;
}

/** Tell every page of the site how the install goes. @param {object} message */
async function tell(message) {
  for (const client of await sw.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    client.postMessage(message);
  }
}

/** One file of the build into ``cache``: from the browser's HTTP cache where it already
 * holds this very file (the first visit's page just loaded some), else from the network.
 * @param {Cache} cache @param {[string, number, string]} file */
async function fetchInto(cache, [path, , hash]) {
  const url = new URL(path, BASE).href;
  for (const mode of /** @type {RequestCache[]} */ (["force-cache", "reload"])) {
    const res = await fetch(url, { cache: mode });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    const body = await res.arrayBuffer();
    if (await sha256(body, hash)) {
      await cache.put(url, stamped(res, body, hash));
      return;
    }
  }
  throw new Error(`${path}: not the file of build ${BUILD.version}`);
}

async function install() {
  const cache = await caches.open(CACHE);
  const total = BUILD.files.reduce((n, f) => n + f[1], 0);
  let done = 0;
  const queue = [...BUILD.files];
  const runners = Array.from({ length: PARALLEL }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      await fetchInto(cache, file);
      done += file[1];
      tell({ type: "install", version: BUILD.version, done, total });
    }
  });
  try {
    await Promise.all(runners);
  } catch (err) {
    await caches.delete(CACHE); // a half-filled build never serves
    throw err;
  }
}

sw.addEventListener("install", (e) => e.waitUntil(install()));

sw.addEventListener("activate", (e) => {
  e.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await sw.clients.claim(); // the first visit's page is served from here at once
  })());
});

sw.addEventListener("message", (e) => {
  if (e.data && e.data.type === "activate") sw.skipWaiting();
  if (e.data && e.data.type === "version" && e.source) /** @type {Client} */ (e.source).postMessage({ type: "version", version: BUILD.version });
});

/** A copy of ``res`` whose body is ``body`` (read and checked against ``hash``), stamped
 * with it. @param {Response} res @param {ArrayBuffer | Blob} body @param {string} hash */
function stamped(res, body, hash) {
  const headers = new Headers(res.headers);
  headers.set(STAMP, hash);
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

/** The files of the build the cache lacks, fetched again (one refill at a time). @type {Promise<void> | null} */
let refilling = null;
function refill() {
  refilling ||= (async () => {
    try {
      const cache = await caches.open(CACHE);
      for (const file of BUILD.files) {
        if (!(await cache.match(new URL(file[0], BASE).href))) await fetchInto(cache, file).catch(() => {});
      }
    } finally {
      refilling = null;
    }
  })();
  return refilling;
}

/** A file of the build, checked: from the cache when its copy is whole, else from the
 * network (checked, and kept again), else a 503 that names it (the pages are told).
 * @param {string} key @param {[string, number, string]} file @param {(p: Promise<void>) => void} later */
async function serveChecked(key, file, later) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit && hit.headers.get(STAMP) === file[2]) {
    const body = await hit.blob();
    if (body.size === file[1]) return stamped(hit, body, file[2]);
  }
  try {
    const res = await fetch(key, { cache: "reload" });
    const body = await res.arrayBuffer();
    if (res.ok && await sha256(body, file[2])) {
      await cache.put(key, stamped(res, body, file[2]));
      later(refill()); // the cache may have lost more than this file (deleted whole)
      return stamped(res, body, file[2]);
    }
  } catch { /* offline: said below */ }
  await tell({ type: "missing", path: file[0] });
  return new Response(`${file[0]}: damaged or missing, and offline`, {
    status: 503, headers: { "content-type": "text/plain; charset=utf-8", "x-firstlast-missing": file[0] } });
}

sw.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== BASE.origin || !url.pathname.startsWith(BASE.pathname)) return;
  // The page at the site's address (with any ?deal=… query) is index.html.
  const key = url.pathname === BASE.pathname ? new URL("index.html", BASE).href : url.origin + url.pathname;
  const file = FILES.get(key);
  e.respondWith((async () => {
    if (file) return serveChecked(key, file, (p) => e.waitUntil(p));
    const hit = await (await caches.open(CACHE)).match(key);
    return hit || fetch(e.request);
  })());
});
