// The table: shows the server's state, animates the server's card movements, and sends
// the player's moves. The server (the rules engine) decides everything; the page keeps
// only a picture of where each card lies, to animate from one state to the next.

import { api, ApiError } from "./api.js";
import { bindCard, buildSprite, makeCardElement } from "./cards.js";
import {
  cardName, detectLang, getLang, rankChar, refusal, setLang, t, translatePage, variantFromToken, variantLabel,
} from "./i18n.js";
import { openHelp } from "./help.js";
import { openStats } from "./stats.js";

const $ = (sel) => document.querySelector(sel);
const board = $("#board");
const layer = $("#cards");
const table = $("#table");

// In reading order: the slots are created in this order, so Tab walks the table row by row.
const PLACES = [];
for (const row of "FPR") for (let k = 1; k <= 8; k++) PLACES.push(`${row}${k}`);
PLACES.push("stock", "waste");
const STACKS = new Set(["stock", "waste", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]);
// Flight time of one card, by speed setting (0 = off … 3 = fast).
const DURATION = { 0: 0, 1: 520, 2: 300, 3: 150 };

/** Queued actions kept at most (a key held down is not a thousand moves). */
const QUEUE_MAX = 200;

const app = {
  state: null, // the server's State
  model: {}, // place -> card elements, bottom to top
  els: [], // all 104 card elements
  slots: {}, // place -> slot element
  speed: 2,
  showChance: true,
  busy: false,
  queue: [],
  auto: false,
  replay: null, // {initial, steps, index} while replaying a finished game
  hintOn: false,
  chanceTimer: 0,
  chanceSeq: 0,
  chanceBroken: false,
  endShownFor: null,
  settings: { lang: null, speed: 2, variant: "r3", show_chance: true }, // the server's, once loaded
};
window.firstlast = app; // for the end-to-end tests and the curious

// ------------------------------------------------------------------------ building
function buildBoard() {
  for (const place of PLACES) {
    const slot = document.createElement("div");
    slot.className = `slot slot-${place[0] === "s" || place[0] === "w" ? place : place[0]}`;
    slot.dataset.place = place;
    const k = place.length === 2 ? Number(place[1]) : 0;
    if (k) slot.style.setProperty("--col", k);
    if (place[0] === "P") slot.innerHTML = `<span class="pill"></span>`;
    if (place[0] === "R") slot.innerHTML = `<span class="key" aria-hidden="true">${k}</span>`;
    if (place === "F8") slot.innerHTML = `<span class="tag"></span>`;
    if (place === "stock") {
      slot.tabIndex = 0;
      slot.setAttribute("role", "button");
      slot.innerHTML = `<span class="stock-count"></span><svg class="redeal-mark" viewBox="0 0 24 24" aria-hidden="true"><use href="#i-restart"/></svg>`;
      slot.addEventListener("click", () => enqueue(turnStock));
      slot.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); enqueue(turnStock); }
      });
    }
    if (place === "waste") slot.innerHTML = `<span class="stock-count"></span>`;
    if (place[0] === "F" || place[0] === "R" || place === "waste") {
      // The places a card can be played from take the keyboard focus (the cards move).
      slot.tabIndex = 0;
      slot.setAttribute("role", "button");
      slot.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          e.stopPropagation();
          playFrom(place);
        }
      });
    }
    board.appendChild(slot);
    app.slots[place] = slot;
  }
  const info = document.createElement("div");
  info.className = "slot-info";
  info.innerHTML = `<div class="need-big"><span class="need-caption"></span><span class="need-rank"></span></div><div class="info-pass"></div>`;
  board.appendChild(info);
  app.info = info;
  for (let i = 0; i < 104; i++) {
    const el = makeCardElement();
    el.addEventListener("pointerdown", onPointerDown);
    layer.appendChild(el);
    app.els.push(el);
  }
}

// ------------------------------------------------------------------------ sizing
function fit() {
  const r = table.getBoundingClientRect();
  const wide = r.width / Math.max(1, r.height) > 1.3;
  const g = 0.14; // column gap / card width
  // Widths in card widths: 8 columns (and, wide, a half-width gap column and the
  // stock's column) with their gaps; heights: card rows at 1.4 plus the CSS spacer rows.
  const across = wide ? 9.5 + 9 * g : 8 + 7 * g;
  const rows = wide ? 3 * 1.4 + 0.3 + 0.42 : 4 * 1.4 + 0.3 + 0.42 + 0.3;
  const padX = Math.min(24, r.width * 0.025);
  const padY = Math.min(18, r.height * 0.02) + 12;
  let cw = Math.min((r.width - 2 * padX) / across, (r.height - 2 * padY) / rows);
  cw = Math.max(28, Math.floor(cw));
  // Tall screens (phones, tablets upright) have height to spare: the piles fan
  // downwards then, so that every card of a pile shows its index, as on a real table.
  let fan = 0;
  if (!wide) {
    const spare = r.height - 2 * padY - rows * cw;
    fan = Math.min(0.3 * 1.4 * cw, spare / 12);
    if (fan < 0.1 * 1.4 * cw) fan = 0;
  }
  app.fan = Math.floor(fan);
  board.style.setProperty("--fan", `${app.fan}px`);
  board.style.setProperty("--cw", `${cw}px`);
  const compact = cw < 72;
  if (compact !== app.compact) {
    app.compact = compact;
    buildSprite(getLang(), compact);
  }
  board.classList.toggle("small", cw < 64);
  board.classList.toggle("wide", wide);
  board.classList.toggle("narrow", !wide);
  layout(null, 0);
}

