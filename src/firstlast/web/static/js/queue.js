// Player actions run one after another, so that animations never overlap, and none is
// dropped: ten quick clicks on the stock are ten turns (only a runaway flood past
// QUEUE_MAX is cut, a key held down is not a thousand moves).

import { app } from "./store.js";

/** Queued actions kept at most. */
export const QUEUE_MAX = 200;

/** Run ``fn`` after the actions already queued. While a finished game is being
 * replayed, only the replay's own steps (``forReplay``) run; the rest are dropped.
 * @param {() => unknown} fn @param {boolean} [forReplay] @returns {Promise<void>} */
export function enqueue(fn, forReplay = false) {
  if (!!app.replay !== forReplay) return Promise.resolve();
  if (app.queue.length >= QUEUE_MAX) return Promise.resolve();
  return new Promise((resolve) => {
    app.queue.push(async () => {
      try { await fn(); } finally { resolve(); }
    });
    if (!app.busy) drain();
  });
}

async function drain() {
  app.busy = true;
  document.body.classList.add("busy");
  // Told to the page (app.js: the focus is kept on a control that can act, focus.js).
  document.dispatchEvent(new Event("firstlast:busy"));
  while (app.queue.length) {
    const job = /** @type {() => Promise<void>} */ (app.queue.shift());
    await job();
  }
  app.busy = false;
  document.body.classList.remove("busy");
  document.dispatchEvent(new Event("firstlast:idle"));
}
