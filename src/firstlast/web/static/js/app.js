// The table: shows the server's state, animates the server's card movements, and sends
// the player's moves. The server (the rules engine) decides everything; the page keeps
// only a picture of where each card lies, to animate from one state to the next.
// This entry point wires the page's controls to the modules (docs/page.md).

import { buildBoard, fit, table } from "./board.js";
import {
  doAdvance, doFinish, doRedo, doStep, doUndo, loadCurrent, playFrom, refreshState, reopenGame, startGame,
  toggleAuto, turnStock,
} from "./controller.js";
import { setupDaily } from "./daily.js";
import { onPointerDown } from "./drag.js";
import { askNewGame, askRestart, confirmLeave, openDealDialog, openSettings, setupDialogs, shareGame } from "./dialogs.js";
import { keepFocus, noteFocus, watchInput } from "./focus.js";
import { openHelp } from "./help.js";
import { NARROW, getLang, langOf, otherLang, t, translatePage } from "./i18n.js";
import { onKey } from "./keys.js";
import { setupLiveRegions } from "./live.js";
import { listenForGesture } from "./sound.js";
import { enqueue } from "./queue.js";
import { setupReplayBar, startReplay } from "./replay.js";
import { openReview } from "./review.js";
import { applyLang, loadSettings, switchLang } from "./settings.js";
import { openStats } from "./stats.js";
import { $, $dialog, announce, app } from "./store.js";
import { arrowTabs } from "./tabs.js";
import { watchToolbar } from "./toolbar.js";
import { openTour, tourDue } from "./tour.js";
import { showHint, toast, toggleHint } from "./view.js";
import { DEAL_DIGITS, VARIANT_TOKEN } from "./vocabulary.js";

Object.assign(window, { firstlast: app }); // for the end-to-end tests and the curious

async function main() {
  watchInput();
  buildBoard({ turn: () => enqueue(turnStock), play: playFrom, press: onPointerDown });
  setupDialogs();
  setupDaily();
  setupLiveRegions();
  listenForGesture();
  setupReplayBar();
  $("#b-undo").addEventListener("click", () => enqueue(doUndo));
  $("#b-redo").addEventListener("click", () => enqueue(doRedo));
  $("#b-hint").addEventListener("click", toggleHint);
  $("#b-review").addEventListener("click", () => openReview());
  $("#b-step").addEventListener("click", () => enqueue(doStep));
  $("#b-advance").addEventListener("click", () => enqueue(doAdvance));
  $("#b-auto").addEventListener("click", toggleAuto);
  $("#b-new").addEventListener("click", askNewGame);
  $("#b-finish").addEventListener("click", () => enqueue(doFinish));
  $("#b-share").addEventListener("click", shareGame);
  $("#b-deal").addEventListener("click", () => openDealDialog());
  $("#b-restart").addEventListener("click", askRestart);
  $("#b-stats").addEventListener("click", () => openStats({
    replay: (id) => enqueue(() => startReplay(id)), reopen: (id) => enqueue(() => reopenGame(id)), toast,
    variant: app.state && app.state.variant && app.state.variant.token, current: app.state && app.state.id,
  }));
  $("#b-rules").addEventListener("click", () => openHelp());
  $("#help-tour").addEventListener("click", () => {
    $dialog("#dlg-help").close();
    openTour();
  });
  $("#b-settings").addEventListener("click", openSettings);
  $("#b-lang").addEventListener("click", () => switchLang(otherLang(getLang())));
  document.addEventListener("keydown", onKey);
  // After every action the focus is on a control that can act, never on <body>.
  document.addEventListener("firstlast:busy", noteFocus);
  document.addEventListener("firstlast:idle", keepFocus);
  arrowTabs($("#st-tabs"), (tab) => tab.click()); // the statistics' variants, as tabs
  // The same game may have moved on meanwhile in another tab or in the terminal game
  // (same player, same store): look again when the page comes back into view, so that
  // a refusal explained from the state is not explained from a stale one.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && app.state && !app.replay) enqueue(refreshState);
  });
  // The static site showed its last table before its Python answered: look again once it does.
  document.addEventListener("firstlast:refresh", () => {
    if (app.state && !app.replay) enqueue(refreshState);
  });
  // The toast is for the eye; what it says is said to screen readers too, politely.
  const box = $("#toast");
  new MutationObserver(() => announce(box.textContent)).observe(box, { childList: true, characterData: true, subtree: true });
  watchToolbar();
  await loadSettings();
  // Only now, with a catalog loaded (the page writes no word before: lang.js's render):
  // the table follows its size, and toolbar labels take their short form on a phone (a
  // turned phone may change that).
  new ResizeObserver(() => {
    fit();
    showHint(app.hintOn); // the arrow follows the cards
  }).observe(table);
  matchMedia(NARROW).addEventListener("change", () => translatePage());
  fit();
  const shared = sharedDeal();
  // A good shared deal is dealt instead of a first random one.
  await loadCurrent(null, !!shared && validShare(shared));
  if (shared) await openShared(shared);
  fit();
  document.body.classList.add("ready");
  // A first visit: the tour of the table (once; again from the help).
  if (tourDue() && app.state && !document.querySelector("dialog[open]")) openTour();
}

/**
 * A deal shared by its address: /?deal=N&variant=TOKEN&lang=ru|en.
 * @typedef {object} Shared
 * @property {string | null} deal
 * @property {string | null} variant
 * @property {string | null} lang
 */

/** The deal the address asks for, if any (checked when opened). @returns {Shared | null} */
function sharedDeal() {
  const q = new URLSearchParams(location.search);
  if (!q.has("deal") && !q.has("variant") && !q.has("lang")) return null;
  return { deal: q.get("deal"), variant: q.get("variant"), lang: q.get("lang") };
}

/** Open the shared deal for the visitor (in the language asked for), then clean the
 * address bar. A deal number or variant that is not valid starts nothing: a toast says so.
 * @param {Shared} shared */
async function openShared(shared) {
  const clean = new URL(location.href);
  for (const k of ["deal", "variant", "lang"]) clean.searchParams.delete(k);
  history.replaceState(null, "", clean.pathname + clean.search + clean.hash);
  const asked = langOf(shared.lang);
  if (asked) {
    if (asked !== getLang()) await switchLang(asked);
  } else if (shared.lang !== null) {
    await applyLang(getLang());
  }
  if (shared.deal === null && shared.variant === null) return;
  if (!validShare(shared)) {
    toast(t("share_bad"), "error");
    if (!app.state) await loadCurrent();
    return;
  }
  if (!(await confirmLeave())) return;
  await enqueue(() => startGame(/** @type {string} */ (shared.deal), shared.variant || undefined, "number").catch(() => {
    toast(t("share_bad"), "error"); // the server refused the number or the variant
  }));
  if (!app.state) await loadCurrent();
}

/** Whether a shared address names a deal (and a variant token, if any) the page can ask for.
 * @param {Shared} shared */
function validShare(shared) {
  return shared.deal !== null && new RegExp(`^[0-9]{1,${DEAL_DIGITS}}$`).test(shared.deal)
    && (shared.variant === null || VARIANT_TOKEN.test(shared.variant));
}

main();
