// Card flight: the server's movements animated in turn, the gathering and dealing of a
// new deal, the celebration of a won game, a refused card springing back. Each moves
// the picture (app.model) and the elements together.

import { bindCard } from "./cards.js";
import { cardXY, layout, slotXY } from "./board.js";
import { PLACES, baseZ, flightMs } from "./model.js";
import { app } from "./store.js";

/** @typedef {import("./api-types").Movement} Movement */
/** @typedef {import("./cards.js").CardEl} CardEl */

/** Flight time of one card at the current speed, ms. */
export function flyTime() {
  return flightMs(app.speed);
}

/** Move one card as the server says, and animate it from its old to its new place.
 * @param {Movement} mv @param {number} duration */
async function animateMovement(mv, duration) {
  const src = app.model[mv.from];
  const dst = app.model[mv.to];
  let el;
  if (mv.from === "stock") {
    el = src.pop();
  } else {
    const i = src.findIndex((e) => e.cardId === mv.card.id);
    el = i >= 0 ? src.splice(i, 1)[0] : null;
  }
  if (!el) throw new Error(`picture out of step: ${mv.card.symbol} not at ${mv.from}`);
  if (mv.card) bindCard(el, mv.card);
  el.up = mv.face_up;
  dst.push(el);
  const from = el.pos || slotXY(mv.from);
  // The card turns over (if it does) while it flies, in most of the flight's time.
  el.style.setProperty("--flip-ms", `${Math.round(duration * 0.8)}ms`);
  layout(el, 0);
  const to = cardXY(mv.to, dst.length - 1);
  el.pos = to;
  el.style.transform = `translate(${to[0]}px, ${to[1]}px)`;
  if (duration <= 0) return;
  el.classList.add("flying");
  const mid = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2 - Math.min(40, Math.hypot(to[0] - from[0], to[1] - from[1]) * 0.08)];
  const a = el.animate(
    [
      { transform: `translate(${from[0]}px, ${from[1]}px) scale(1)` },
      { transform: `translate(${mid[0]}px, ${mid[1]}px) scale(1.07)`, offset: 0.5 },
      { transform: `translate(${to[0]}px, ${to[1]}px) scale(1)` },
    ],
    { duration, easing: "cubic-bezier(.35,.1,.25,1)" },
  );
  await a.finished.catch(() => {});
  el.classList.remove("flying");
}

/** Play ``movements`` (a Result's, in order) on the table.
 * @param {Movement[]} movements @param {string | null} move the move that caused them */
export async function animateMovements(movements, move) {
  const d = flyTime();
  if (move === "redeal" || movements.length > 12) {
    // A redeal gathers the whole waste: the cards fly together, a little staggered.
    const stagger = d ? Math.min(12, 600 / movements.length) : 0;
    const all = movements.map((mv, i) => new Promise((res) => {
      setTimeout(() => animateMovement(mv, d).then(res, res), i * stagger);
    }));
    await Promise.all(all);
    return;
  }
  for (const mv of movements) await animateMovement(mv, d);
}

// A new deal: the cards on the table are gathered onto the stock, then the first row
// and the reserve are dealt from it one by one, turning face up as they land.

/** Fly every visible card onto the stock, face down. */
export async function gather() {
  const d = flyTime();
  if (!d) return;
  const [sx, sy] = slotXY("stock");
  /** @type {Promise<unknown>[]} */
  const flights = [];
  for (const place of PLACES) {
    if (place === "stock") continue;
    for (const el of app.model[place] || []) {
      if (!el.pos || el.classList.contains("buried")) continue;
      const [x, y] = el.pos;
      el.style.setProperty("--flip-ms", `${Math.round(d * 0.8)}ms`);
      el.classList.add("down");
      el.pos = [sx, sy];
      el.style.transform = `translate(${sx}px, ${sy}px)`;
      flights.push(el.animate([{ transform: `translate(${x}px, ${y}px)` }, { transform: `translate(${sx}px, ${sy}px)` }],
        { duration: d, delay: flights.length * 8, easing: "cubic-bezier(.4,0,.2,1)" }).finished.catch(() => {}));
    }
  }
  await Promise.all(flights);
}

/** Deal the first row and the reserve (already in the picture) from the stock. */
export async function dealIn() {
  const d = flyTime();
  if (!d) return;
  const [sx, sy] = slotXY("stock");
  /** @type {CardEl[]} */
  const dealt = [];
  for (const row of "FR") for (let k = 1; k <= 8; k++) {
    const el = (app.model[`${row}${k}`] || [])[0];
    if (el) dealt.push(el);
  }
  dealt.forEach((el, i) => {
    el.style.setProperty("--flip-ms", "0ms");
    el.classList.add("down");
    el.style.transform = `translate(${sx}px, ${sy}px)`;
    el.style.zIndex = String(2000 - i);
  });
  await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  const step = d * 0.3;
  await Promise.all(dealt.map((el, i) => new Promise((resolve) => {
    setTimeout(() => {
      const [x, y] = el.pos || [sx, sy];
      el.style.setProperty("--flip-ms", `${Math.round(d * 0.8)}ms`);
      el.classList.remove("down");
      el.style.zIndex = String(3000 + i);
      el.style.transform = `translate(${x}px, ${y}px)`;
      el.animate([{ transform: `translate(${sx}px, ${sy}px)` }, { transform: `translate(${x}px, ${y}px)` }],
        { duration: d, easing: "cubic-bezier(.25,.8,.3,1)" }).finished.catch(() => {}).then(resolve);
    }, i * step);
  })));
  layout(null, 0);
}

/** Whether the player asked for less motion (the system's setting). */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A wave along the eight finished piles, on the table in full view (the end panel
 * opens once it is over); resolves when it has played. Nothing under reduced motion. */
export async function celebrate() {
  if (reducedMotion()) return;
  /** @type {Promise<unknown>[]} */
  const waves = [];
  for (let k = 1; k <= 8; k++) {
    const pile = app.model[`P${k}`];
    const el = pile && pile[pile.length - 1];
    if (!el || !el.pos) continue;
    const [x, y] = el.pos;
    const base = `translate(${x}px, ${y}px)`;
    waves.push(el.animate(
      [{ transform: base }, { transform: `${base} translateY(-18%) rotate(${k % 2 ? -4 : 4}deg) scale(1.06)` }, { transform: base }],
      { duration: 650, delay: k * 90, iterations: 2, easing: "cubic-bezier(.3,.6,.3,1)" },
    ).finished.catch(() => {}));
  }
  await Promise.all(waves);
}

/** A card let go where it cannot go flies back to its place.
 * @param {CardEl} el */
export async function springBack(el) {
  const from = el.style.transform;
  const [x, y] = el.pos || cardXY(el.place, el.index);
  el.style.transform = `translate(${x}px, ${y}px)`;
  el.classList.remove("dragging");
  const a = el.animate([{ transform: from }, { transform: `translate(${x}px, ${y}px)` }], {
    duration: 280, easing: "cubic-bezier(.3,1.5,.5,1)",
  });
  await a.finished.catch(() => {});
  el.style.zIndex = String(baseZ(el.place) + el.index);
}