// ------------------------------------------------------------------------ model
function stateModel(state) {
  // Target picture of ``state``: known cards by id; stock cards anonymous.
  const m = {};
  for (let k = 0; k < 8; k++) {
    m[`F${k + 1}`] = state.first[k] ? [state.first[k]] : [];
    m[`R${k + 1}`] = state.reserve[k] ? [state.reserve[k]] : [];
    m[`P${k + 1}`] = state.piles[k].slice();
  }
  m.waste = state.waste.slice();
  // Bottom to top: stock_decks lists the next card first, i.e. the top first.
  m.stock = state.stock_decks.slice().reverse().map((deck) => ({ anon: true, deck }));
  return m;
}

/** Make the picture match ``state`` (after animations, or at once on load/restart). */
function reconcile(state, duration = 0) {
  const target = stateModel(state);
  // Cards already shown face up somewhere keep their element; a face-down stock card's
  // element may still carry an old binding (after a redeal), so the stock is left out.
  const byId = new Map();
  for (const place of PLACES) {
    if (place === "stock" || !app.model[place]) continue;
    for (const el of app.model[place]) if (el.cardId !== null) byId.set(el.cardId, el);
  }
  const used = new Set();
  const model = {};
  const pending = [];
  for (const place of PLACES) {
    if (place === "stock") continue;
    model[place] = target[place].map((card, i) => {
      const el = byId.get(card.id);
      if (el && !used.has(el)) {
        used.add(el);
        return el;
      }
      pending.push([place, i, card]);
      return null;
    });
  }
  // Free elements: those in the stock first (so a turned card comes off the stock).
  const oldStock = app.model.stock || [];
  const free = [...oldStock.slice().reverse(), ...app.els].filter((el, i, arr) => !used.has(el) && arr.indexOf(el) === i);
  for (const [place, i, card] of pending) {
    const el = free.shift();
    used.add(el);
    bindCard(el, card);
    model[place][i] = el;
  }
  for (const place of PLACES) if (place !== "stock") for (const el of model[place]) el.up = true;
  // The rest are the stock: keep their order where they were already in the stock.
  const stockEls = free.filter((el) => !used.has(el));
  stockEls.sort((a, b) => oldStock.indexOf(a) - oldStock.indexOf(b));
  model.stock = target.stock.map((entry, i) => {
    const el = stockEls[i];
    bindCard(el, null, entry.deck);
    el.up = false;
    return el;
  });
  app.model = model;
  layout(null, duration);
}

function slotXY(place) {
  const s = app.slots[place];
  return [s.offsetLeft, s.offsetTop];
}

function stackOffset(place, i, n) {
  if (!STACKS.has(place)) return [0, 0];
  if (app.fan && place[0] === "P") return [0, i * app.fan];
  // A stack shows its thickness: one pixel step per few cards, at most a few.
  const cw = parseFloat(board.style.getPropertyValue("--cw")) || 80;
  const step = Math.max(0.6, cw / 110);
  const depth = Math.min(Math.floor(i / 4), 6);
  return [-depth * step * 0.5, -depth * step];
}

function baseZ(place) {
  if (place === "stock") return 100;
  if (place === "waste") return 300;
  if (place[0] === "P") return 500;
  if (place[0] === "F") return 800;
  return 700;
}

