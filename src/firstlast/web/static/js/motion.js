// Card flight: the server's movements animated in turn, the gathering and dealing of a
// new deal, the celebration of a won game, a refused card springing back. Each moves
// the picture (app.model) and the elements together.

import { bindCard } from "./cards.js";
import { buriedAt, cardXY, layout, layoutPlaces, slotXY } from "./board.js";
import { PLACES, baseZ, flightMs, flowBeats, paceOf } from "./model.js";
import { app } from "./store.js";

/** @typedef {import("./api-types").Movement} Movement */
/** @typedef {import("./cards.js").CardEl} CardEl */

/** Flight time of one card at the current speed, ms: 0 (cards move at once) with the
 * animation off or where the player asks the system for less motion. */
export function flyTime() {
  return reducedMotion() ? 0 : flightMs(app.speed);
}

/** The gap between two moves of a flow at the current speed, ms (0: at once). */
export function moveGap() {
  const rate = paceOf(app.speed).moves_per_s;
  return flyTime() && rate ? 1000 / rate : 0;
}

/** Flights under way, each card's count (a card may leave again before it landed). */
const aloft = new Map();
/** Every flight under way, to wait for them all (``landed``). @type {Set<Promise<unknown>>} */
const inAir = new Set();

/** Resolves once every card in the air has landed. */
export async function landed() {
  while (inAir.size) await Promise.all([...inAir]);
}

/** Move one card as the server says, and animate it from its old to its new place: the
 * picture changes at once (a later move may take the card again), the flight follows,
 * ``delay`` ms later (the card waits where it was). ``lay``: lay out the two places now
 * (a group of movements lays them out once, after its last: ``launch``).
 * @param {Movement} mv @param {number} duration @param {number} [delay] @param {boolean} [lay] */
function animateMovement(mv, duration, delay = 0, lay = true) {
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
  if (duration > 0) el.classList.add("flying");
  if (lay) layoutPlaces([mv.from, mv.to], el, 0, false);
  const to = cardXY(mv.to, dst.length - 1);
  el.pos = to;
  el.style.transform = `translate(${to[0]}px, ${to[1]}px)`;
  if (duration <= 0) return Promise.resolve();
  el.classList.remove("buried");
  const card = el;
  aloft.set(card, (aloft.get(card) || 0) + 1);
  app.flights.flown += 1;
  app.flights.mostAloft = Math.max(app.flights.mostAloft, inAir.size + 1);
  const mid = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2 - Math.min(40, Math.hypot(to[0] - from[0], to[1] - from[1]) * 0.08)];
  const flight = card.animate(
    [
      { transform: `translate(${from[0]}px, ${from[1]}px) scale(1)` },
      { transform: `translate(${mid[0]}px, ${mid[1]}px) scale(1.07)`, offset: 0.5 },
      { transform: `translate(${to[0]}px, ${to[1]}px) scale(1)` },
    ],
    { duration, delay, fill: "backwards", easing: "cubic-bezier(.35,.1,.25,1)" },
  ).finished.catch(() => {}).then(() => {
    inAir.delete(flight);
    const left = (aloft.get(card) || 1) - 1;
    if (left > 0) { aloft.set(card, left); return; }
    aloft.delete(card);
    card.classList.remove("flying");
    // Landed: hidden now if others came to lie on it meanwhile.
    const list = app.model[card.place] || [];
    const i = list.indexOf(card);
    if (i >= 0) card.classList.toggle("buried", buriedAt(card.place, i, list.length));
  });
  inAir.add(flight);
  return flight;
}

/** Launch one beat's cards (a move's; a redeal's gathered waste a little staggered).
 * @param {Movement[]} movements @param {number} duration */
function launch(movements, duration) {
  const stagger = duration && movements.length > 1 ? Math.min(12, 600 / movements.length) : 0;
  if (movements.length === 1) return animateMovement(movements[0], duration);
  // A redeal's gathered waste: the places laid out once, not once a card.
  const all = movements.map((mv, i) => animateMovement(mv, duration, i * stagger, false));
  layoutPlaces([...new Set(movements.flatMap((mv) => [mv.from, mv.to]))], null, 0, false);
  return Promise.all(all);
}

/** When the next move of a flow may leave (performance.now), so that moves keep their
 * pace from one answer of the server to the next. */
let nextAt = 0;

/** Play ``movements`` (a Result's, in order) as a flow: a move every ``gapMs``, each
 * card flying ``duration`` ms, so that at a quick pace several are in the air at once.
 * Resolves once the last has left (``landed`` waits for the landings); the picture
 * then matches the Result. In order always: each move leaves after the one before.
 * @param {Movement[]} movements @param {number} gapMs @param {number} duration */
export async function flow(movements, gapMs, duration) {
  const now = performance.now();
  const beats = flowBeats(movements, gapMs, Math.max(now, nextAt));
  for (const beat of beats) {
    const wait = beat.at - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    launch(beat.movements, duration);
  }
  const last = beats[beats.length - 1];
  if (last) nextAt = last.at + gapMs * (last.movements.length > 1 ? 3 : 1);
}

/** Play ``movements`` (a Result's, in order) on the table, at the current pace: one by
 * one at a slow pace, a flow of overlapping flights at a quick one; resolves when every
 * card has landed.
 * @param {Movement[]} movements */
export async function animateMovements(movements) {
  const d = flyTime();
  if (!d) {
    for (const mv of movements) await animateMovement(mv, 0);
    return;
  }
  await flow(movements, Math.max(moveGap(), 0), d);
  await landed();
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
