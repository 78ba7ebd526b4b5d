// Cards under the pointer (mouse, touch, pen): a press on the stock turns, a click on a
// playable card plays it, a drag onto the active pile plays it from where it is let go,
// anywhere else it springs back. Only a card the state says can play now (class
// "source", board.js) is dragged; a click on one whose move is refused ("pressable":
// a reserve card, say) explains the refusal; other cards do nothing.

import { board, layer } from "./board.js";
import { playFrom, send, turnStock } from "./controller.js";
import { t } from "./i18n.js";
import { springBack } from "./motion.js";
import { enqueue } from "./queue.js";
import { app } from "./store.js";
import { toast } from "./view.js";

/** @typedef {import("./cards.js").CardEl} CardEl */

/**
 * The press being followed.
 * @typedef {object} Drag
 * @property {CardEl} el
 * @property {number} id the pointer
 * @property {number} x0 where it was pressed
 * @property {number} y0
 * @property {boolean} moved past the few pixels a click may wobble
 * @property {[number, number]} pos the card's place when pressed
 * @property {boolean} movable the state says it can play now: it may be dragged
 * @property {number} slop px the pointer may wander and still be a tap (a finger more than a mouse)
 */

/** @type {Drag | null} */
let drag = null;

/** @param {PointerEvent} e */
export function onPointerDown(e) {
  const el = /** @type {CardEl} */ (e.currentTarget);
  if (e.button !== 0 || app.replay) return;
  // A press on the stock turns, whatever card is under the pointer: a quick second
  // click often lands on the card still flying off the stock, and must not be lost.
  const r = app.slots.stock.getBoundingClientRect();
  if (el.place === "stock" || (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom)) {
    enqueue(turnStock);
    return;
  }
  const movable = el.classList.contains("source");
  if ((!movable && !el.classList.contains("pressable")) || !el.pos) return;
  e.preventDefault();
  el.setPointerCapture(e.pointerId);
  // A finger wobbles more than a mouse: a tap that moved a little is still a tap (it plays
  // the card), not a short drag that springs back.
  const slop = e.pointerType === "mouse" ? 6 : 16;
  drag = { el, id: e.pointerId, x0: e.clientX, y0: e.clientY, moved: false, pos: [el.pos[0], el.pos[1]], movable, slop };
  if (movable) app.dragging = el;
  el.addEventListener("pointermove", onPointerMove);
  el.addEventListener("pointerup", onPointerUp);
  el.addEventListener("pointercancel", onPointerUp);
}

/** @param {PointerEvent} e */
function onPointerMove(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const dx = e.clientX - drag.x0;
  const dy = e.clientY - drag.y0;
  if (!drag.movable || (!drag.moved && Math.hypot(dx, dy) < drag.slop)) return;
  if (!drag.moved) {
    drag.moved = true;
    drag.el.classList.add("dragging");
    drag.el.style.zIndex = "5000";
  }
  drag.el.style.transform = `translate(${drag.pos[0] + dx}px, ${drag.pos[1] + dy}px) scale(1.06) rotate(${Math.max(-6, Math.min(6, dx / 40))}deg)`;
  const over = dropTarget(e.clientX, e.clientY);
  for (const s of board.querySelectorAll(".drop-over")) s.classList.remove("drop-over");
  if (over) app.slots[over].classList.add("drop-over");
}

/** The pile slot (or its first-row card above it) under the pointer, generously.
 * @param {number} x @param {number} y @returns {string | null} */
function dropTarget(x, y) {
  for (let k = 1; k <= 8; k++) {
    for (const place of [`P${k}`, `F${k}`]) {
      const r = app.slots[place].getBoundingClientRect();
      const m = r.width * 0.12;
      if (x >= r.left - m && x <= r.right + m && y >= r.top - m && y <= r.bottom + m) return `P${k}`;
    }
  }
  return null;
}

/** @param {PointerEvent} e */
function onPointerUp(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const { el, moved } = drag;
  drag = null;
  app.dragging = null;
  el.removeEventListener("pointermove", onPointerMove);
  el.removeEventListener("pointerup", onPointerUp);
  el.removeEventListener("pointercancel", onPointerUp);
  for (const s of board.querySelectorAll(".drop-over")) s.classList.remove("drop-over");
  const place = el.place;
  if (!moved) {
    if (e.type === "pointerup") playFrom(place);
    return;
  }
  const over = e.type === "pointerup" ? dropTarget(e.clientX, e.clientY) : null;
  if (!over) {
    springBack(el);
    return;
  }
  const s = app.state;
  if (s && s.drop_target && over !== s.drop_target) {
    springBack(el);
    toast(t("only_active", { pile: s.drop_target }), "error");
    return;
  }
  // Dropped on the active pile: the card starts its flight from where it was let go.
  const rect = el.getBoundingClientRect();
  const b = layer.getBoundingClientRect();
  const home = el.pos;
  enqueue(async () => {
    el.pos = [rect.left - b.left, rect.top - b.top];
    const ok = await send(place);
    if (!ok) {
      el.pos = home;
      await springBack(el);
    }
    el.classList.remove("dragging");
  });
}
