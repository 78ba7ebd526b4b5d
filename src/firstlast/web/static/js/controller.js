// The player's actions: each asks the server, animates its answer and shows the new
// state. A move the state already refuses is explained at once, without a request.
// Every action runs through the queue (queue.js), so they never overlap.

import { ApiError, api } from "./api.js";
import { describePlaces, reconcile } from "./board.js";
import { scheduleChance } from "./chance.js";
import { t } from "./i18n.js";
import { answerWords, streamEnd, streamPush, streamStart, streaming, verbosity } from "./live.js";
import { cascadeGap, flowBeats, refusalFor } from "./model.js";
import { animateMovements, dealIn, flow, flyTime, gather, landed, moveGap } from "./motion.js";
import { enqueue } from "./queue.js";
import { cue, cueFor } from "./sound.js";
import { $, announce, app } from "./store.js";
import { hideEnding, render, showHint, toast } from "./view.js";
import { FINISH_MS } from "./vocabulary.js";
import { askWish } from "./wish.js";
import { pileWords } from "./words.js";

/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").ActionResult} ActionResult */
/** @typedef {import("./api-types").VariantSpec} VariantSpec */

/** Show ``state`` (the picture must already match it). @param {GameState} state */
export function setState(state) {
  app.state = state;
  $("#loading").hidden = true;
  render();
  describePlaces();
  scheduleChance();
}

/** Animate an action's movements, then show its state, and say what happened: the
 * server's words (summed up when long, an Advance of many turns; a redo marked as one),
 * in "full" verbosity with what the active pile needs once a card reached a pile. While
 * Auto runs, the answer joins the summarised stream instead (live.js). ``gapMs``: play
 * the movements as a flow (motion.flow), a move every ``gapMs``, and show the state once
 * the last card has left, without waiting for it to land (Auto, Finish).
 * @param {ActionResult} result @param {"redo"} [kind] @param {number} [gapMs] */
async function applyResult(result, kind, gapMs) {
  const sound = cueFor(app.state, result);
  if (sound) cue(sound);
  app.hintOn = false;
  showHint(false);
  if (result.movements && result.movements.length) {
    try {
      const d = flyTime();
      if (gapMs !== undefined && d) await flow(result.movements, gapMs, d);
      else await animateMovements(result.movements);
    } catch (e) {
      console.warn(e);
    }
  }
  reconcile(result.state, result.movements && result.movements.length ? 0 : flyTime());
  setState(result.state);
  const movements = result.movements || [];
  if (streaming()) {
    streamPush(result.steps.length, movements, result.state);
    return;
  }
  let words = answerWords(result.announcement, result.steps.length, movements, result.state);
  if (kind === "redo") words = t("say.redo", { what: words });
  if (verbosity() === "full" && result.state.status === "playing" && movements.some((m) => m.to[0] === "P")) {
    words = `${words.replace(/[.;\s]+$/, "")}. ${pileWords(result.state)}`;
  }
  announce(words);
}

/** Say why an action failed, in the page's language (the toast is said to screen
 * readers too: app.js): the server's words for the refusal.
 * @param {unknown} err */
export function showError(err) {
  if (err instanceof ApiError && err.code === "game.changed") {
    // Another window moved this game on: show the saved game (docs/play.md).
    toast(t("changed"), "error");
    enqueue(refreshState);
    return;
  }
  if (err instanceof ApiError) {
    if (err.status === 409) cue("refused");
    if (err.status === 0) toast(t("err_network"), "error");
    else toast(err.text, "error");
  } else {
    console.error(err);
    toast(String(err instanceof Error ? err.message : err), "error");
  }
}

/** Make ``move``; true when the server made it. @param {string} move */
export async function send(move) {
  if (!app.state) return false;
  // A move the rules forbid is explained from the state (the engine's own refusal), so
  // the refusal is at once and no request is made to be answered 409.
  const refused = refusalFor(app.state, move);
  if (refused) {
    showError(new ApiError(409, refused.error, refused.rule, refused.code, refused.params, refused.text));
    return false;
  }
  try {
    const result = await api.move(app.state.id, move, app.state.version);
    await applyResult(result);
    return true;
  } catch (err) {
    showError(err);
    return false;
  }
}

