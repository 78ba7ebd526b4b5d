// Card sounds (issue 28), synthesised with Web Audio: no sound file, nothing fetched, so
// the static site plays them offline too. Each sound is a few oscillators and a burst
// of noise shaped by gain envelopes, made here when played.
//
// When: only with the player's "Card sounds" setting on (off by default: a page does not
// speak up unasked; the M key or the settings turn it on), and only once the player has
// pressed something on the page (a user gesture: no AudioContext exists before). The
// animation setting does not silence them: "instant" is a pace, and reduced motion is
// about motion, not sound; quiet is the sound setting, which a player sets in one key.

import { t } from "./i18n.js";
import { announce, app } from "./store.js";

/** @typedef {"turn" | "play" | "refused" | "pile" | "redeal" | "win" | "loss"} Cue */
/** @typedef {import("./api-types").GameState} GameState */
/** @typedef {import("./api-types").ActionResult} ActionResult */

/** @type {AudioContext | null} */
let ctx = null;
/** @type {GainNode | null} */
let master = null;
/** @type {AudioBuffer | null} */
let noise = null;
/** Whether the player has pressed a key or pointer on the page yet. */
let gestured = false;
/** When each cue last sounded (the page's clock, ms: a context not yet running keeps its
 * own clock at 0, which would silence every later cue alike): a fast Auto does not pile
 * them up. */
const last = /** @type {Record<string, number>} */ ({});

/** Whether card sounds are on (the player's setting). */
export function soundOn() {
  return app.settings.sound === true;
}

/** The context, made at the first sound after a gesture (never before one). */
function audio() {
  if (!ctx) {
    const AC = window.AudioContext;
    if (!AC) return null;
    ctx = new AC();
    master = ctx.createGain();
    master.connect(ctx.destination);
    noise = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.4), ctx.sampleRate);
    const data = noise.getChannelData(0);
    let seed = 12345; // the same noise every time (a small linear congruential generator)
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data[i] = (seed / 0x3fffffff) - 1;
    }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  /** @type {GainNode} */ (master).gain.value = Math.max(0, Math.min(100, app.settings.volume ?? 60)) / 100 * 0.6;
  return ctx;
}

/** A tone: ``type`` wave at ``freq`` Hz (to ``to`` Hz), from ``at`` s for ``dur`` s, peak ``peak``.
 * @param {AudioContext} c @param {OscillatorType} type @param {number} freq @param {number} at
 * @param {number} dur @param {number} peak @param {number} [to] */
function tone(c, type, freq, at, dur, peak, to) {
  const o = c.createOscillator();
  const g = c.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  if (to) o.frequency.exponentialRampToValueAtTime(to, at + dur);
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(peak, at + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  o.connect(g).connect(/** @type {GainNode} */ (master));
  o.start(at);
  o.stop(at + dur + 0.02);
}

/** A burst of noise through a band-pass at ``freq`` Hz: the snap of a card.
 * @param {AudioContext} c @param {number} at @param {number} dur @param {number} freq @param {number} peak */
function snap(c, at, dur, freq, peak) {
  const src = c.createBufferSource();
  src.buffer = noise;
  const f = c.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = freq;
  f.Q.value = 0.9;
  const g = c.createGain();
  g.gain.setValueAtTime(peak, at);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  src.connect(f).connect(g).connect(/** @type {GainNode} */ (master));
  src.start(at);
  src.stop(at + dur + 0.02);
}

/** What each cue is made of. @type {Record<Cue, (c: AudioContext, at: number) => void>} */
const SOUNDS = {
  turn: (c, at) => snap(c, at, 0.07, 2600, 0.5),
  play: (c, at) => { snap(c, at, 0.05, 1800, 0.55); tone(c, "sine", 190, at, 0.09, 0.35, 120); },
  refused: (c, at) => { tone(c, "triangle", 233, at, 0.11, 0.3); tone(c, "triangle", 185, at + 0.12, 0.16, 0.3); },
  pile: (c, at) => [523.25, 659.25, 783.99].forEach((f, i) => tone(c, "sine", f, at + i * 0.07, 0.22, 0.25)),
  redeal: (c, at) => { for (let i = 0; i < 7; i++) snap(c, at + i * 0.035, 0.05, 2200 + 150 * i, 0.35); },
  win: (c, at) => [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(c, "triangle", f, at + i * 0.11, 0.45, 0.3)),
  loss: (c, at) => { tone(c, "sine", 392, at, 0.35, 0.22); tone(c, "sine", 329.63, at + 0.3, 0.6, 0.2); },
};

/** Play ``cue``, if sounds are on and the player has pressed something on the page.
 * @param {Cue} cue */
export function cue(cue) {
  if (!soundOn() || !gestured) return;
  const at = performance.now();
  if (at - (last[cue] ?? -Infinity) < 60) return;
  last[cue] = at;
  sound(cue);
}

/** Make ``cue``'s sound now. @param {Cue} cue */
function sound(cue) {
  const c = audio();
  if (c) SOUNDS[cue](c, c.currentTime + 0.005);
}

/** The sound of an action's answer: the game's end, a pile completed, a redeal, a card
 * played, a card turned (the first that applies; none for an answer that moved nothing).
 * Pure: what ``before`` and ``result`` say. @param {GameState | null} before @param {ActionResult} result
 * @returns {Cue | null} */
export function cueFor(before, result) {
  const s = result.state;
  if (before && before.status === "playing" && s.status === "won") return "win";
  if (before && before.status === "playing" && s.status === "lost") return "loss";
  const moved = result.movements || [];
  if (!moved.length) return null;
  if (before && s.piles.some((p, k) => p.length === 13 && before.piles[k].length < 13)) return "pile";
  if (moved.some((m) => m.from === "waste" && m.to === "stock")) return "redeal";
  if (moved.some((m) => m.to[0] === "P")) return "play";
  return "turn";
}

/** The mute key: card sounds on or off, said and saved.
 * @param {(change: {sound: boolean}) => unknown} save */
export function toggleSound(save) {
  const on = !soundOn();
  app.settings.sound = on;
  save({ sound: on });
  announce(t(on ? "say.sound_on" : "say.sound_off"));
  // Heard at once, as the key's answer; it holds back no card's sound that follows.
  if (on && gestured) sound("turn");
}

/** Note the player's first gesture: from then on sounds may play. */
export function listenForGesture() {
  const mark = () => { gestured = true; };
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, mark, { capture: true, once: true });
}
