// The keyboard: the same keys in both layouts (t/е turn, 1–8 reserve, p/з privileged
// card, b/и base, w/ц waste, s/ы step, f/а advance, a/ф auto, u/г undo, h/р hint, n/т
// new (asking first when a game is in progress), d/в deal, l/д language, e/у the
// table summary, x/ч the review of a pile, ? help),
// Ctrl+Z/Ctrl+Y, and the replay's arrows.

import {
  doAdvance, doRedo, doStep, doUndo, playFrom, toggleAuto, turnStock,
} from "./controller.js";
import { askNewGame, openDealDialog, setMenu } from "./dialogs.js";
import { openHelp } from "./help.js";
import { getLang } from "./i18n.js";
import { enqueue } from "./queue.js";
import { exitReplay, replayPlay, replayStep } from "./replay.js";
import { reviewHere, saySummary } from "./review.js";
import { switchLang } from "./settings.js";
import { $, app } from "./store.js";
import { hideEnding, toggleHint } from "./view.js";

/** @param {KeyboardEvent} e */
export function onKey(e) {
  if (document.querySelector("dialog[open]")) return; // dialogs keep their own keys
  const target = /** @type {HTMLElement} */ (e.target);
  const tag = (target.tagName || "").toLowerCase();
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
  if (k === "Escape" && $("#topbar").classList.contains("menu-open")) { setMenu(false); $("#b-more").focus(); e.preventDefault(); return; }
  if (ctrl && !e.shiftKey && (k === "z" || k === "Z")) { enqueue(doUndo); e.preventDefault(); return; }
  if (ctrl && (k === "y" || k === "Y" || (e.shiftKey && (k === "z" || k === "Z")))) { enqueue(doRedo); e.preventDefault(); return; }
  if (ctrl || e.altKey) return;
  const low = k.toLowerCase();
  const onButton = tag === "button" || target.getAttribute?.("role") === "button";
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
  else if (low === "h" || low === "р") toggleHint();
  else if (low === "e" || low === "у") saySummary();
  else if (low === "x" || low === "ч") reviewHere();
  else if (low === "n" || low === "т") askNewGame();
  else if (low === "d" || low === "в") openDealDialog();
  else if (low === "l" || low === "д") switchLang(getLang() === "ru" ? "en" : "ru");
  else if (k === "?" || k === ",") openHelp();
  else return;
  e.preventDefault();
}
