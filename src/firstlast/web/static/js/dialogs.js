// The dialogs: a deal by number (with the rules variant), the settings, the question
// before a game in progress is left, the share link, and the buttons of the end-of-game
// panel. Every dialog keeps the focus inside while open (native modal dialogs; the end
// panel traps Tab itself) and gives it back to what opened it.

import { scheduleChance } from "./chance.js";
import { doRestart, startGame } from "./controller.js";
import { nextControl } from "./focus.js";
import { showMarks } from "./guide.js";
import { getLang, langOf, t, variantToken } from "./i18n.js";
import { setupLooks, showLookSettings } from "./looks.js";
import { enqueue } from "./queue.js";
import { keepSettings, saveSettings, savedVariant, setSpeed, switchLang } from "./settings.js";
import { $, $button, $dialog, $input, $select, app } from "./store.js";
import { onSite } from "./transport.js";
import { hideEnding, toast } from "./view.js";
import { DEAL_DIGITS, DEFAULT_LANG, MAX_DEAL } from "./vocabulary.js";

/** @typedef {import("./i18n.js").Variant} Variant */

/** Open the deal dialog on the player's variant for new games. ``asDefault`` (opened
 * from the settings' "Rules variant for new games…"): "make these rules my default" is
 * ticked; else the rules chosen are the deal's alone (issue 26).
 * @param {boolean} [asDefault] */
export function openDealDialog(asDefault = false) {
  const v = savedVariant();
  $input("#v-default").checked = asDefault;
  const redeals = $select("#v-redeals");
  redeals.value = v.redeals === null ? "u" : String(v.redeals);
  if (!redeals.value) redeals.value = "3"; // a count the list does not offer
  $input("#v-waste").checked = !!v.waste_playable;
  $input("#v-priv").checked = v.privileged_last !== false;
  dealError("");
  $input("#deal-input").value = "";
  showModal($dialog("#dlg-deal"));
  $("#deal-input").focus();
}

/** The variant the deal dialog shows. @returns {Variant} */
function dialogVariant() {
  const r = $select("#v-redeals").value;
  return { redeals: r === "u" ? null : Number(r), waste_playable: $input("#v-waste").checked, privileged_last: $input("#v-priv").checked };
}

/** Whether ``text`` is a deal number the server takes: ASCII digits only, 0…MAX_DEAL
 * (2^64 − 1: the generated vocabulary's, as the server's parse_deal). @param {string} text */
export function goodDeal(text) {
  return new RegExp(`^[0-9]{1,${DEAL_DIGITS}}$`).test(text) && BigInt(text) <= BigInt(MAX_DEAL);
}

/** Start the deal dialog's game (``how``: number, random, daily, winnable) under the
 * dialog's variant: that game's alone, or the player's setting for new games too when
 * "make these rules my default" is ticked (the play layer decides: ``make_default``).
 * The number is checked first (a bad one is said in the dialog, which stays open, and
 * nothing else happens); then the player is asked before leaving a game in progress.
 * The dialog closes as soon as the server has answered, before the deal is animated.
 * @param {string} how */
async function startFromDialog(how) {
  const text = $input("#deal-input").value.trim();
  if (how === "number" && !goodDeal(text)) {
    dealError(t("deal_bad"));
    $("#deal-input").focus();
    return;
  }
  dealError("");
  const variant = dialogVariant();
  const asDefault = $input("#v-default").checked;
  if (!(await confirmLeave())) return;
  /** @type {(err: unknown) => void} */
  let answered = () => {};
  /** @type {Promise<unknown>} */
  const answer = new Promise((resolve) => { answered = resolve; });
  enqueue(() => startGame(how === "number" ? text : undefined, variant, how, () => answered(null), asDefault)
    .catch((err) => { answered(err); }))
    .then(() => answered(null)); // an action dropped (a replay began) answers nothing
  const refused = await answer;
  const code = refused && /** @type {{code?: string | null}} */ (refused).code;
  if (code === "deal.invalid" || code === "deal.range") {
    dealError(t("deal_bad"));
    return;
  }
  if (typeof code === "string" && code.startsWith("variant.")) {
    dealError(t("variant_bad"));
    return;
  }
  // Made the default by the server in the same write: the cached settings follow.
  if (asDefault && !refused) keepSettings({ ...app.settings, variant: variantToken(variant) });
  $dialog("#dlg-deal").close();
}