/** Put every card at its place; ``moving`` (an element) is left to its animation. */
function layout(moving, duration) {
  const anims = [];
  for (const place of PLACES) {
    const list = app.model[place] || [];
    const [sx, sy] = slotXY(place);
    const n = list.length;
    list.forEach((el, i) => {
      const [ox, oy] = stackOffset(place, i, n);
      const x = sx + ox;
      const y = sy + oy;
      el.place = place;
      el.index = i;
      el.classList.toggle("down", !el.up);
      el.classList.toggle("buried", STACKS.has(place) && i < n - 2 && !(app.fan && place[0] === "P"));
      el.style.zIndex = String(baseZ(place) + i);
      const playable = el.up && (place[0] === "R" || place[0] === "F" || (place === "waste" && i === n - 1));
      el.classList.toggle("source", playable);
      el.setAttribute("aria-hidden", "true");
      if (el === moving || (drag && drag.el === el)) return;
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
  }
  for (const place of PLACES) {
    if (place[0] !== "F" && place[0] !== "R" && place !== "waste") continue;
    const list = app.model[place] || [];
    const top = list[list.length - 1];
    app.slots[place].setAttribute("aria-label", top && top.card
      ? t("play_card", { card: cardName(top.card), place: place === "waste" ? t("waste") : place })
      : place === "waste" ? t("waste_label", { n: 0 }) : place);
  }
  return Promise.all(anims);
}

// ------------------------------------------------------------------------ animation
function flyTime() {
  return DURATION[app.speed] ?? 300;
}

/** Move one card as the server says, and animate it from its old to its new place. */
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
  const [sx, sy] = slotXY(mv.to);
  const [ox, oy] = stackOffset(mv.to, dst.length - 1, dst.length);
  const to = [sx + ox, sy + oy];
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

async function animateMovements(movements, move) {
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

// ------------------------------------------------------------------------ state
function setState(state) {
  app.state = state;
  render();
  scheduleChance();
}

function render() {
  const s = app.state;
  if (!s) return;
  const active = s.active;
  for (let k = 0; k < 8; k++) {
    const pile = app.slots[`P${k + 1}`];
    const n = s.piles[k].length;
    pile.classList.toggle("active", active === k);
    pile.classList.toggle("done", n === 13);
    pile.style.setProperty("--depth", String(Math.max(0, n - 1)));
    const pill = pile.querySelector(".pill");
    if (active === k) pill.innerHTML = `<span class="cnt">${n}/13 </span>→ ${rankChar(s.need)}`;
    else pill.textContent = n ? `${n}/13` : "";
    app.slots[`F${k + 1}`].classList.toggle("active", active === k);
  }
  app.slots.F8.classList.toggle("privileged", s.privileged === "F8");
  app.slots.F8.querySelector(".tag").innerHTML = s.privileged === "F8" ? `★<span> ${t("privileged")}</span>` : "";
  for (const el of app.els) el.classList.toggle("privileged", s.privileged === "F8" && el.place === "F8");
  const stock = app.slots.stock;
  stock.classList.toggle("empty", s.stock_count === 0);
  stock.classList.toggle("can-redeal", s.stock_count === 0 && s.legal_moves.includes("redeal"));
  stock.querySelector(".stock-count").textContent = s.stock_count || "";
  stock.setAttribute("aria-label", s.stock_count ? t("stock_label", { n: s.stock_count }) : t("stock_redeal"));
  app.slots.waste.querySelector(".stock-count").textContent = s.waste.length || "";
  // Status bar.
  $("#s-deal").textContent = `${t("deal_n", { n: s.deal })} · ${variantLabel(s.variant)}`;
  let needText;
  if (active === null) needText = t("all_done");
  else if (s.piles[active].length === 12) needText = t("pile_needs_base", { pile: `P${active + 1}`, card: cardName(s.first[active]) });
  else needText = t("pile_needs", { pile: `P${active + 1}`, rank: rankChar(s.need) });
  $("#s-need").textContent = needText;
  const passText = s.redeals_left === null
    ? t("pass_unl", { pass: s.passes })
    : t("pass_of", { pass: s.passes, max: s.passes + s.redeals_left });
  $("#s-pass").textContent = passText;
  $("#s-score").textContent = `${t("score")}: ${s.score}/104 · ${t("moves", { n: s.moves })}`;
  app.info.querySelector(".need-caption").textContent = active === null ? "" : `P${active + 1}`;
  app.info.querySelector(".need-rank").textContent = active === null ? "✓" : rankChar(s.need);
  const left = s.redeals_left === null ? "" : s.redeals_left === 1 ? t("redeals_left_1")
    : s.redeals_left === 0 ? t("redeals_left_0") : t("redeals_left", { n: s.redeals_left });
  app.info.querySelector(".info-pass").innerHTML = "";
  app.info.querySelector(".info-pass").append(passText, ...(left ? [document.createElement("br"), left] : []));
  // Buttons.
  const replaying = !!app.replay;
  $("#b-undo").disabled = replaying || !s.can_undo;
  $("#b-redo").disabled = replaying || !s.can_redo;
  const over = s.status !== "playing";
  for (const id of ["#b-hint", "#b-step"]) $(id).disabled = replaying || over;
  $("#b-auto").disabled = replaying || (over && !app.auto);
  $("#b-restart").disabled = replaying || !s.can_undo;
  for (const id of ["#b-new", "#b-deal"]) $(id).disabled = replaying;
  document.body.dataset.status = s.status;
  showHint(app.hintOn);
  if (over && !app.replay && app.endShownFor !== `${s.id}:${s.moves}`) {
    app.endShownFor = `${s.id}:${s.moves}`;
    setTimeout(() => showEnding(), flyTime() ? 350 : 0);
  }
  if (!over) hideEnding();
}

function hintPlace(hint) {
  if (!hint) return null;
  if (hint === "turn" || hint === "redeal") return "stock";
  if (hint === "W") return "waste";
  return hint;
}

function showHint(on) {
  app.hintOn = on;
  $("#b-hint").setAttribute("aria-pressed", String(!!on));
  for (const el of board.querySelectorAll(".hint")) el.classList.remove("hint");
  if (!on || !app.state || app.state.status !== "playing") return;
  const place = hintPlace(app.state.hint);
  if (!place) return;
  const list = app.model[place] || [];
  if (list.length === 0) app.slots[place].classList.add("hint");
  else list[list.length - 1].classList.add("hint");
}

// ------------------------------------------------------------------------ actions
function enqueue(fn, forReplay = false) {
  // Player actions run one after another, so that animations never overlap, and none
  // is dropped: ten quick clicks on the stock are ten turns (only a runaway flood past
  // QUEUE_MAX is cut). While a finished game is being replayed, only the replay's own
  // steps run.
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
  while (app.queue.length) {
    const job = app.queue.shift();
    await job();
  }
  app.busy = false;
  document.body.classList.remove("busy");
}

async function applyResult(result) {
  app.hintOn = false;
  showHint(false);
  if (result.movements && result.movements.length) {
    try {
      await animateMovements(result.movements, result.move);
    } catch (e) {
      console.warn(e);
    }
  }
  reconcile(result.state, result.movements && result.movements.length ? 0 : flyTime());
  setState(result.state);
}

function showError(err, ctx) {
  if (err instanceof ApiError && err.code === "game.changed") {
    // Another window moved this game on: show the saved game (docs/play.md).
    toast(t("changed"), "error");
    enqueue(refreshState);
    return;
  }
  if (err instanceof ApiError) {
    if (err.status === 0) toast(t("err_network"), "error");
    else toast(refusal(err, ctx), "error");
  } else {
    console.error(err);
    toast(String(err.message || err), "error");
  }
}

function refusalContext(place) {
  const s = app.state;
  const ctx = {};
  if (s && s.active !== null) {
    ctx.pile = `P${s.active + 1}`;
    ctx.rank = rankChar(s.need);
  }
  const list = place ? app.model[place] : null;
  const el = list && list[list.length - 1];
  if (el && el.card) ctx.card = cardName(el.card);
  return ctx;
}

async function send(move, place) {
  if (!app.state) return false;
  // A move the rules forbid is explained from the state (the engine's own refusal), so
  // the refusal is at once and no request is made to be answered 409.
  const refused = app.state.refusals && app.state.refusals[move];
  if (refused) {
    showError(new ApiError(409, refused.error, refused.rule, refused.code, refused.params), refusalContext(place));
    return false;
  }
  try {
    const result = await api.move(app.state.id, move, app.state.version);
    await applyResult(result);
    return true;
  } catch (err) {
    showError(err, refusalContext(place));
    return false;
  }
}

async function turnStock() {
  const s = app.state;
  if (!s) return;
  // The server says what a click on the stock asks for (turn, or redeal once empty).
  await send(s.stock_move, "stock");
}

function moveFor(place) {
  if (place === "waste") return "W";
  return place;
}

function playFrom(place) {
  return enqueue(() => send(moveFor(place), place));
}

async function doStep() {
  if (!app.state || app.state.status !== "playing") return;
  try {
    await applyResult(await api.step(app.state.id, app.state.version));
  } catch (err) {
    showError(err);
  }
}

/** Turn until a card fits (or a redeal is due): the play layer's "advance". */
async function doAdvance() {
  if (!app.state || app.state.status !== "playing") return;
  try {
    await applyResult(await api.advance(app.state.id, app.state.version));
  } catch (err) {
    showError(err);
  }
}

async function doUndo() {
  if (!app.state || !app.state.can_undo) return;
  try {
    await applyResult(await api.undo(app.state.id, app.state.version));
  } catch (err) {
    showError(err);
  }
}

async function doRedo() {
  if (!app.state || !app.state.can_redo) return;
  try {
    await applyResult(await api.redo(app.state.id, app.state.version));
  } catch (err) {
    showError(err);
  }
}

async function doRestart() {
  if (!app.state) return;
  try {
    const result = await api.restart(app.state.id, app.state.version);
    await gather();
    reconcile(result.state, 0);
    setState(result.state);
    await dealIn();
  } catch (err) {
    showError(err);
  }
}

/** A new game on the table: ``how`` is the server's choice of deal (number, random,
 * next, again, daily, winnable); the variant defaults to the player's setting. */
async function startGame(deal, variant, how) {
  stopAuto();
  hideEnding();
  try {
    const state = await api.newGame(deal, variant, how || (deal ? "number" : "random"));
    await gather();
    reconcile(state, 0);
    setState(state);
    await dealIn();
  } catch (err) {
    showError(err);
    throw err;
  }
}

// A new deal: the cards on the table are gathered onto the stock, then the first row
// and the reserve are dealt from it one by one, turning face up as they land.
async function gather() {
  const d = flyTime();
  if (!d) return;
  const [sx, sy] = slotXY("stock");
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

async function dealIn() {
  const d = flyTime();
  if (!d) return;
  const [sx, sy] = slotXY("stock");
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
  await new Promise((r) => requestAnimationFrame(() => r()));
  const step = d * 0.3;
  await Promise.all(dealt.map((el, i) => new Promise((resolve) => {
    setTimeout(() => {
      const [x, y] = el.pos;
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

// Auto: the forced line, one step per request, animated; pausable.
function toggleAuto() {
  if (app.auto) stopAuto();
  else startAuto();
}

function stopAuto() {
  const was = app.auto;
  app.auto = false;
  if (was) scheduleChance();
  $("#b-auto").setAttribute("aria-pressed", "false");
  $("#b-auto").querySelector("use").setAttribute("href", "#i-auto");
  $("#b-auto").querySelector("span").textContent = t("auto");
}

function startAuto() {
  if (!app.state || app.state.status !== "playing" || app.replay) return;
  app.auto = true;
  $("#b-auto").setAttribute("aria-pressed", "true");
  $("#b-auto").querySelector("use").setAttribute("href", "#i-pause");
  $("#b-auto").querySelector("span").textContent = t("pause");
  enqueue(autoLoop);
}

async function autoLoop() {
  while (app.auto && app.state && app.state.status === "playing") {
    try {
      const result = await api.step(app.state.id, app.state.version);
      await applyResult(result);
    } catch (err) {
      showError(err);
      break;
    }
    // With animation off the loop still yields, so the page stays responsive.
    await new Promise((r) => setTimeout(r, app.speed === 0 ? 0 : 40));
  }
  stopAuto();
}

// ------------------------------------------------------------------------ chance
function scheduleChance() {
  clearTimeout(app.chanceTimer);
  const box = $("#s-chance");
  if (!app.showChance || app.chanceBroken || !app.state || app.replay) {
    box.hidden = true;
    return;
  }
  if (app.auto) return; // during autoplay, ask once it pauses or ends
  const seq = ++app.chanceSeq;
  const id = app.state.id;
  box.classList.add("stale");
  if (app.chanceFor !== id) {
    // Another game: the last game's figure says nothing about this one.
    app.chanceFor = id;
    box.querySelector(".value").textContent = "…";
  }
  app.chanceTimer = setTimeout(async () => {
    try {
      const c = await api.chance(id, 2000);
      if (seq !== app.chanceSeq) return;
      box.hidden = false;
      box.classList.remove("stale");
      const p = Math.round(c.probability * 1000) / 10;
      box.querySelector(".value").textContent = `${p}%`;
      box.querySelector(".fill").style.width = `${Math.max(0, Math.min(100, c.probability * 100))}%`;
      box.title = `${t("chance")}: ${p}% (${Math.round(c.low * 1000) / 10}–${Math.round(c.high * 1000) / 10}%, n=${c.samples})`;
    } catch (err) {
      if (err instanceof ApiError && [404, 405, 501, 503].includes(err.status)) {
        // No odds in this installation (or the game is gone): hide the meter quietly.
        if (err.status !== 404 || seq === app.chanceSeq) box.hidden = true;
        if (err.status !== 404) app.chanceBroken = true;
      } else {
        box.hidden = true;
      }
    }
  }, 500);
}

// ------------------------------------------------------------------------ ending
function showEnding() {
  const s = app.state;
  if (!s || s.status === "playing" || app.replay) return;
  const won = s.status === "won";
  $("#end-title").textContent = won ? t("won_title") : t("lost_title");
  $("#end-text").textContent = won ? t("won_text") : t("lost_text", { n: s.score });
  $("#end-score").textContent = String(s.score);
  $("#end-meta").textContent = `${t("deal_n", { n: s.deal })} · ${variantLabel(s.variant)} · ${t("passes_used", { n: s.passes })}`;
  const box = $("#ending");
  box.dataset.result = s.status;
  box.hidden = false;
  if (won && app.speed > 0) celebrate();
  requestAnimationFrame(() => box.classList.add("show"));
  $("#end-again").focus();
}

function celebrate() {
  // A wave along the eight finished piles.
  for (let k = 1; k <= 8; k++) {
    const pile = app.model[`P${k}`];
    const el = pile && pile[pile.length - 1];
    if (!el || !el.pos) continue;
    const [x, y] = el.pos;
    const base = `translate(${x}px, ${y}px)`;
    el.animate(
      [{ transform: base }, { transform: `${base} translateY(-18%) rotate(${k % 2 ? -4 : 4}deg) scale(1.06)` }, { transform: base }],
      { duration: 650, delay: k * 90, iterations: 2, easing: "cubic-bezier(.3,.6,.3,1)" },
    );
  }
}

function hideEnding() {
  const box = $("#ending");
  box.classList.remove("show");
  box.hidden = true;
}

// ------------------------------------------------------------------------ dragging
let drag = null;

function onPointerDown(e) {
  const el = e.currentTarget;
  if (e.button !== 0 || app.replay) return;
  // A press on the stock turns, whatever card is under the pointer: a quick second
  // click often lands on the card still flying off the stock, and must not be lost.
  const r = app.slots.stock.getBoundingClientRect();
  if (el.place === "stock" || (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom)) {
    enqueue(turnStock);
    return;
  }
  if (!el.classList.contains("source")) return;
  e.preventDefault();
  el.setPointerCapture(e.pointerId);
  drag = { el, id: e.pointerId, x0: e.clientX, y0: e.clientY, moved: false, pos: el.pos.slice() };
  el.addEventListener("pointermove", onPointerMove);
  el.addEventListener("pointerup", onPointerUp);
  el.addEventListener("pointercancel", onPointerUp);
}

function onPointerMove(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const dx = e.clientX - drag.x0;
  const dy = e.clientY - drag.y0;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
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

function dropTarget(x, y) {
  // The pile slot (or its first-row card above it) under the pointer, generously.
  for (let k = 1; k <= 8; k++) {
    for (const place of [`P${k}`, `F${k}`]) {
      const r = app.slots[place].getBoundingClientRect();
      const m = r.width * 0.12;
      if (x >= r.left - m && x <= r.right + m && y >= r.top - m && y <= r.bottom + m) return `P${k}`;
    }
  }
  return null;
}

async function springBack(el) {
  const from = el.style.transform;
  const [x, y] = el.pos;
  el.style.transform = `translate(${x}px, ${y}px)`;
  el.classList.remove("dragging");
  const a = el.animate([{ transform: from }, { transform: `translate(${x}px, ${y}px)` }], {
    duration: 280, easing: "cubic-bezier(.3,1.5,.5,1)",
  });
  await a.finished.catch(() => {});
  el.style.zIndex = String(baseZ(el.place) + el.index);
}

function onPointerUp(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const { el, moved } = drag;
  drag = null;
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
  const home = el.pos.slice();
  enqueue(async () => {
    el.pos = [rect.left - b.left, rect.top - b.top];
    const ok = await send(moveFor(place), place);
    if (!ok) {
      el.pos = home;
      await springBack(el);
    }
    el.classList.remove("dragging");
  });
}

// ------------------------------------------------------------------------ toast
let toastTimer = 0;
function toast(text, kind = "info") {
  const box = $("#toast");
  box.textContent = text;
  box.dataset.kind = kind;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), Math.max(2600, text.length * 60));
}

// ------------------------------------------------------------------------ settings
/** The variant for new games: the player's setting, as stored on the server. */
function savedVariant() {
  return variantFromToken(app.settings.variant) || { redeals: 3, waste_playable: false, privileged_last: true };
}

/** Save a change of settings on the server, which holds the player's one copy (shared
 * with the terminal game); localStorage only caches it for the next page load. */
async function saveSettings(update) {
  Object.assign(app.settings, update);
  try {
    app.settings = await api.saveSettings(update);
  } catch (err) {
    showError(err);
  }
  localStorage.setItem("fl_settings", JSON.stringify(app.settings));
}

function labelSlots() {
  // Empty places show their names, as the rules and the refusals use them.
  for (const place of PLACES) {
    app.slots[place].dataset.label = place === "stock" ? t("stock") : place === "waste" ? t("waste") : place;
  }
}

function applyLang(lang) {
  setLang(lang);
  buildSprite(lang, !!app.compact);
  translatePage();
  labelSlots();
  if (app.auto) $("#b-auto").querySelector("span").textContent = t("pause");
  render();
  if (app.state) layout(null, 0);
  if (app.replay) renderReplayBar();
}

function switchLang(lang) {
  applyLang(lang);
  saveSettings({ lang });
}

// ------------------------------------------------------------------------ dialogs
function openDealDialog() {
  const dlg = $("#dlg-deal");
  const v = savedVariant();
  $("#v-redeals").value = v.redeals === null ? "u" : String(v.redeals);
  if (!$("#v-redeals").value) $("#v-redeals").value = "3";
  $("#v-waste").checked = !!v.waste_playable;
  $("#v-priv").checked = v.privileged_last !== false;
  $("#deal-error").textContent = "";
  $("#deal-input").value = "";
  dlg.showModal();
  $("#deal-input").focus();
}

/** Start the deal dialog's game (``how``: number, random, daily, winnable) under the
 * dialog's variant, which becomes the player's setting. The server reads the number:
 * a refusal is shown in the dialog, which stays open. */
async function startFromDialog(how) {
  const variant = dialogVariant();
  const text = $("#deal-input").value.trim();
  try {
    await api.saveSettings({ variant }).then((s) => { app.settings = s; });
  } catch (err) {
    $("#deal-error").textContent = err.code && err.code.startsWith("variant.") ? t("variant_bad") : err.message;
    return;
  }
  localStorage.setItem("fl_settings", JSON.stringify(app.settings));
  let refused = null;
  await enqueue(() => startGame(how === "number" ? text : undefined, variant, how).catch((err) => { refused = err; }));
  if (refused && (refused.code === "deal.invalid" || refused.code === "deal.range")) {
    $("#deal-error").textContent = t("deal_bad");
    return;
  }
  $("#dlg-deal").close();
}

function dialogVariant() {
  const r = $("#v-redeals").value;
  return { redeals: r === "u" ? null : Number(r), waste_playable: $("#v-waste").checked, privileged_last: $("#v-priv").checked };
}

function setupDialogs() {
  const dlg = $("#dlg-deal");
  $("#deal-form").addEventListener("submit", async (e) => {
    // Enter in the number field submits too: Cancel is no submit button, so that the
    // form's default (first) submit button is Start.
    e.preventDefault();
    await startFromDialog($("#deal-input").value.trim() ? "number" : "random");
  });
  $("#deal-cancel").addEventListener("click", () => dlg.close());
  $("#deal-random").addEventListener("click", () => startFromDialog("random"));
  $("#deal-daily").addEventListener("click", () => startFromDialog("daily"));
  $("#deal-winnable").addEventListener("click", () => startFromDialog("winnable"));
  $("#v-canonical").addEventListener("click", () => {
    $("#v-redeals").value = "3";
    $("#v-waste").checked = false;
    $("#v-priv").checked = true;
  });
  // Settings.
  $("#set-lang").addEventListener("change", (e) => switchLang(e.target.value));
  $("#set-speed").addEventListener("change", (e) => {
    app.speed = Number(e.target.value);
    applySpeed();
    saveSettings({ speed: app.speed });
  });
  $("#set-variant").addEventListener("click", () => {
    $("#dlg-settings").close();
    openDealDialog();
  });
  $("#set-chance").addEventListener("change", (e) => {
    app.showChance = e.target.checked;
    saveSettings({ show_chance: app.showChance });
    scheduleChance();
  });
  // Ending.
  $("#end-again").addEventListener("click", () => {
    enqueue(() => startGame(undefined, plainVariant(app.state.variant), "again").catch(() => {}));
  });
  $("#end-next").addEventListener("click", () => {
    enqueue(() => startGame(undefined, plainVariant(app.state.variant), "next").catch(() => {}));
  });
  $("#end-close").addEventListener("click", hideEnding);
  // A click beside the panel closes it too, to look at the finished table.
  $("#ending").addEventListener("click", (e) => { if (e.target === e.currentTarget) hideEnding(); });
}

function plainVariant(v) {
  return { redeals: v.redeals, waste_playable: v.waste_playable, privileged_last: v.privileged_last };
}

function openSettings() {
  $("#set-lang").value = getLang();
  $("#set-speed").value = String(app.speed);
  $("#set-chance").checked = app.showChance;
  $("#dlg-settings").showModal();
}

/** Put one of the player's unfinished games back on the table. */
async function reopenGame(id) {
  stopAuto();
  hideEnding();
  try {
    const state = await api.open(id);
    reconcile(state, flyTime());
    setState(state);
  } catch (err) {
    showError(err);
  }
}

// ------------------------------------------------------------------------ replay
async function startReplay(id) {
  let data;
  try {
    data = await api.replay(id);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) toast(t("replay_unavailable"), "error");
    else showError(err);
    return;
  }
  stopAuto();
  hideEnding();
  app.replay = { initial: data.initial, steps: data.steps, index: 0, playing: false, back: app.state && app.state.id };
  document.body.classList.add("replaying");
  $("#replaybar").hidden = false;
  $("#r-range").max = String(data.steps.length);
  reconcile(data.initial, 300);
  setState(data.initial);
  renderReplayBar();
  $("#r-fwd").focus();
}

function renderReplayBar() {
  const r = app.replay;
  if (!r) return;
  $("#r-title").textContent = t("replay_mode", { n: r.initial.deal });
  $("#r-pos").textContent = t("replay_step", { i: r.index, n: r.steps.length });
  $("#r-range").value = String(r.index);
  $("#r-play").textContent = r.playing ? t("pause") : t("replay_play");
}

// The replay needs no server calls: the picture follows the recorded movements, and
// the facts the bar shows (need, privileged card, passes…) are the engine's, sent with
// each step: the page decides no rule.
function replayFacts() {
  const r = app.replay;
  const piles = [];
  for (let k = 1; k <= 8; k++) piles.push(app.model[`P${k}`].map((el) => el.card));
  const first = [];
  for (let k = 1; k <= 8; k++) first.push(app.model[`F${k}`][0]?.card || null);
  const reserve = [];
  for (let k = 1; k <= 8; k++) reserve.push(app.model[`R${k}`][0]?.card || null);
  const facts = r.index > 0 ? r.steps[r.index - 1].facts : r.initial;
  return {
    ...r.initial,
    first, reserve, piles,
    active: facts.active, need: facts.need, need_char: facts.need_char, privileged: facts.privileged,
    waste: app.model.waste.map((el) => el.card),
    stock_count: app.model.stock.length,
    stock_decks: app.model.stock.map((el) => el.deck).reverse(),
    score: facts.score,
    passes: facts.passes,
    redeals_used: facts.redeals_used,
    redeals_left: facts.redeals_left,
    status: facts.status,
    moves: r.index,
    legal_moves: [], hint: null, can_undo: false, can_redo: false, refusals: {},
  };
}

async function replayStep(dir) {
  const r = app.replay;
  if (!r) return;
  if (dir > 0 && r.index < r.steps.length) {
    const step = r.steps[r.index];
    await animateMovements(step.movements, step.move);
    r.index++;
  } else if (dir < 0 && r.index > 0) {
    r.index--;
    const step = r.steps[r.index];
    const back = step.movements.slice().reverse().map((m) => ({ card: m.card, from: m.to, to: m.from, face_up: m.from !== "stock" }));
    await animateMovements(back, step.move);
  } else {
    return;
  }
  layout(null, 0);
  app.state = replayFacts();
  render();
  renderReplayBar();
}

async function replayTo(index) {
  const r = app.replay;
  if (!r) return;
  const speed = app.speed;
  app.speed = 0;
  try {
    while (r.index < index) await replayStep(1);
    while (r.index > index) await replayStep(-1);
  } finally {
    app.speed = speed;
  }
}

function replayPlay() {
  const r = app.replay;
  if (!r) return;
  if (r.playing) {
    r.playing = false;
    renderReplayBar();
    return;
  }
  r.playing = true;
  renderReplayBar();
  enqueue(async () => {
    while (r.playing && app.replay === r && r.index < r.steps.length) {
      await replayStep(1);
      await new Promise((res) => setTimeout(res, app.speed === 0 ? 0 : 60));
    }
    r.playing = false;
    renderReplayBar();
  }, true);
}

function exitReplay() {
  const r = app.replay;
  if (!r) return;
  r.playing = false;
  // Leave once the step in flight has landed, then show the player's game again.
  enqueue(async () => {
    app.replay = null;
    document.body.classList.remove("replaying");
    $("#replaybar").hidden = true;
    await loadCurrent(r.back);
  }, true);
}

function setupReplayBar() {
  $("#r-back").addEventListener("click", () => enqueue(() => replayStep(-1), true));
  $("#r-fwd").addEventListener("click", () => enqueue(() => replayStep(1), true));
  $("#r-play").addEventListener("click", () => replayPlay());
  $("#r-exit").addEventListener("click", exitReplay);
  $("#r-range").addEventListener("change", (e) => {
    if (app.replay) app.replay.playing = false;
    enqueue(() => replayTo(Number(e.target.value)), true);
  });
}

// ------------------------------------------------------------------------ keys
function onKey(e) {
  if (document.querySelector("dialog[open]")) return; // dialogs keep their own keys
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea") return;
  const ctrl = e.ctrlKey || e.metaKey;
  const k = e.key;
  if (app.replay) {
    if (k === "ArrowRight") enqueue(() => replayStep(1), true);
    else if (k === "ArrowLeft") enqueue(() => replayStep(-1), true);
    else if (k === " ") replayPlay();
    else if (k === "Escape") exitReplay();
    else return;
    e.preventDefault();
    return;
  }
  if (k === "Escape" && !$("#ending").hidden) { hideEnding(); e.preventDefault(); return; }
  if (ctrl && !e.shiftKey && (k === "z" || k === "Z")) { enqueue(doUndo); e.preventDefault(); return; }
  if (ctrl && (k === "y" || k === "Y" || (e.shiftKey && (k === "z" || k === "Z")))) { enqueue(doRedo); e.preventDefault(); return; }
  if (ctrl || e.altKey) return;
  const low = k.toLowerCase();
  const onButton = tag === "button" || e.target.getAttribute?.("role") === "button";
  if ((k === " " && !onButton) || low === "t" || low === "е") enqueue(turnStock);
  else if (/^[1-8]$/.test(k)) playFrom(`R${k}`);
  else if (low === "p" || low === "з") playFrom("F8");
  else if (low === "b" || low === "и") {
    if (app.state && app.state.base_move) playFrom(app.state.base_move);
  } else if (low === "w" || low === "ц") playFrom("waste");
  else if (low === "s" || low === "ы") enqueue(doStep);
  else if (low === "f" || low === "а") enqueue(doAdvance);
  else if (low === "a" || low === "ф") toggleAuto();
  else if (low === "u" || low === "г") enqueue(doUndo);
  else if (low === "h" || low === "р") showHint(!app.hintOn);
  else if (low === "n" || low === "т") enqueue(() => startGame().catch(() => {}));
  else if (low === "d" || low === "в") openDealDialog();
  else if (low === "l" || low === "д") switchLang(getLang() === "ru" ? "en" : "ru");
  else if (k === "?" || k === ",") openHelp();
  else return;
  e.preventDefault();
}

// ------------------------------------------------------------------------ start
/** Show game ``id`` if given, else the game on the player's table (the server keeps
 * it, so the terminal game and other tabs agree), else deal a new one. */
async function loadCurrent(id) {
  let state = null;
  try {
    state = id ? await api.open(id) : await api.current();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) showError(err);
  }
  if (!state) {
    try {
      state = await api.newGame(undefined, undefined, "random");
    } catch (err) {
      showError(err);
      return;
    }
  }
  reconcile(state, 0);
  setState(state);
  $("#loading").hidden = true;
}

async function refreshState() {
  const s = app.state;
  if (!s) return;
  let fresh;
  try {
    fresh = await api.game(s.id);
  } catch (_) {
    return; // gone or unreachable: the next move will say so
  }
  if (app.state !== s || JSON.stringify(fresh) === JSON.stringify(s)) return;
  reconcile(fresh, 0);
  setState(fresh);
}

function applySpeed() {
  // With animation off, cards turn over at once too.
  board.style.setProperty("--flip-ms", app.speed === 0 ? "0ms" : "320ms");
  for (const el of app.els) el.style.removeProperty("--flip-ms");
}

async function loadSettings() {
  // The cached copy paints the first frame; the server's copy, the player's one set of
  // settings (shared with the terminal game), always wins.
  try {
    const cached = JSON.parse(localStorage.getItem("fl_settings") || "null");
    if (cached && typeof cached === "object") app.settings = { ...app.settings, ...cached };
  } catch (_) { /* ignore */ }
  try {
    app.settings = await api.settings();
    localStorage.setItem("fl_settings", JSON.stringify(app.settings));
  } catch (_) { /* the cache or the defaults */ }
  const s = app.settings;
  const lang = s.lang === "ru" || s.lang === "en" ? s.lang : detectLang();
  if (Number.isInteger(s.speed)) app.speed = s.speed;
  else if (matchMedia("(prefers-reduced-motion: reduce)").matches) app.speed = 0;
  app.showChance = s.show_chance !== false;
  // A speed asked for in the address (?speed=0) wins: handy for demos and tests.
  const q = new URLSearchParams(location.search).get("speed");
  if (q !== null && /^[0-3]$/.test(q)) app.speed = Number(q);
  applySpeed();
  applyLang(lang);
}

async function main() {
  buildBoard();
  setupDialogs();
  setupReplayBar();
  $("#b-undo").addEventListener("click", () => enqueue(doUndo));
  $("#b-redo").addEventListener("click", () => enqueue(doRedo));
  $("#b-hint").addEventListener("click", () => showHint(!app.hintOn));
  $("#b-step").addEventListener("click", () => enqueue(doStep));
  $("#b-auto").addEventListener("click", toggleAuto);
  $("#b-new").addEventListener("click", () => enqueue(() => startGame().catch(() => {})));
  $("#b-deal").addEventListener("click", openDealDialog);
  $("#b-restart").addEventListener("click", () => enqueue(doRestart));
  $("#b-stats").addEventListener("click", () => openStats({
    replay: (id) => enqueue(() => startReplay(id)), reopen: (id) => enqueue(() => reopenGame(id)), toast,
    variant: app.state && app.state.variant && app.state.variant.token, current: app.state && app.state.id,
  }));
  $("#b-rules").addEventListener("click", () => openHelp());
  $("#b-settings").addEventListener("click", openSettings);
  $("#b-lang").addEventListener("click", () => switchLang(getLang() === "ru" ? "en" : "ru"));
  document.addEventListener("keydown", onKey);
  // The same game may have moved on meanwhile in another tab or in the terminal game
  // (same player, same store): look again when the page comes back into view, so that
  // a refusal explained from the state is not explained from a stale one.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && app.state && !app.replay) enqueue(refreshState);
  });
  new ResizeObserver(() => fit()).observe(table);
  await loadSettings();
  fit();
  await loadCurrent();
  fit();
  document.body.classList.add("ready");
}

export { toast, startReplay };

main();