/** A click on the stock: the server says what it asks for (turn, or redeal once empty). */
export async function turnStock() {
  const s = app.state;
  if (!s) return;
  await send(s.stock_move);
}

/** Play the card at ``place``; the move is the place's name. @param {string} place */
export function playFrom(place) {
  return enqueue(() => send(place));
}

/** An action on the game on the table that answers a Result.
 * @param {(id: string, version: number) => Promise<ActionResult>} call
 * @param {(s: GameState) => boolean} allowed when it may be asked @param {"redo"} [kind] */
function action(call, allowed, kind) {
  return async () => {
    if (!app.state || !allowed(app.state)) return;
    try {
      await applyResult(await call(app.state.id, app.state.version), kind);
    } catch (err) {
      showError(err);
    }
  };
}

const playing = (/** @type {GameState} */ s) => s.status === "playing";
/** The forced move. */
export const doStep = action(api.step, playing);
/** Turn until a card fits (or a redeal is due): the play layer's "advance". */
export const doAdvance = action(api.advance, playing);
export const doUndo = action(api.undo, (s) => s.can_undo);
export const doRedo = action(api.redo, (s) => s.can_redo, "redo");

/** Finish now: the forced line to the end in one request, played as a quick cascade
 * (every move in at most FINISH_MS, the cards flying over one another), or shown at once
 * with the animation off or under reduced motion. */
export async function doFinish() {
  stopAuto();
  const s = app.state;
  if (!s || s.status !== "playing" || app.replay) return;
  try {
    const result = await api.step(s.id, s.version, 100000);
    app.hintOn = false;
    showHint(false);
    const d = flyTime();
    if (d && result.movements.length) {
      const beats = flowBeats(result.movements, 1);
      const span = beats.length ? beats[beats.length - 1].at + 1 : 1;
      document.body.classList.add("cascading");
      try {
        await flow(result.movements, cascadeGap(app.speed, span, FINISH_MS - d), Math.min(d, 260));
        await landed();
      } catch (e) {
        console.warn(e);
      } finally {
        document.body.classList.remove("cascading");
      }
    }
    const sound = cueFor(s, result); // the end's sound as the cascade lands
    if (sound) cue(sound);
    reconcile(result.state, 0);
    setState(result.state);
    // The end panel says how it ended (view.showEnding); a game still going says its moves.
    if (result.state.status === "playing") announce(answerWords(result.announcement, result.steps.length, result.movements, result.state));
  } catch (err) {
    showError(err);
  }
}

/** Rewind the game (or, finished, a new attempt at its deal), dealt anew. */
export async function doRestart() {
  if (!app.state) return;
  try {
    const result = await api.restart(app.state.id, app.state.version);
    await gather();
    reconcile(result.state, 0);
    setState(result.state);
    announce(t("say.restart", { n: result.state.deal }));
    await dealIn();
  } catch (err) {
    showError(err);
  }
}

/** A new game on the table: ``how`` is the server's choice of deal (number, random,
 * next, again, daily, winnable); the variant defaults to the player's setting. Throws
 * (after saying why) when the server refuses. ``onAnswer`` is called once the server has
 * dealt, before the deal is animated (the deal dialog closes then).
 * @param {string} [deal] @param {VariantSpec | string} [variant] a spec or a token @param {string} [how]
 * @param {() => void} [onAnswer] @param {boolean} [asDefault] the variant becomes the player's setting too
 * @param {{date?: string, wish?: string}} [extra] an earlier day's deal of the day (``date``); with the
 * setting "on a wish", the player is asked for one first */
export async function startGame(deal, variant, how, onAnswer, asDefault = false, extra = {}) {
  stopAuto();
  hideEnding();
  try {
    if (app.settings.wish && extra.wish === undefined) {
      const wish = await askWish();
      if (wish !== undefined) extra = { ...extra, wish };
    }
    const state = await api.newGame(deal, variant, how || (deal ? "number" : "random"), asDefault, extra);
    if (onAnswer) onAnswer();
    await gather();
    reconcile(state, 0);
    setState(state);
    announce(t("deal_n", { n: state.deal }));
    await dealIn();
  } catch (err) {
    showError(err);
    throw err;
  }
}

