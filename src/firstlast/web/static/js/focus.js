// Where the keyboard focus goes when the control that had it can no longer take it (a
// card played away, a button disabled or hidden in the closed menu, a dialog closed
// whose opener is gone): to the next sensible control, never to <body>, where a
// keyboard or screen-reader player would have to find the table again from the top.

import { hintPlace } from "./model.js";
import { app } from "./store.js";

/** The element focused when the running actions began (it may lose the focus meanwhile). */
/** @type {HTMLElement | null} */
let before = null;

/** Note the focused element: the actions queued now may take the focus from it. */
export function noteFocus() {
  const el = document.activeElement;
  if (el instanceof HTMLElement && el !== document.body && !el.closest("dialog, #ending")) before = el;
}

/** Whether ``el`` can hold the focus usefully now: shown, enabled, not inert, and, for a
 * place on the table, able to act (describePlaces makes it a button).
 * @param {Element | null | undefined} el @returns {boolean} */
export function usable(el) {
  if (!(el instanceof HTMLElement) || !el.isConnected || el.offsetParent === null || el.closest("[inert], [hidden]")) return false;
  if (/** @type {HTMLButtonElement} */ (el).disabled) return false;
  if (el.classList.contains("slot")) return el.getAttribute("role") === "button";
  return el.tabIndex >= 0;
}

/** The control to focus after ``from`` lost the focus (or could not get it back): itself
 * if it still can; the menu button for a control of the closed menu; after the end, the
 * banner's button that reopens the result (not New, which Space would press); in a
 * replay, its Forward button; else on the table the same place, the place the hint
 * points at, the stock, any place that can act, then Undo and Step.
 * @param {HTMLElement | null} from @returns {HTMLElement | null} */
export function nextControl(from) {
  if (from && usable(from)) return from;
  const byId = (/** @type {string} */ id) => document.getElementById(id);
  const s = app.state;
  /** @type {(Element | null | undefined)[]} */
  const candidates = [];
  if (from && from.closest("#more")) candidates.push(byId("b-more"));
  if (app.replay) candidates.push(byId("r-fwd"), byId("r-back"), byId("r-exit"));
  else if (s && s.status !== "playing") candidates.push(document.querySelector("#end-banner button"), byId("b-new"));
  const place = from && from.dataset.place;
  if (place) candidates.push(app.slots[place]);
  const hinted = s && hintPlace(s.hint);
  if (hinted) candidates.push(app.slots[hinted]);
  candidates.push(app.slots.stock, ...document.querySelectorAll("#board .slot.can-act"), byId("b-undo"), byId("b-step"));
  return /** @type {HTMLElement | null} */ (candidates.find(usable) || null);
}

/** After the queued actions: if the focus was lost (on <body>, on a place that can no
 * longer act, on a control now disabled or hidden), put it on ``nextControl``. Dialogs
 * and the end panel keep their own focus. */
export function keepFocus() {
  const ending = document.getElementById("ending");
  if (document.querySelector("dialog[open]") || (ending && !ending.hidden)) return;
  const active = document.activeElement;
  if (usable(active)) {
    before = null;
    return;
  }
  const from = active instanceof HTMLElement && active !== document.body ? active : before;
  const target = nextControl(from);
  before = null;
  if (target) target.focus({ preventScroll: true }); // the table is in view; no jump on a phone
}

/** Focus rings for the keyboard only (issue 26): the page notes how the player last
 * acted, on ``<html data-input>`` ("pointer" after a press, "keyboard" after a key other
 * than a modifier); a11y.css hides the ring while it is "pointer", so that a focus the
 * page moves after a click (a dialog's opener, the next place on the table) shows none. */
export function watchInput() {
  const root = document.documentElement;
  /** @param {string} how */
  const mark = (how) => { if (root.dataset.input !== how) root.dataset.input = how; };
  document.addEventListener("pointerdown", () => mark("pointer"), { capture: true, passive: true });
  document.addEventListener("keydown", (e) => {
    if (!["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"].includes(e.key)) mark("keyboard");
  }, { capture: true, passive: true });
}
