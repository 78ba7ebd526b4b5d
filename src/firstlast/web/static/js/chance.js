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

/** Show ``answer``'s pooled figure on the meter. @param {Chance} answer */
function show(answer) {
  const box = $("#s-chance");
  const lang = getLang();
  const est = { ...answer.pooled, certain: answer.certain };
  const text = est.text;
  box.hidden = false;
  box.classList.remove("stale", "known");
  part(box, ".value").textContent = est.short;
  part(box, ".fill").style.width = `${Math.max(0, Math.min(100, est.probability * 100))}%`;
  const help = est.certain ? t("chance.help.certain", { text })
    : t("chance.help", { text, n: est.samples.toLocaleString(lang) });
  box.title = help;
  box.setAttribute("aria-label", help);
  box.dataset.samples = String(est.samples);
  // The pooled figure and its 95 % interval as numbers (0…1), for whoever reads the page
  // without its words (tests, the site's bench).
  box.dataset.probability = String(est.probability);
  box.dataset.low = String(est.low);
  box.dataset.high = String(est.high);
}

/** A game known to come out (the server's ``comes_out``, not a guess): the meter says so
 * in place of a figure, full, and its help says why. */
function showComesOut() {
  const box = $("#s-chance");
  box.hidden = false;
  box.classList.remove("stale");
  box.classList.add("known");
  part(box, ".value").textContent = t("chance.comes_out");
  part(box, ".fill").style.width = "100%";
  const help = t("chance.help.comes_out");
  box.title = help;
  box.setAttribute("aria-label", help);
  for (const k of ["samples", "probability", "low", "high"]) delete box.dataset[k];
  box.dataset.probability = "1";
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
  box.classList.add("stale");
  if (app.chanceFor !== id || box.classList.contains("known")) {
    box.classList.remove("known");
    // Another game: the last game's figure says nothing about this one.
    app.chanceFor = id;
    part(box, ".value").textContent = "…";
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

/** The round the server named next, if the player is idle and the position unchanged;
 * else wait. @param {number} seq @param {string} id @param {string} key */
async function refine(seq, id, key) {
  if (seq !== app.chanceSeq || !shown || shown.key !== key || shown.answer.next_round === null) return;
  const idle = performance.now() - lastInput;
  if (idle < IDLE_MS || app.busy || app.auto || app.dragging || document.hidden) {
    app.chanceTimer = setTimeout(() => refine(seq, id, key), Math.max(200, IDLE_MS - idle));
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
  if (c.next_round !== null) app.chanceTimer = setTimeout(() => refine(seq, id, key), 250);
}
