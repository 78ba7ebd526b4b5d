// What screen readers hear, beyond the polite announcement of one action (store.js):
// a live region inside every dialog and the end panel (a modal hides #announce), and a
// summarised stream for runs of moves (Auto, Advance, a replay playing): at most one
// announcement every STREAM_GAP ms while it runs (none with verbosity "brief"), and a
// summary when it stops — never a thousand-character announcement.

import { announce, app } from "./store.js";
import { streamWords, tally } from "./words.js";

/** @typedef {import("./api-types").Movement} Movement */
/** @typedef {import("./api-types").GameState} GameState */

/** The least time between two announcements of a run, ms ("about one a second"). */
export const STREAM_GAP = 1500;

/** Announcements longer than this are summed up instead (an Advance of many turns). */
export const LONG_WORDS = 160;

/** How much the player wants said (the settings' verbosity). @returns {"brief" | "full"} */
export function verbosity() {
  return app.settings && app.settings.verbosity === "brief" ? "brief" : "full";
}

/** Give every dialog and the end panel a live region of its own (store.liveRegion picks
 * the one on top), and note when each dialog opens (the last opened is on top). */
export function setupLiveRegions() {
  const holders = [...document.querySelectorAll("dialog"), document.querySelector("#ending .end-panel")];
  for (const holder of holders) {
    if (!(holder instanceof HTMLElement) || holder.querySelector("[data-live]")) continue;
    const region = document.createElement("div");
    region.className = "sr-only";
    region.dataset.live = "";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    holder.append(region);
    if (holder instanceof HTMLDialogElement) {
      new MutationObserver(() => {
        if (holder.open) holder.dataset.openedAt = String(performance.now());
      }).observe(holder, { attributes: true, attributeFilter: ["open"] });
    }
  }
}

/**
 * A run of moves being said.
 * @typedef {object} Run
 * @property {number} moves all moves of the run
 * @property {Movement[]} all all its movements
 * @property {number} pendingMoves moves not yet said
 * @property {Movement[]} pending their movements
 * @property {number} said when the last announcement was made (performance.now)
 */

/** @type {Run | null} */
let run = null;

/** A run of moves begins (Auto started, a replay plays). */
export function streamStart() {
  run = { moves: 0, all: [], pendingMoves: 0, pending: [], said: performance.now() };
}

/** Whether a run is being said. */
export function streaming() {
  return run !== null;
}

/** One answer of the run: ``moves`` moves with their ``movements``, ``state`` after
 * them. Said (summed up since the last announcement) once STREAM_GAP has passed, in
 * "full" verbosity only. @param {number} moves @param {Movement[]} movements @param {GameState | null} state */
export function streamPush(moves, movements, state) {
  if (!run) return;
  run.moves += moves;
  run.all.push(...movements);
  run.pendingMoves += moves;
  run.pending.push(...movements);
  const now = performance.now();
  if (verbosity() === "full" && now - run.said >= STREAM_GAP) {
    announce(streamWords(run.pendingMoves, tally(run.pending), state, "brief"));
    run.said = now;
    run.pendingMoves = 0;
    run.pending = [];
  }
}

/** The run stops: its summary is said (``prefix`` a catalog template with {summary}),
 * unless the game ended (the end panel says how). @param {GameState | null} state
 * @param {(summary: string) => string} [wrap] */
export function streamEnd(state, wrap = (s) => s) {
  const r = run;
  run = null;
  if (!r || r.moves === 0) return;
  if (state && state.status !== "playing" && !app.replay) return;
  announce(wrap(streamWords(r.moves, tally(r.all), state, verbosity())));
}

/** The words for one answer of several moves: the server's own, or, when long (an
 * Advance of many turns), their summary (what the pile needs is the caller's to add). @param {string} words @param {number} moves
 * @param {Movement[]} movements @param {GameState} state */
export function answerWords(words, moves, movements, state) {
  if (moves <= 2 && words.length <= LONG_WORDS) return words;
  return streamWords(moves, tally(movements), state, "brief");
}