/** Say (or clear) the deal dialog's error: under the field, tied to it (its
 * aria-describedby), the field marked invalid meanwhile. @param {string} text */
function dealError(text) {
  $("#deal-error").textContent = text;
  if (text) $("#deal-input").setAttribute("aria-invalid", "true");
  else $("#deal-input").removeAttribute("aria-invalid");
}


export function openSettings() {
  $select("#set-lang").value = getLang();
  $select("#set-speed").value = String(app.speed);
  $input("#set-chance").checked = app.showChance;
  $input("#set-playable").checked = app.settings.show_playable !== false;
  $select("#set-verbosity").value = app.settings.verbosity === "brief" ? "brief" : "full";
  $input("#set-wish").checked = !!app.settings.wish;
  showLookSettings();
  showModal($dialog("#dlg-settings"));
}

/** The element that had the focus before a dialog opened: it gets it back. */
/** @type {HTMLElement | null} */
let opener = null;

document.addEventListener("focusin", (e) => {
  const el = /** @type {HTMLElement} */ (e.target);
  if (!el.closest("dialog, #ending") && el !== document.body) opener = el;
});

/** Open ``dlg`` as a modal dialog, if not open. @param {HTMLDialogElement} dlg */
export function showModal(dlg) {
  if (!dlg.open) dlg.showModal();
}

/** Give the focus back to what had it before a dialog (or the end panel) opened; where
 * that can no longer take it (a card played, a button of the closed menu), to the next
 * sensible control (focus.js: the table's place that can act, never New, which Space
 * would press, nor <body>). */
function restoreFocus() {
  if (document.querySelector("dialog[open]") || !$("#ending").hidden) return;
  const el = nextControl(opener);
  if (el) el.focus();
}

/** Whether a game is in progress: moves made, not ended (leaving it abandons it). */
function inProgress() {
  const s = app.state;
  // The play layer says what leaving would do (play.leaving): ask only if it abandons.
  return !!s && !app.replay && s.leaving === "abandon";
}

/** @type {((ok: boolean) => void) | null} */
let answer = null;

/** Ask before leaving a game in progress (``kind`` new) or taking all its moves back
 * (restart); true at once when there is none. Enter confirms (the default button), Esc
 * cancels. @param {"new" | "restart"} [kind] @returns {Promise<boolean>} */
export function confirmLeave(kind = "new") {
  const s = app.state;
  const ask = kind === "new" ? inProgress() : !!s && !app.replay && s.status === "playing" && s.can_undo;
  if (!ask) return Promise.resolve(true);
  const dlg = $dialog("#dlg-confirm");
  for (const part of ["title", "text", "ok"]) {
    const el = $(`#${part === "title" ? "dc-title" : part === "text" ? "dc-text" : "confirm-ok"}`);
    el.dataset.i18n = `confirm_${kind}_${part}`;
    el.textContent = t(el.dataset.i18n);
  }
  if (answer) answer(false);
  return new Promise((resolve) => {
    answer = resolve;
    dlg.returnValue = "";
    showModal(dlg);
    $("#confirm-ok").focus();
  });
}

/** A new random deal (the New button, the N key), once the player agrees to leave the
 * game in progress. */
export async function askNewGame() {
  if (await confirmLeave()) enqueue(() => startGame().catch(() => {}));
}

/** Restart the deal on the table, once the player agrees to take every move back (a
 * finished game is not asked: restarting it deals a new attempt and keeps its result). */
export async function askRestart() {
  if (await confirmLeave("restart")) enqueue(doRestart);
}

/** The address of the game on the table: /?deal=N&variant=TOKEN. @returns {string | null} */
export function shareUrl() {
  const s = app.state;
  if (!s) return null;
  // The page's own address (a site may live under a sub-path), without its query.
  const url = new URL(location.pathname, location.href);
  url.searchParams.set("deal", s.deal);
  url.searchParams.set("variant", s.variant.token || variantToken(s.variant));
  url.searchParams.set("lang", getLang()); // the deal opens in the sharer's language
  return url.href;
}

/** Share the game on the table: the system's share sheet where there is one, else the
 * clipboard, else a field holding the link, selected, to copy by hand. */
