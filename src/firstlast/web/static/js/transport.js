// How the page reaches the game, chosen once, here: over HTTP to `firstlast play`, or,
// on the static site (its index.html carries <meta name="firstlast-transport"
// content="worker">), to the Web Worker that runs the same Python app in the browser
// (site.js, docs/site.md). Both answer with a fetch Response; no other module knows
// which one it talks to.

// (Node's unit tests load the page's pure modules with no document, or a stub of one.)
const meta = typeof document === "undefined" || typeof document.querySelector !== "function" ? null
  : document.querySelector('meta[name="firstlast-transport"]');
/** Whether the page runs as the static site (its game in this browser, not on a server). */
export const onSite = meta?.getAttribute("content") === "worker";

/** @typedef {(path: string, init?: RequestInit) => Promise<Response>} Send */

/** @type {Send} */
export const send = onSite
  ? (await import("./site.js")).send
  : (path, init) => fetch(path, init);
