// The table in the DOM: a slot per place, the 104 card elements, and the layout that
// puts each card where the picture (app.model) has it. The picture follows the
// server's state; reconcile() makes it match a state at once, motion.js moves it card
// by card.

import { bindCard, buildSprite, makeCardElement } from "./cards.js";
import { cardWords, getLang, placeName, plural, rankName, t } from "./i18n.js";
import {
  PLACES, STACKS, baseZ, canPlay, isSource, pressable, refusalFor, stackOffset, stateModel, tableGeometry,
} from "./model.js";
import { $, app } from "./store.js";
import { DECK_SIZE, PLACE_KINDS, REDEAL, ROWS, STOCK, WASTE } from "./vocabulary.js";

/** @type {Record<string, string>} */
const KINDS = PLACE_KINDS;

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./cards.js").CardEl} CardEl */
/** @typedef {import("./model.js").Picture} Picture */

export const board = $("#board");
export const layer = $("#cards");
export const table = $("#table");

/**
 * What the slots and cards do when used.
 * @typedef {object} BoardHandlers
 * @property {() => void} turn the stock clicked (or Enter on it)
 * @property {(place: string) => void} play Enter on a place a card is played from
 * @property {(e: PointerEvent) => void} press a pointer pressed on a card
 */

/** Create the slots and the card elements, once. @param {BoardHandlers} on */
export function buildBoard(on) {
  for (const place of PLACES) {
    const slot = document.createElement("div");
    slot.className = `slot slot-${place[0] === "s" || place[0] === "w" ? place : place[0]}`;
    slot.dataset.place = place;
    const k = place.length === 2 ? Number(place[1]) : 0;
    if (k) {
      slot.style.setProperty("--col", String(k));
      // The tall layout (phones upright) lays columns 5–8 under 1–4.
      slot.style.setProperty("--col4", String(((k - 1) % 4) + 1));
      slot.classList.toggle("half2", k > 4);
    }
    if (place[0] === "P") slot.innerHTML = `<span class="pill" aria-hidden="true"></span>`;
    if (place[0] === "R") slot.innerHTML = `<span class="key" aria-hidden="true">${k}</span>`;
    if (place === "F8") slot.innerHTML = `<span class="tag" aria-hidden="true"></span>`;
    if (place === "stock") {
      slot.innerHTML = `<span class="stock-count" aria-hidden="true"></span><svg class="redeal-mark" viewBox="0 0 24 24" aria-hidden="true"><use href="#i-restart"/></svg>`;
      slot.addEventListener("click", () => { if (slot.getAttribute("role") === "button") on.turn(); });
    }
    if (place === "waste") slot.innerHTML = `<span class="stock-count" aria-hidden="true"></span>`;
    // Only a place that can act is a button (describePlaces says which, from the state).
    slot.setAttribute("role", "img");
    slot.addEventListener("keydown", (e) => {
      if (slot.getAttribute("role") !== "button" || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      e.stopPropagation();
      if (place === "stock") on.turn();
      else on.play(place);
    });
    board.appendChild(slot);
    app.slots[place] = slot;
  }
  // Row names, for the upright phone's two halves (shown there only: table.css), where
  // the first row of 5–8 lies right under the reserve of 1–4 (issue 26).
  for (const [row, half] of [["first", 1], ["reserve", 1], ["first", 2], ["reserve", 2]]) {
    const name = document.createElement("div");
    name.className = `row-name row-${row} half${half}`;
    name.dataset.row = String(row);
    name.setAttribute("aria-hidden", "true"); // the places say their names to the ear
    board.appendChild(name);
  }
  const info = document.createElement("div");
  info.className = "slot-info";
  info.setAttribute("aria-hidden", "true"); // the status bar says the same in words
  info.innerHTML = `<div class="need-big"><span class="need-caption"></span><span class="need-rank"></span></div>`;
  board.appendChild(info);
  app.info = info;
  for (let i = 0; i < DECK_SIZE; i++) {
    const el = makeCardElement();
    el.addEventListener("pointerdown", on.press);
    layer.appendChild(el);
    app.els.push(el);
  }
}

/** Size the cards to the table (on load and on every resize). */
export function fit() {
  const r = table.getBoundingClientRect();
  const { wide, tall, cw, fan } = tableGeometry(r.width, r.height);
  app.fan = fan;
  app.cw = cw;
  // Out of the layout while the slots move: cards still at their old places (the stock
  // on the right, upright) would widen the page for a moment, and a phone keeps the width.
  layer.style.display = "none";
  board.style.setProperty("--fan", `${fan}px`);
  board.style.setProperty("--cw", `${cw}px`);
  const compact = cw < 72;
  if (compact !== app.compact) {
    app.compact = compact;
    buildSprite(getLang(), compact);
  }
  board.classList.toggle("small", cw < 56);
  board.classList.toggle("wide", wide);
  board.classList.toggle("narrow", !wide);
  board.classList.toggle("tall", tall);
  layout(null, 0);
  layer.style.display = "";
  orderSlots();
}

/** Put the slots in the page in the order the eye reads them (row by row, left to
 * right), so that Tab walks the table as it is drawn in every layout (upright, reserve
 * 1–4 comes before the privileged card under it). */
function orderSlots() {
  const cw = app.cw || 80;
  const row = (/** @type {HTMLElement} */ s) => Math.round(s.offsetTop / (cw * 0.5));
  const slots = PLACES.map((p) => app.slots[p]);
  const seen = slots.slice().sort((a, b) => row(a) - row(b) || a.offsetLeft - b.offsetLeft);
  const shown = [...board.querySelectorAll(":scope > .slot")];
  if (seen.every((s, i) => s === shown[i])) return;
  const focused = document.activeElement;
  for (const s of seen) board.append(s);
  if (focused instanceof HTMLElement && focused !== document.activeElement) focused.focus({ preventScroll: true });
}

/** Make the picture match ``state`` (after animations, or at once on load/restart).
 * @param {GameState} state @param {number} [duration] ms to slide cards that moved */
export function reconcile(state, duration = 0) {
  const target = stateModel(state);
  // Cards already shown face up somewhere keep their element; a face-down stock card's
  // element may still carry an old binding (after a redeal), so the stock is left out.
  /** @type {Map<number, CardEl>} */
  const byId = new Map();
  for (const place of PLACES) {
    if (place === "stock" || !app.model[place]) continue;
    for (const el of app.model[place]) if (el.cardId !== null) byId.set(el.cardId, el);
  }
  /** @type {Set<CardEl>} */
  const used = new Set();
  /** @type {Record<string, (CardEl | null)[]>} */
  const model = {};
  /** @type {[string, number, import("./api-types").Card][]} */
  const pending = [];
  for (const place of PLACES) {
    if (place === "stock") continue;
    model[place] = target[place].map((card, i) => {
      const el = "id" in card ? byId.get(card.id) : undefined;
      if (el && !used.has(el)) {
        used.add(el);
        return el;
      }
      if ("id" in card) pending.push([place, i, card]);
      return null;
    });
  }
  // Free elements: those in the stock first (so a turned card comes off the stock).
  const oldStock = app.model.stock || [];
  const free = [...oldStock.slice().reverse(), ...app.els].filter((el, i, arr) => !used.has(el) && arr.indexOf(el) === i);
  for (const [place, i, card] of pending) {
    const el = /** @type {CardEl} */ (free.shift());
    used.add(el);
    bindCard(el, card);
    model[place][i] = el;
  }
  /** @type {Record<string, CardEl[]>} */
  const placed = {};
  for (const place of PLACES) {
    if (place === "stock") continue;
    placed[place] = /** @type {CardEl[]} */ (model[place]);
    for (const el of placed[place]) el.up = true;
  }
  // The rest are the stock: keep their order where they were already in the stock.
  const stockEls = free.filter((el) => !used.has(el));
  stockEls.sort((a, b) => oldStock.indexOf(a) - oldStock.indexOf(b));
  placed.stock = target.stock.map((entry, i) => {
    const el = stockEls[i];
    bindCard(el, null, entry.deck);
    el.up = false;
    return el;
  });
  app.model = placed;
  layout(null, duration);
}

/** The top-left corner of ``place``'s slot in the card layer, px.
 * @param {string} place @returns {[number, number]} */
export function slotXY(place) {
  const s = app.slots[place];
  return [s.offsetLeft, s.offsetTop];
}

/** Where the ``i``-th card of ``place`` lies, px (``slot``: the place's ``slotXY``, when
 * the caller has read it already). @param {string} place @param {number} i
 * @param {[number, number]} [slot] @returns {[number, number]} */
export function cardXY(place, i, slot = slotXY(place)) {
  const [sx, sy] = slot;
  const [ox, oy] = stackOffset(place, i, app.fan, app.cw || 80);
  return [sx + ox, sy + oy];
}

/** Put every card at its place; ``moving`` (an element) is left to its animation, as
 * is the card being dragged. Resolves when the slides of ``duration`` ms have ended.
 * @param {CardEl | null} moving @param {number} duration */
export function layout(moving, duration) {
  return layoutPlaces(PLACES, moving, duration, true);
}

/** Whether the ``i``-th of ``n`` cards at ``place`` is hidden under the two on top. A card
 * still in the air is not hidden: it is told again when it lands (motion.js).
 * @param {string} place @param {number} i @param {number} n */
export function buriedAt(place, i, n) {
  return STACKS.has(place) && i < n - 2 && !(app.fan && place[0] === "P");
}

/** ``layout`` for some places only (a card's flight: where it left, where it goes);
 * ``describe``: tell the places' words again (describePlaces, once a move is over).
 * @param {readonly string[]} places @param {CardEl | null} moving @param {number} duration @param {boolean} describe */
export function layoutPlaces(places, moving, duration, describe) {
  /** @type {Promise<unknown>[]} */
  const anims = [];
  // Every slot is read before any card is written: a read after a write makes the
  // browser lay the page out again, once per card (a phone's whole redraw, each move).
  const slots = places.map(slotXY);
  places.forEach((place, p) => {
    const list = app.model[place] || [];
    const n = list.length;
    list.forEach((el, i) => {
      const [x, y] = cardXY(place, i, slots[p]);
      el.place = place;
      el.index = i;
      el.classList.toggle("down", !el.up);
      if (!el.classList.contains("flying")) el.classList.toggle("buried", buriedAt(place, i, n));
      el.style.zIndex = String(baseZ(place) + i);
      el.setAttribute("aria-hidden", "true");
      if (el === moving || el === app.dragging) return;
      const old = el.pos;
      el.pos = [x, y];
      el.style.transform = `translate(${x}px, ${y}px)`;
      if (duration > 0 && old && (Math.abs(old[0] - x) > 1 || Math.abs(old[1] - y) > 1)) {
        anims.push(el.animate(
          [{ transform: `translate(${old[0]}px, ${old[1]}px)` }, { transform: `translate(${x}px, ${y}px)` }],
          { duration, easing: "cubic-bezier(.25,.8,.3,1)" },
        ).finished.catch(() => {}));
      }
    });
  });
  if (describe) describePlaces();
  return Promise.all(anims);
}

/** Each place's name in words (for screen readers), and whether it is a button: only
 * places that can act are (the stock while the game goes on; a card that can be played
 * now, or whose refusal is worth a press: a reserve card, the privileged card, the
 * waste's top in variant V2). Run after every new state (setState) and layout. */
export function describePlaces() {
  const s = app.state;
  const replaying = !!app.replay;
  for (const place of PLACES) {
    const slot = app.slots[place];
    const list = app.model[place] || [];
    const n = place === STOCK && s && !replaying ? s.stock_count : list.length;
    const top = list[list.length - 1];
    const card = top && top.up && top.card ? top.card : null;
    let label;
    let button = false;
    if (KINDS[place] === "pile") {
      const k = ROWS.pile.indexOf(place);
      const name = placeName(place);
      if (n === 13) label = t("aria.pile.done", { pile: name });
      else if (s && s.active === k && s.need_card) label = t("aria.pile.base", { pile: name, card: cardWords(s.need_card) });
      else if (s && s.active === k && s.need) label = t("aria.pile.needs", { pile: name, n, rank: rankName(s.need, "a") });
      else label = t("aria.pile.count", { pile: name, n });
    } else if (place === STOCK) {
      label = plural("aria.stock", n);
      button = !!s && s.status === "playing" && !replaying;
      // What a press does: the stock's move, or, where the state refuses it (no redeal
      // left after an undo at the end), why not (said from the state's refusal).
      const refused = s && refusalFor(s, s.stock_move);
      if (button && s && refused) label = t("aria.action", { what: label, action: refused.text });
      else if (button && s) label = t("aria.action", { what: label, action: t(s.stock_move === REDEAL ? "redeal_hint" : "turn_hint") });
    } else if (place === WASTE) {
      label = plural("aria.waste", n);
      if (card) label = t("aria.waste.top", { count: label, card: cardWords(card) });
      button = pressable(s, place, n, replaying);
    } else {
      const name = placeName(place);
      if (!card) label = t("aria.place.empty", { place: name });
      else if (s && s.privileged === place) label = t("aria.place.privileged", { place: name, card: cardWords(card) });
      else label = t("aria.place.card", { place: name, card: cardWords(card) });
      button = pressable(s, place, n, replaying);
    }
    // Only a card the state says can play now looks movable (and can be dragged).
    list.forEach((el, i) => {
      const topCard = el.up && isSource(place, i, list.length) && i === list.length - 1;
      el.classList.toggle("source", topCard && canPlay(s, place, replaying));
      el.classList.toggle("pressable", topCard && pressable(s, place, list.length, replaying));
    });
    slot.setAttribute("aria-label", label);
    slot.setAttribute("role", button ? "button" : "img");
    if (button) slot.tabIndex = 0;
    // A focused place that stops acting (its card flying away) keeps the focus for now
    // (-1: out of the Tab order), or the browser would drop it on <body>; focus.js moves
    // it on once the action has ended.
    else if (slot === document.activeElement) slot.tabIndex = -1;
    else slot.removeAttribute("tabindex");
    slot.classList.toggle("can-act", button);
  }
}

/** Empty places show their names, as the rules and the refusals use them. */
export function labelSlots() {
  for (const place of PLACES) {
    app.slots[place].dataset.label = place === STOCK || place === WASTE ? t(place) : place;
  }
  for (const el of board.querySelectorAll(".row-name")) {
    el.textContent = t(/** @type {HTMLElement} */ (el).dataset.row === "first" ? "row.first" : "row.reserve");
  }
}

/** What the page shows lying where: face-up cards as bound, the stock by backs only.
 * @returns {Picture} */
export function picture() {
  /** @type {Picture} */
  const p = {};
  for (const place of PLACES) {
    p[place] = (app.model[place] || []).map((el) =>
      place !== "stock" && el.card ? el.card : { anon: /** @type {const} */ (true), deck: /** @type {1 | 2} */ (el.deck) });
  }
  return p;
}