export async function shareGame() {
  const url = shareUrl();
  if (!url || !app.state) return;
  // A link to this very machine (the local server) reaches nobody else: say so plainly,
  // with the link to copy for this computer's own browsers, instead of sharing it.
  const local = ["127.0.0.1", "localhost", "[::1]"].includes(location.hostname);
  const note = $("#share-local");
  note.hidden = !local;
  // Served from here either way; what to do about it differs (put the site online, or
  // build one): the page served by the static site knows it is one.
  note.textContent = t(onSite ? "share_local_site" : "share_local");
  // The player's site online (`firstlast play --site-url`): the same deal there, for anyone.
  const site = document.querySelector('meta[name="firstlast-site-url"]')?.getAttribute("content");
  if (local && site && !onSite) {
    const there = new URL(site);
    there.search = new URL(url).search;
    note.textContent = t("share_on_site", { site: there.origin + there.pathname });
    showShareField(there.href);
    return;
  }
  if (local) {
    showShareField(url);
    return;
  }
  const nav = /** @type {Navigator & {share?: (d: ShareData) => Promise<void>}} */ (navigator);
  if (typeof nav.share === "function") {
    try {
      await nav.share({ title: t("title"), text: t("share_text", { n: app.state.deal }), url });
      return;
    } catch (err) {
      if (err instanceof Error && err.name === "AbortError") return; // the player closed the sheet
    }
  }
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(url);
      toast(t("share_copied", { url }));
      return;
    } catch { /* no permission: show the link */ }
  }
  showShareField(url);
}

/** Copy the share dialog's link with one press (issue 26): the Clipboard API, else the
 * browser's copy command on the selected field; said either way (the toast is spoken),
 * and where neither works the link stays selected to copy by hand. */
async function copyShareLink() {
  const field = $input("#share-link");
  let copied = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch { /* no permission: the copy command below */ }
  }
  if (!copied) {
    field.focus();
    field.select();
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  toast(t(copied ? "share_copied_link" : "share_copy_failed"), copied ? "info" : "error");
  if (!copied) field.select();
}

/** The share dialog, its link selected to copy by hand. @param {string} url */
function showShareField(url) {
  const field = $input("#share-link");
  field.value = url;
  showModal($dialog("#dlg-share"));
  field.focus();
  field.select();
}

/** Tab and Shift+Tab stay inside a modal dialog (the browser would let them out to its
 * own toolbar) and inside the end panel, which is a modal dialog too.
 * @param {KeyboardEvent} e */
function trapTab(e) {
  if (e.key !== "Tab") return;
  const box = /** @type {HTMLElement} */ (e.currentTarget);
  const items = /** @type {HTMLElement[]} */ ([...box.querySelectorAll("button, [href], input, select, textarea, [tabindex]")])
    .filter((el) => el.tabIndex >= 0 && !(/** @type {HTMLButtonElement} */ (el).disabled) && el.offsetParent !== null);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !box.contains(active))) { last.focus(); e.preventDefault(); }
  else if (!e.shiftKey && (active === last || !box.contains(active))) { first.focus(); e.preventDefault(); }
}

/** While the end panel shows, the table behind it is inert; when it goes, the focus
 * goes back. */
function watchEnding() {
  const box = $("#ending");
  const behind = ["#topbar", "#main"].map((sel) => $(sel));
  let wasOpen = !box.hidden;
  new MutationObserver(() => {
    const open = !box.hidden;
    for (const el of behind) el.inert = open;
    // Only a panel that was open gives the focus back (every state shown hides it again).
    if (!open && wasOpen) restoreFocus();
    wasOpen = open;
  }).observe(box, { attributes: true, attributeFilter: ["hidden"] });
  box.addEventListener("keydown", trapTab);
}

/** The toolbar's menu on narrow screens (the less used buttons). @param {boolean} open */
export function setMenu(open) {
  $("#topbar").classList.toggle("menu-open", open);
  $button("#b-more").setAttribute("aria-expanded", String(open));
}

