// The keyboard: which key asks for which action is the generated KEYMAP (vocabulary.js, made
// from the play layer's one table of keys, the terminal's too: t/е turn, 1–8 reserve,
// h/р hint, ? help, L/Д language …); this wires each action to what it does here, and
// keeps the replay's arrows.

import {
  doAdvance, doRedo, doStep, doUndo, playFrom, stopAuto, toggleAuto, turnStock,
} from "./controller.js";
import { openCalendar } from "./daily.js";
import { askNewGame, openDealDialog, openSettings, setMenu } from "./dialogs.js";
import { openHelp } from "./help.js";
import { getLang, otherLang } from "./i18n.js";
import { keyName } from "./keyname.js";
import { enqueue } from "./queue.js";
import { exitReplay, replayPlay, replayStep } from "./replay.js";
import { reviewHere, saySummary } from "./review.js";
import { saveSettings, switchLang } from "./settings.js";
import { toggleSound } from "./sound.js";
import { $, $input, app } from "./store.js";
import { hideEnding, showEnding, toggleHint } from "./view.js";
import { KEYMAP } from "./vocabulary.js";

/** Open the statistics (its history lists the unfinished games and imports records). */
function openStatsDialog() {
  $("#b-stats").click();
}

/** What each action of the table does on the page; an action missing here is a key the
 * page leaves alone. ``key``: the key pressed (1–8 name the reserve card).
 * @type {Record<string, (key: string) => void>} */
export const HANDLERS = {
  turn: () => enqueue(turnStock),
  reserve: (key) => playFrom(`R${key}`),
  privileged: () => playFrom("F8"),
  base: () => { if (app.state && app.state.base_move) playFrom(app.state.base_move); },
  waste: () => playFrom("waste"),
  step: () => enqueue(doStep),
  advance: () => enqueue(doAdvance),
  auto: () => toggleAuto(),
  pause: () => {
    if (app.auto) stopAuto();
    else if (!$("#ending").hidden) hideEnding();
    else if ($("#topbar").classList.contains("menu-open")) { setMenu(false); $("#b-more").focus(); }
  },
  undo: () => enqueue(doUndo),
  redo: () => enqueue(doRedo),
  hint: () => toggleHint(),
  summary: () => saySummary(),
  review: () => reviewHere(),
  new: () => { askNewGame(); },
  deal: () => openDealDialog(),
  variant: () => openSettings(),
  unfinished: () => openStatsDialog(),
  import: () => { openStatsDialog(); $input("#import-file").click(); },
  stats: () => openStatsDialog(),
  calendar: () => { openCalendar(); },
  story: () => showEnding(),
  language: () => { switchLang(otherLang(getLang())); },
  settings: () => openSettings(),
  mute: () => toggleSound(saveSettings),
  help: () => openHelp(),
};

/** @param {KeyboardEvent} e */
export function onKey(e) {
  if (document.querySelector("dialog[open]")) return; // dialogs keep their own keys
  const target = /** @type {HTMLElement} */ (e.target);
  const tag = (target.tagName || "").toLowerCase();
  // The focus can still be in a dialog that has just closed (restoreFocus gives it back a
  // moment later): a key pressed then is the table's, not that dialog's field's.
  const stranded = !!target.closest?.("dialog:not([open])");
  if (!stranded && (tag === "input" || tag === "select" || tag === "textarea")) return;
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
  if (e.altKey) return;
  const name = keyName(e);
  // Space on a button presses the button, as everywhere.
  const onButton = tag === "button" || target.getAttribute?.("role") === "button";
  if (name === "space" && onButton) return;
  const handler = HANDLERS[KEYMAP[name]];
  if (!handler) return;
  handler(k);
  e.preventDefault();
}
