// The page's one shared state: what the server last said, the picture of the table, and
// the controls' own state. Every module reads and writes it here; it is also
// window.firstlast, for the end-to-end tests and the curious.

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").ReplayStep} ReplayStep */
/** @typedef {import("./api-types").Settings} Settings */
/** @typedef {import("./cards.js").CardEl} CardEl */

import { SETTING_DEFAULTS } from "./vocabulary.js";

/**
 * A finished game being replayed.
 * @typedef {object} ReplayRun
 * @property {GameState} initial the deal as dealt
 * @property {ReplayStep[]} steps
 * @property {number} index steps shown
 * @property {boolean} playing
 * @property {string | null} back the game to show again on leaving
 */

/**
 * @typedef {object} App
 * @property {GameState | null} state the server's State (a replay's own while replaying)
 * @property {Record<string, CardEl[]>} model place -> card elements, bottom to top
 * @property {CardEl[]} els all 104 card elements
 * @property {Record<string, HTMLElement>} slots place -> slot element
 * @property {HTMLElement | null} info the centre panel (need, passes)
 * @property {number} cw card width, px (0 until the table is measured)
 * @property {number} fan px between fanned pile cards (0: piles stack)
 * @property {boolean | undefined} compact the card faces drawn with large indices
 * @property {number} speed 0 off … 3 fast
 * @property {boolean} showChance
 * @property {boolean} busy an action is running
 * @property {(() => Promise<void>)[]} queue actions waiting
 * @property {boolean} auto autoplay on
 * @property {ReplayRun | null} replay
 * @property {boolean} hintOn
 * @property {number} chanceTimer
 * @property {number} chanceSeq the latest chance request (older answers are dropped)
 * @property {boolean} chanceBroken no odds here: the meter stays hidden
 * @property {string | null} chanceFor the game the meter's figure is about
 * @property {string | null} endShownFor "id:moves" of the ending last shown
 * @property {boolean} quietEnd the page has shown no game yet: the first, if over, opens
 *   no end panel (a reload; its banner reopens it)
 * @property {CardEl | null} dragging the card under the pointer
 * @property {Settings} settings the server's, once loaded
 * @property {{flown: number, mostAloft: number}} flights cards flown since the page
 *   opened, and the most in the air at once (motion.js; the tests see the flow overlap)
 */

/** @type {App} */
export const app = {
  state: null,
  model: {},
  els: [],
  slots: {},
  info: null,
  cw: 0,
  fan: 0,
  compact: undefined,
  speed: 2,
  showChance: true,
  busy: false,
  queue: [],
  auto: false,
  replay: null,
  hintOn: false,
  chanceTimer: 0,
  chanceSeq: 0,
  chanceBroken: false,
  chanceFor: null,
  endShownFor: null,
  quietEnd: true,
  dragging: null,
  /** The one declaration's defaults (play/settings.py, through vocabulary.js). @type {Settings} */
  settings: /** @type {Settings} */ ({ ...SETTING_DEFAULTS }),
  flights: { flown: 0, mostAloft: 0 },
};

/** The page's element for ``sel``; the page is static, so a missing one is a bug.
 * @param {string} sel @returns {HTMLElement} */
export function $(sel) {
  const el = document.querySelector(sel);
  if (!(el instanceof HTMLElement)) throw new Error(`no ${sel} on the page`);
  return el;
}

/** @param {string} sel */
export const $button = (sel) => /** @type {HTMLButtonElement} */ ($(sel));
/** @param {string} sel */
export const $input = (sel) => /** @type {HTMLInputElement} */ ($(sel));
/** @param {string} sel */
export const $select = (sel) => /** @type {HTMLSelectElement} */ ($(sel));
/** @param {string} sel */
export const $dialog = (sel) => /** @type {HTMLDialogElement} */ ($(sel));

/** The live region the player can hear now. A modal dialog (and the end panel, whose
 * table behind is inert) hides everything outside it from screen readers, #announce
 * included: each has a region of its own ([data-live], made by live.js), and the one
 * on top is used. @returns {HTMLElement | null} */
export function liveRegion() {
  const open = /** @type {HTMLDialogElement[]} */ ([...document.querySelectorAll("dialog[open]")]);
  // The dialog opened last is on top (a question over the deal dialog).
  const top = open.sort((a, b) => Number(b.dataset.openedAt || 0) - Number(a.dataset.openedAt || 0))[0];
  const ending = document.getElementById("ending");
  const holder = top || (ending && !ending.hidden ? ending : null);
  const own = holder && /** @type {HTMLElement | null} */ (holder.querySelector("[data-live]"));
  return own || document.getElementById("announce");
}

/** Say ``text`` to screen readers, politely (the live region the player can hear now:
 * ``liveRegion``). The region is emptied first, so that the same words said twice are
 * said twice. ``delay`` (ms) gives a region just shown (a dialog opening) time to be
 * heard as one.
 * @param {string | null | undefined} text @param {number} [delay] */
export function announce(text, delay = 30) {
  const box = liveRegion();
  if (!box || !text) return;
  box.textContent = "";
  setTimeout(() => { box.textContent = text; }, delay);
}

/** Hand ``text`` to the browser as a file download (through a Blob: on the static site
 * the answer comes from a worker, so a plain link to the API would lead nowhere).
 * @param {string} name @param {string} text @param {string} type */
export function saveFile(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Call ``use`` with the text of each file the player picks in ``input`` (the field is
 * emptied at once, so that the same file can be picked again). The text is the file's
 * as it is, a byte-order mark kept (``file.text()`` would drop one): the server's reader
 * ignores one and refuses two, as ``firstlast replay`` and ``import`` do with the file.
 * @param {HTMLInputElement} input @param {(text: string) => Promise<void>} use */
export function onFileText(input, use) {
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (file) await use(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await file.arrayBuffer()));
  });
}
