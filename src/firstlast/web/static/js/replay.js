// Replaying a finished game: the bar's controls step through the recorded moves. No
// server calls: the picture follows the recorded movements, and the facts shown (need,
// privileged card, passes…) are the engine's, sent with each step: the page decides no
// rule. Beside the bar, the story of the game (story.js): its chance curve, with the
// replay's move marked; a click on the curve goes to that move.

import { ApiError, api } from "./api.js";
import { layout, picture, reconcile } from "./board.js";
import { loadCurrent, setState, showError, stopAuto } from "./controller.js";
import { t } from "./i18n.js";
import { streamEnd, streamPush, streamStart, verbosity } from "./live.js";
import { replayState, reversed } from "./model.js";
import { animateMovements } from "./motion.js";
import { enqueue } from "./queue.js";
import { $, $input, announce, app } from "./store.js";
import { geometryOf, moveAt, moveCursor, showStory } from "./story.js";
import { hideEnding, render, toast } from "./view.js";

/** Leave the game on the table for a replay of game ``id``. @param {string} id */
export async function startReplay(id) {
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
  $input("#r-range").max = String(data.steps.length);
  reconcile(data.initial, 300);
  setState(data.initial);
  renderReplayBar();
  $("#r-fwd").focus();
  const section = storySection();
  showStory(section, data.initial.id, data.steps.length, { prefix: "replay-story", cursor: 0,
    onStory: () => { if (app.replay) moveCursor(section, app.replay.index); } });
}

/** The story's place beside the replay bar (made once). */
function storySection() {
  let section = document.getElementById("replay-story");
  if (!section) {
    section = document.createElement("section");
    section.id = "replay-story";
    section.className = "end-story replay-story";
    section.title = t("story.replay.jump");
    // A click on the curve goes to the move under it.
    section.addEventListener("click", (e) => {
      const svg = /** @type {Element} */ (e.target).closest("svg.story-chart");
      if (!(svg instanceof SVGSVGElement) || !app.replay) return;
      const pt = svg.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      const m = svg.getScreenCTM();
      if (!m) return;
      const at = pt.matrixTransform(m.inverse());
      const move = moveAt(at.x, app.replay.steps.length, geometryOf(svg));
      app.replay.playing = false;
      enqueue(() => replayTo(move), true);
    });
    $("#replaybar").after(section);
  }
  return section;
}

export function renderReplayBar() {
  const r = app.replay;
  if (!r) return;
  $("#r-title").textContent = t("replay_mode", { n: r.initial.deal });
  $("#r-pos").textContent = t("replay_step", { i: r.index, n: r.steps.length });
  $input("#r-range").value = String(r.index);
  $("#r-play").textContent = r.playing ? t("pause") : t("replay_play");
  const section = document.getElementById("replay-story");
  if (section) moveCursor(section, r.index);
}

/** A jump (the slider, the chart) steps without saying each step. */
let jumping = false;

/** One step forwards (``dir`` 1) or back (-1), said in words: the step's own (the
 * server's), back as taken back, and where the replay is ("full" verbosity); while it
 * plays, summed up (live.js). @param {number} dir */
export async function replayStep(dir) {
  const r = app.replay;
  if (!r) return;
  let step;
  if (dir > 0 && r.index < r.steps.length) {
    step = r.steps[r.index];
    await animateMovements(step.movements);
    r.index++;
  } else if (dir < 0 && r.index > 0) {
    r.index--;
    step = r.steps[r.index];
    await animateMovements(reversed(step.movements));
  } else {
    return;
  }
  layout(null, 0);
  app.state = replayState(r.initial, r.index > 0 ? r.steps[r.index - 1].facts : r.initial, r.index, picture());
  render();
  renderReplayBar();
  if (r.playing) streamPush(1, step.movements, app.state);
  else if (!jumping) {
    const words = dir > 0 ? step.announcement : t("say.replay.back", { what: step.announcement });
    announce(verbosity() === "full" ? `${words}. ${t("replay_step", { i: r.index, n: r.steps.length })}` : words);
  }
}

/** Jump to step ``index``, without animation. @param {number} index */
async function replayTo(index) {
  const r = app.replay;
  if (!r) return;
  const speed = app.speed;
  app.speed = 0;
  jumping = true;
  try {
    while (r.index < index) await replayStep(1);
    while (r.index > index) await replayStep(-1);
  } finally {
    app.speed = speed;
    jumping = false;
  }
  announce(t("replay_step", { i: r.index, n: r.steps.length }));
}

/** Play the rest of the game, or pause. */
export function replayPlay() {
  const r = app.replay;
  if (!r) return;
  if (r.playing) {
    r.playing = false;
    renderReplayBar();
    return;
  }
  r.playing = true;
  renderReplayBar();
  streamStart();
  enqueue(async () => {
    while (r.playing && app.replay === r && r.index < r.steps.length) {
      await replayStep(1);
      await new Promise((res) => setTimeout(res, app.speed === 0 ? 0 : 60));
    }
    r.playing = false;
    renderReplayBar();
    streamEnd(app.state);
  }, true);
}

export function exitReplay() {
  const r = app.replay;
  if (!r) return;
  r.playing = false;
  // Leave once the step in flight has landed, then show the player's game again.
  enqueue(async () => {
    app.replay = null;
    document.body.classList.remove("replaying");
    $("#replaybar").hidden = true;
    const section = document.getElementById("replay-story");
    if (section) section.hidden = true;
    await loadCurrent(r.back);
  }, true);
}

export function setupReplayBar() {
  $("#r-back").addEventListener("click", () => enqueue(() => replayStep(-1), true));
  $("#r-fwd").addEventListener("click", () => enqueue(() => replayStep(1), true));
  $("#r-play").addEventListener("click", () => replayPlay());
  $("#r-exit").addEventListener("click", exitReplay);
  $("#r-range").addEventListener("change", () => {
    if (app.replay) app.replay.playing = false;
    enqueue(() => replayTo(Number($input("#r-range").value)), true);
  });
}
