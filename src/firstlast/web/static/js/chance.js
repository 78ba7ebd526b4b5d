// The "chance to come out" meter. Half a second after the position settles (not during
// autoplay) it asks the server for round 0 of the estimate; then, while the player is
// idle (no key, no pointer for a second), for the round the last answer names
// (``next_round``: 1, 2, … — new, independent samples of the same position, docs/odds.md,
// "Refinement rounds") until it names none. How many samples a round plays, how rounds
// pool and when to stop are the play layer's one policy (play/chance.py), the
// terminal's too, so both show the same figure for the same position. Each answer
// carries the rounds pooled so far (``pooled``), worded by the one display rule of
// every face (i18n.chance_text, docs/i18n.md): the page shows that and counts nothing
// itself. Any action (a new state) starts over; stale answers are dropped; the meter is
// hidden where the odds module is not installed. The meter shows the figure's short form
// (``pooled.short``, a few characters: its width barely changes, so the status bar never
// reflows the table); its help says the whole figure, interval included. A game known to
// come out (``state.comes_out``: dealt because it does, and play is forced) is said so,
// and nothing is estimated.
//
// Nobody sees the meter, nobody pays for it (issue 25.7): while the table is out of
// sight — the page hidden, or covered by a modal dialog or the end panel (``unseen``) —
// refinement rests (the meter says why: ``data-rest``), with no timer running, and goes
// on from the round it had reached when the table is seen again: woken by the event
// that uncovers it (a dialog's ``close``, the end panel hidden, ``visibilitychange``).
// Round 0, the position's first figure, is asked for all the same. The meter writes only
// what changed: an answer that words the same figure redraws nothing.

import { ApiError, api } from "./api.js";
import { getLang, t } from "./i18n.js";
import { $, app } from "./store.js";

/** @typedef {import("./api-types").Chance} Chance */

// ---------------------------------------------------------------------- the meter
/** The player is idle after this long without a key or a pointer, ms. */
export const IDLE_MS = 1000;

let lastInput = 0;
let listening = false;
/** The answer on show (its pooled figure) and the position it is about. */
let shown = /** @type {{key: string, answer: Chance} | null} */ (null);

/** Refinement resting, to go on when the table is seen again (``rest``). */
let onSeen = /** @type {(() => void) | null} */ (null);
let watching = false;

/** Any key or pointer: not idle (refinement waits). */
function markInput() {
  lastInput = performance.now();
}

/** The position the meter is about: game, moves and version. */
function positionKey() {
  const s = app.state;
  return s ? `${s.id}:${s.version}:${s.moves}` : "";
}

/** @param {HTMLElement} box @param {string} sel */
const part = (box, sel) => /** @type {HTMLElement} */ (box.querySelector(sel));

// Writes that change something: the same words written again would have the browser
// style, lay out and draw the status bar again (and, under a dialog, its blurred backdrop).
/** @param {HTMLElement} el @param {string} text */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
/** @param {HTMLElement} el @param {string} name @param {string} value */
function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
/** @param {HTMLElement} el @param {string} name @param {string} value */
function setData(el, name, value) {
  if (el.dataset[name] !== value) el.dataset[name] = value;
}
/** @param {HTMLElement} el @param {string} name @param {boolean} on */
function setClass(el, name, on) {
  if (el.classList.contains(name) !== on) el.classList.toggle(name, on);
}
/** The fill at ``p`` (0…1), in whole hundredths of the meter (under a pixel each: a
 * figure refined by a hair does not move it). Drawn as a scale, which the browser
 * animates without laying the page out. @param {HTMLElement} box @param {number} p */
function setFill(box, p) {
  const el = part(box, ".fill");
  const scale = `scaleX(${Math.round(Math.max(0, Math.min(1, p)) * 100) / 100})`;
  if (el.style.transform !== scale) el.style.transform = scale;
}

/** Why the table is out of sight now: ``"hidden"`` (the page is: another tab, a
 * minimised window), ``"covered"`` (a dialog is open — the page opens every dialog
 * modal, over the table — or the end panel is), ``""`` when it is seen.
 * @returns {"hidden" | "covered" | ""} */
export function unseen() {
  if (document.hidden) return "hidden";
  const ending = document.getElementById("ending");
  return document.querySelector("dialog[open]") || (ending && !ending.hidden) ? "covered" : "";
}

/** Rest until the table is seen again, then ``then``. Woken by the events that can
 * uncover it, never by a timer: a dialog's ``close`` (it does not bubble: heard on its
 * way down), the end panel's ``hidden`` (a MutationObserver), ``visibilitychange``.
 * @param {"hidden" | "covered"} why @param {() => void} then */
function rest(why, then) {
  setData($("#s-chance"), "rest", why);
  onSeen = then;
  if (watching) return;
  watching = true;
  const check = () => {
    if (!onSeen) return;
    const still = unseen();
    if (still) {
      setData($("#s-chance"), "rest", still);
      return;
    }
    const go = onSeen;
    onSeen = null;
    delete $("#s-chance").dataset.rest;
    go();
  };
  document.addEventListener("visibilitychange", check);
  document.addEventListener("close", check, { capture: true });
  const ending = document.getElementById("ending");
  if (ending) new MutationObserver(check).observe(ending, { attributes: true, attributeFilter: ["hidden"] });
}