/** Put one of the player's unfinished games back on the table. @param {string} id */
export async function reopenGame(id) {
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

/** Show game ``id`` if given, else the game on the player's table (the server keeps
 * it, so the terminal game and other tabs agree), else deal a new one (unless
 * ``noDeal``: a shared deal is about to be dealt).
 * @param {string | null} [id] @param {boolean} [noDeal] */
export async function loadCurrent(id, noDeal = false) {
  let state = null;
  try {
    state = id ? await api.open(id) : await api.current();
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) showError(err);
  }
  if (!state && noDeal) return;
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

/** Show the game as saved, if it changed elsewhere (another tab, the terminal). */
export async function refreshState() {
  const s = app.state;
  if (!s) return;
  let fresh;
  try {
    fresh = await api.game(s.id);
  } catch {
    return; // gone or unreachable: the next move will say so
  }
  if (app.state !== s || JSON.stringify(fresh) === JSON.stringify(s)) return;
  reconcile(fresh, 0);
  setState(fresh);
}

// Auto: the forced line, one step per request, animated; pausable.

/** @param {boolean} on */
function autoButton(on) {
  const b = $("#b-auto");
  b.setAttribute("aria-pressed", String(on));
  /** @type {Element} */ (b.querySelector("use")).setAttribute("href", on ? "#i-pause" : "#i-auto");
  /** @type {Element} */ (b.querySelector("span")).textContent = on ? t("pause") : t("auto");
}

export function toggleAuto() {
  if (app.auto) stopAuto();
  else startAuto();
}

export function stopAuto() {
  const was = app.auto;
  app.auto = false;
  if (was) scheduleChance();
  autoButton(false);
}

function startAuto() {
  if (!app.state || app.state.status !== "playing" || app.replay) return;
  app.auto = true;
  streamStart();
  autoButton(true);
  enqueue(autoLoop);
}

/** How long the server took to answer Auto's last request, ms (a guess at first). */
let answerMs = 60;

/** Most forced moves Auto asks for at once. */
const AUTO_BATCH_MAX = 16;

/** How many forced moves Auto asks for at once: enough to keep the cards flying for
 * twice as long as the server takes to answer (at least an eighth of a second's worth,
 * at most AUTO_BATCH_MAX; one at a time at the slow pace), so the flow never waits for
 * an answer, on a busy machine or the static site's worker too. With nothing flying
 * (instant pace, or less motion asked for) Auto goes as fast as the face can
 * (``play.settings.PACES``): the most at once, a request and a drawing for many moves,
 * not one each. */
function autoBatch() {
  const gap = moveGap();
  if (!gap) return AUTO_BATCH_MAX;
  return Math.max(1, Math.min(AUTO_BATCH_MAX, Math.round(Math.max(125, 2 * answerMs) / gap)));
}

/** @typedef {{result?: ActionResult, err?: unknown}} Answer */

/** Ask for the next forced moves; the answer or the error, never a rejection.
 * @param {GameState} s @returns {Promise<Answer>} */
function nextSteps(s) {
  const asked = performance.now();
  return api.step(s.id, s.version, autoBatch()).then((result) => {
    answerMs = performance.now() - asked;
    return { result };
  }, (err) => ({ err }));
}

async function autoLoop() {
  // Pipelined: the next moves are asked for as soon as an answer comes, while its cards
  // fly, so the flow never waits for the server. Every answer asked for is shown, in
  // order, even after a pause (the moves are made): none is lost or skipped.
  /** @type {Promise<Answer> | null} */
  let next = app.state && app.state.status === "playing" ? nextSteps(app.state) : null;
  while (next) {
    const { result, err } = await next;
    next = null;
    if (!result) {
      showError(err);
      break;
    }
    if (app.auto && result.state.status === "playing") next = nextSteps(result.state);
    const gap = moveGap();
    await applyResult(result, undefined, gap);
    // With animation off the loop still yields, so the page stays responsive.
    if (!gap) await new Promise((r) => setTimeout(r, 0));
  }
  await landed();
  stopAuto();
  // What the run did, in a sentence, its last step included (unless the game ended:
  // the end panel says how).
  streamEnd(app.state, (summary) => t("say.stream.stopped", { summary }));
}
