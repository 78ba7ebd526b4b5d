// Which sound an action's answer makes (static/js/sound.js cueFor), and that none plays
// before a gesture or with sounds off.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cue, cueFor, soundOn } from "../../../src/firstlast/web/static/js/sound.js";
import { app } from "../../../src/firstlast/web/static/js/store.js";

const pile = (n) => Array.from({ length: n }, (_, i) => ({ id: i }));
/** A state with pile lengths ``lengths`` and ``status``. */
const state = (status, lengths = [0, 0, 0, 0, 0, 0, 0, 0]) => ({ status, piles: lengths.map(pile) });
const result = (s, movements) => ({ state: s, movements });

test("an answer's sound: the end first, then a pile completed, a redeal, a play, a turn", () => {
  const playing = state("playing");
  assert.equal(cueFor(playing, result(state("won"), [])), "win");
  assert.equal(cueFor(playing, result(state("lost"), [])), "loss");
  assert.equal(cueFor(playing, result(state("playing"), [])), null); // nothing moved: silence
  const full = state("playing", [13, 0, 0, 0, 0, 0, 0, 0]);
  const twelve = state("playing", [12, 0, 0, 0, 0, 0, 0, 0]);
  assert.equal(cueFor(twelve, result(full, [{ from: "R1", to: "P1" }])), "pile");
  assert.equal(cueFor(full, result(full, [{ from: "waste", to: "stock" }])), "redeal");
  assert.equal(cueFor(playing, result(playing, [{ from: "R2", to: "P1" }])), "play");
  assert.equal(cueFor(playing, result(playing, [{ from: "stock", to: "waste" }])), "turn");
  // A finished game's answer (undo of the end, a replay) is no new win.
  assert.equal(cueFor(state("won"), result(state("won"), [])), null);
});

test("no sound with sounds off or before the player's first gesture", () => {
  app.settings.sound = false;
  assert.equal(soundOn(), false);
  cue("play"); // no AudioContext exists under node: had it tried to make one, this would throw
  app.settings.sound = true;
  assert.equal(soundOn(), true);
  cue("play"); // on, but no gesture yet: still nothing made
});