/** Show ``answer``'s pooled figure on the meter. @param {Chance} answer */
function show(answer) {
  const box = $("#s-chance");
  const lang = getLang();
  const est = { ...answer.pooled, certain: answer.certain };
  const text = est.text;
  box.hidden = false;
  setClass(box, "stale", false);
  setClass(box, "known", false);
  setText(part(box, ".value"), est.short);
  setFill(box, est.probability);
  const help = est.certain ? t("chance.help.certain", { text })
    : t("chance.help", { text, n: est.samples.toLocaleString(lang) });
  setAttr(box, "title", help);
  setAttr(box, "aria-label", help);
  setData(box, "samples", String(est.samples));
  // The pooled figure and its 95 % interval as numbers (0…1), for whoever reads the page
  // without its words (tests, the site's bench).
  setData(box, "probability", String(est.probability));
  setData(box, "low", String(est.low));
  setData(box, "high", String(est.high));
}

/** A game known to come out (the server's ``comes_out``, not a guess): the meter says so
 * in place of a figure, full, and its help says why. */
function showComesOut() {
  const box = $("#s-chance");
  box.hidden = false;
  setClass(box, "stale", false);
  setClass(box, "known", true);
  setText(part(box, ".value"), t("chance.comes_out"));
  setFill(box, 1);
  const help = t("chance.help.comes_out");
  setAttr(box, "title", help);
  setAttr(box, "aria-label", help);
  for (const k of ["samples", "low", "high"]) delete box.dataset[k];
  setData(box, "probability", "1");
}

/** @param {unknown} err @param {number} seq */
function failed(err, seq) {
  const box = $("#s-chance");
  if (err instanceof ApiError && [404, 405, 501, 503].includes(err.status)) {
    // No odds in this installation (or the game is gone): hide the meter quietly.
    if (err.status !== 404 || seq === app.chanceSeq) box.hidden = true;
    if (err.status !== 404) app.chanceBroken = true;
  } else if (seq === app.chanceSeq) {
    box.hidden = true;
  }
}

/** Ask for the chance of the position on the table, soon; then refine it while idle. */
export function scheduleChance() {
  clearTimeout(app.chanceTimer);
  if (!listening && typeof document.addEventListener === "function") {
    listening = true;
    for (const ev of ["keydown", "pointerdown", "wheel"]) document.addEventListener(ev, markInput, { capture: true, passive: true });
  }
  const box = $("#s-chance");
  const seq = ++app.chanceSeq;
  onSeen = null; // a resting refinement is about a position gone (or is taken up below)
  delete box.dataset.rest;
  if (!app.showChance || !app.state || app.replay || (app.chanceBroken && !app.state.comes_out)) {
    box.hidden = true;
    return;
  }
  if (app.state.comes_out) {
    showComesOut(); // known: nothing to estimate
    app.chanceFor = null;
    shown = null;
    return;
  }
  if (app.auto) return; // during autoplay, ask once it pauses or ends
  const id = app.state.id;
  const key = positionKey();
  if (shown && shown.key === key) {
    // The same position (a redrawn state): keep the pooled figure, go on refining.
    show(shown.answer);
    app.chanceTimer = setTimeout(() => refine(seq, id, key), IDLE_MS);
    return;
  }
  setClass(box, "stale", true);
  if (app.chanceFor !== id || box.classList.contains("known")) {
    setClass(box, "known", false);
    // Another game: the last game's figure says nothing about this one.
    app.chanceFor = id;
    setText(part(box, ".value"), "…");
  }
  app.chanceTimer = setTimeout(async () => {
    try {
      const c = await api.chance(id, 0);
      if (seq !== app.chanceSeq) return;
      shown = { key, answer: c };
      show(c);
      if (c.next_round !== null) app.chanceTimer = setTimeout(() => refine(seq, id, key), IDLE_MS);
    } catch (err) {
      failed(err, seq);
    }
  }, 500);
}

/** The round the server named next, if the player is idle, the table in sight and the
 * position unchanged; else wait: for the table to be seen (``rest``), for the action
 * under way to end (``firstlast:idle``), for a second without input. Autoplay asks
 * again when it stops (controller.js ``stopAuto``). @param {number} seq @param {string} id
 * @param {string} key */
async function refine(seq, id, key) {
  if (seq !== app.chanceSeq || !shown || shown.key !== key || shown.answer.next_round === null || app.auto) return;
  const again = () => refine(seq, id, key);
  const why = unseen();
  if (why) {
    rest(why, again);
    return;
  }
  if (app.busy) {
    document.addEventListener("firstlast:idle", again, { once: true });
    return;
  }
  const idle = performance.now() - lastInput;
  if (idle < IDLE_MS || app.dragging) {
    app.chanceTimer = setTimeout(again, Math.max(200, IDLE_MS - idle));
    return;
  }
  const round = shown.answer.next_round;
  let c;
  try {
    c = await api.chance(id, round);
  } catch (err) {
    if (seq === app.chanceSeq) failed(err, seq);
    return;
  }
  // Any action meanwhile (a new state, a new request): this round is stale.
  if (seq !== app.chanceSeq || !shown || shown.key !== key || positionKey() !== key) return;
  shown = { key, answer: c };
  show(c);
  if (c.next_round !== null) app.chanceTimer = setTimeout(again, 250);
}
