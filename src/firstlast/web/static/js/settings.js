// The player's settings (language, speed, chance meter, variant for new games): one
// copy on the server, shared with the terminal game; localStorage only caches it so the
// first frame is painted right.

import { api } from "./api.js";
import { board, describePlaces, labelSlots, layout } from "./board.js";
import { buildSprite } from "./cards.js";
import { refreshState, showError } from "./controller.js";
import { showMarks } from "./guide.js";
import { retranslateHelp } from "./help.js";
import { applyLooks } from "./looks.js";
import { detectLang, getLang, langOf, loadCatalog, setLang, t, translatePage, variantFromToken } from "./i18n.js";
import { enqueue } from "./queue.js";
import { renderReplayBar } from "./replay.js";
import { $, $select, announce, app } from "./store.js";
import { CANONICAL } from "./vocabulary.js";
import { render, showEnding } from "./view.js";

/** @typedef {import("./api-types").Settings} Settings */
/** @typedef {import("./i18n.js").Variant} Variant */

/** The variant for new games: the player's setting, as stored on the server.
 * @returns {Variant} */
export function savedVariant() {
  const { redeals, waste_playable, privileged_last } = CANONICAL;
  return variantFromToken(app.settings.variant) || { redeals, waste_playable, privileged_last };
}

/** Keep the server's answer, and cache it for the next page load. @param {Settings} s */
export function keepSettings(s) {
  app.settings = s;
  localStorage.setItem("fl_settings", JSON.stringify(app.settings));
}

/** Save a change of settings on the server.
 * @param {import("./api-types").SettingsChange} update */
export async function saveSettings(update) {
  Object.assign(app.settings, update);
  try {
    app.settings = await api.saveSettings(update);
  } catch (err) {
    showError(err);
  }
  localStorage.setItem("fl_settings", JSON.stringify(app.settings));
}

/** Show the page in ``lang``, its catalog fetched first (once; GET /i18n/{lang}.json).
 * Where it cannot be fetched, the page stays in the language it has.
 * @param {import("./lang.js").Lang} lang */
export async function applyLang(lang) {
  try {
    await loadCatalog(lang);
  } catch (err) {
    console.warn(err);
    if (lang !== getLang()) return;
  }
  setLang(lang);
  buildSprite(lang, !!app.compact);
  translatePage();
  labelSlots();
  if (app.auto) /** @type {Element} */ ($("#b-auto").querySelector("span")).textContent = t("pause");
  render();
  if (app.state) layout(null, 0);
  describePlaces();
  if (app.replay) renderReplayBar();
  retranslateHelp();
}

/** The player chose ``lang``. @param {import("./lang.js").Lang} lang */
export async function switchLang(lang) {
  await applyLang(lang);
  if (getLang() !== lang) return;
  await saveSettings({ lang });
  // The table's refusals come in words in the saved language: fetch them anew.
  if (!app.replay) enqueue(refreshState);
  // The story's sentences come in the language the server has saved: redraw the open end
  // panel only now (sooner, the old language's sentences would be cached as the new one's).
  if (!$("#ending").hidden) showEnding({ focus: false });
  announce(t("say.lang")); // in the new language, where the player is (a dialog's region too)
}

/** The player chose the speed (Auto's and the animation's), on the table or in the
 * settings: applied and saved. @param {number} speed 0 off … 3 fast */
export function setSpeed(speed) {
  app.speed = Math.max(0, Math.min(3, Math.round(speed) || 0));
  applySpeed();
  saveSettings({ speed: app.speed });
}

/** Apply app.speed to the cards' turning over, and show it on the table. */
export function applySpeed() {
  $select("#b-speed").value = String(app.speed);
  // With animation off, cards turn over at once too.
  board.style.setProperty("--flip-ms", app.speed === 0 ? "0ms" : "320ms");
  for (const el of app.els) el.style.removeProperty("--flip-ms");
  // The page's other motion (the win's rays) holds still with the animation off.
  document.documentElement.dataset.speed = String(app.speed);
}

/** Read the settings and apply them (language, speed, chance meter). */
export async function loadSettings() {
  try {
    const cached = JSON.parse(localStorage.getItem("fl_settings") || "null");
    if (cached && typeof cached === "object") app.settings = { ...app.settings, ...cached };
  } catch { /* ignore */ }
  applyLooks(app.settings); // the cached looks at once: no flash of the default felt
  try {
    keepSettings(await api.settings());
  } catch { /* the cache or the defaults */ }
  const s = app.settings;
  applyLooks(s);
  const lang = langOf(s.lang) || detectLang();
  if (Number.isInteger(s.speed)) app.speed = s.speed;
  // A player who asked the system for less motion gets no flying cards (until chosen here).
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) app.speed = 0;
  app.showChance = s.show_chance !== false;
  showMarks();
  // A speed asked for in the address (?speed=0) wins: handy for demos and tests.
  const q = new URLSearchParams(location.search).get("speed");
  if (q !== null && /^[0-3]$/.test(q)) app.speed = Number(q);
  applySpeed();
  await applyLang(lang);
}