function setupMenu() {
  const more = $("#more");
  $("#b-more").addEventListener("click", (e) => {
    e.stopPropagation();
    const open = !$("#topbar").classList.contains("menu-open");
    setMenu(open);
    if (open) {
      const first = /** @type {HTMLElement | null} */ (more.querySelector("button:not(:disabled), select"));
      if (first) first.focus();
    }
  });
  // A choice closes the menu; so do Esc and a press elsewhere.
  more.addEventListener("click", (e) => { if (/** @type {HTMLElement} */ (e.target).closest("button")) setMenu(false); });
  more.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && $("#topbar").classList.contains("menu-open")) {
      e.stopPropagation();
      setMenu(false);
      $("#b-more").focus();
    }
  });
  document.addEventListener("pointerdown", (e) => {
    if (!/** @type {HTMLElement} */ (e.target).closest("#more, #b-more")) setMenu(false);
  });
}

/** Start a game after the one that ended: ``how`` is again (the same deal under its
 * rules) or next (the next number under the player's rules for new games: a variant
 * chosen for one deal was that deal's alone, issue 26; the terminal's next deal too).
 * The server picks the variant in both (``play.service.start``). @param {string} how */
function playOn(how) {
  enqueue(async () => {
    // The game as it is when the action's turn comes (queued actions run first).
    if (app.state && (await confirmLeave())) await startGame(undefined, undefined, how).catch(() => {});
  });
}

export function setupDialogs() {
  const dlg = $dialog("#dlg-deal");
  $("#deal-form").addEventListener("submit", async (e) => {
    // Enter in the number field submits too: Cancel is no submit button, so that the
    // form's default (first) submit button is Start.
    e.preventDefault();
    await startFromDialog($input("#deal-input").value.trim() ? "number" : "random");
  });
  $("#deal-cancel").addEventListener("click", () => dlg.close());
  $("#deal-random").addEventListener("click", () => startFromDialog("random"));
  $("#deal-daily").addEventListener("click", () => startFromDialog("daily"));
  $("#deal-winnable").addEventListener("click", () => startFromDialog("winnable"));
  $("#share-copy").addEventListener("click", () => { copyShareLink(); });
  $("#v-canonical").addEventListener("click", () => {
    $select("#v-redeals").value = "3";
    $input("#v-waste").checked = false;
    $input("#v-priv").checked = true;
  });
  // Settings.
  $("#set-lang").addEventListener("change", () => switchLang(langOf($select("#set-lang").value) || DEFAULT_LANG));
  $("#set-speed").addEventListener("change", () => setSpeed(Number($select("#set-speed").value)));
  $("#b-speed").addEventListener("change", () => setSpeed(Number($select("#b-speed").value)));
  $("#set-variant").addEventListener("click", () => {
    $dialog("#dlg-settings").close();
    openDealDialog(true);
  });
  $("#set-verbosity").addEventListener("change", () => {
    saveSettings({ verbosity: $select("#set-verbosity").value === "brief" ? "brief" : "full" });
  });
  setupLooks(saveSettings);
  $("#set-wish").addEventListener("change", () => saveSettings({ wish: $input("#set-wish").checked }));
  $("#set-chance").addEventListener("change", () => {
    app.showChance = $input("#set-chance").checked;
    saveSettings({ show_chance: app.showChance });
    scheduleChance();
  });
  $("#set-playable").addEventListener("change", () => {
    saveSettings({ show_playable: $input("#set-playable").checked });
    showMarks();
  });
  // Leaving a game in progress: the answer goes to confirmLeave's promise.
  const confirm = $dialog("#dlg-confirm");
  $("#confirm-form").addEventListener("submit", (e) => {
    e.preventDefault();
    confirm.close("ok");
  });
  $("#confirm-cancel").addEventListener("click", () => confirm.close("cancel"));
  confirm.addEventListener("close", () => {
    const done = answer;
    answer = null;
    if (done) done(confirm.returnValue === "ok");
  });
  // Every dialog gives the focus back to its opener.
  for (const dlg of /** @type {NodeListOf<HTMLDialogElement>} */ (document.querySelectorAll("dialog"))) {
    dlg.addEventListener("close", () => setTimeout(restoreFocus, 0));
    dlg.addEventListener("keydown", trapTab);
  }
  watchEnding();
  setupMenu();
  // Ending.
  $("#end-again").addEventListener("click", () => playOn("again"));
  $("#end-next").addEventListener("click", () => playOn("next"));
  $("#end-close").addEventListener("click", hideEnding);
  // A click beside the panel closes it too, to look at the finished table.
  $("#ending").addEventListener("click", (e) => { if (e.target === e.currentTarget) hideEnding(); });
}
