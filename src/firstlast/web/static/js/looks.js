// Looks (issue 28): the felt, the cards' backs and faces and the layout, as the player's
// settings have them (play/settings.py, the one declaration), applied to the page at
// once and shown in the settings' preview. Everything is drawn here (table.css's felts,
// cards.js's sprite): no picture is fetched, so the static site has them offline too.
//
// The felt, back and layout are attributes of <html> (data-felt, data-back, data-layout,
// data-face), so that the style sheet and any feature that draws on the table follow them
// through the CSS custom properties of table.css.

import { fit } from "./board.js";
import { buildSprite, faceSvg, looks } from "./cards.js";
import { getLang } from "./i18n.js";
import { $, $input, $select, app } from "./store.js";
import { SETTING_CHOICES, SETTING_DEFAULTS } from "./vocabulary.js";

/** @typedef {import("./api-types").Settings} Settings */
/** @typedef {import("./api-types").SettingsChange} SettingsChange */

/** The settings of the looks, each with its select in the settings dialog. */
const CHOSEN = /** @type {const} */ (["felt", "back", "layout"]);

/** The value of ``key`` in ``s``, or its default where it is not one of its words.
 * @param {Partial<Settings>} s @param {"felt" | "back" | "layout"} key @returns {string} */
function word(s, key) {
  const v = s[key];
  const words = /** @type {Record<string, readonly string[]>} */ (SETTING_CHOICES)[key];
  return typeof v === "string" && words.includes(v) ? v : String(SETTING_DEFAULTS[key]);
}

/** Show the page as ``s`` says (the cached settings at once, the server's when they come):
 * the sprite is redrawn only when a card's look changed, the table laid out again only
 * when the layout did. @param {Partial<Settings>} s */
export function applyLooks(s) {
  const root = document.documentElement;
  const felt = word(s, "felt"), back = word(s, "back"), layout = word(s, "layout");
  const four = s.four_colour === true, large = s.large_index === true;
  root.dataset.felt = felt;
  root.dataset.back = back;
  root.dataset.face = `${four ? "four" : "two"}-${large ? "large" : "classic"}`;
  const cards = back !== looks.back || four !== looks.four || large !== looks.large;
  Object.assign(looks, { back, four, large });
  if (cards && document.getElementById("card-sprite")) buildSprite(getLang(), !!app.compact);
  if (root.dataset.layout !== layout) {
    root.dataset.layout = layout;
    if (app.cw) fit();
  }
  drawPreview();
}

/** The preview in the settings dialog: the felt under both decks' backs and a few faces
 * (a red, a black, a diamond and a club: the four-colour deck shows), the stock on the
 * side the layout puts it. Drawn from the same sprite as the table's cards. */
export function drawPreview() {
  const box = document.getElementById("look-preview");
  if (!box) return;
  box.dataset.felt = document.documentElement.dataset.felt || "green";
  // The stock on the side where the table has it now (the layouts differ: beside the rows
  // on a wide screen, under them on a narrow one; mirrored, the other side).
  const stock = document.querySelector(".slot-stock");
  const board = document.getElementById("board");
  const mirrored = document.documentElement.dataset.layout === "mirrored";
  const right = stock instanceof HTMLElement && board && board.clientWidth
    ? stock.offsetLeft + stock.offsetWidth / 2 > board.clientWidth / 2 : mirrored;
  box.classList.toggle("stock-right", right);
  const back = (/** @type {number} */ deck) => `<svg class="pv-card" viewBox="0 0 200 280"><use href="#back-${deck}"/></svg>`;
  box.innerHTML =
    `<div class="pv-stock">${back(1)}${back(2)}</div>` +
    `<div class="pv-faces">${faceSvg(1, "s", "pv-card")}${faceSvg(10, "d", "pv-card")}${faceSvg(12, "h", "pv-card")}${faceSvg(7, "c", "pv-card")}</div>`;
}

/** The dialog's controls show the settings. */
export function showLookSettings() {
  const s = app.settings;
  for (const key of CHOSEN) $select(`#set-${key}`).value = word(s, key);
  $input("#set-four").checked = s.four_colour === true;
  $input("#set-large").checked = s.large_index === true;
  $input("#set-sound").checked = s.sound === true;
  $input("#set-volume").value = String(Number.isInteger(s.volume) ? s.volume : SETTING_DEFAULTS.volume);
  $input("#set-volume").disabled = s.sound !== true;
  $input("#set-volume").setAttribute("aria-valuetext", `${$input("#set-volume").value} %`);
  drawPreview();
}

/** Wire the looks' and the sound's controls: each change is shown at once and saved.
 * @param {(change: SettingsChange) => Promise<void>} save */
export function setupLooks(save) {
  const change = (/** @type {SettingsChange} */ c) => {
    Object.assign(app.settings, c);
    applyLooks(app.settings);
    showLookSettings();
    return save(c);
  };
  for (const key of CHOSEN) {
    $(`#set-${key}`).addEventListener("change", () => change({ [key]: $select(`#set-${key}`).value }));
  }
  $("#set-four").addEventListener("change", () => change({ four_colour: $input("#set-four").checked }));
  $("#set-large").addEventListener("change", () => change({ large_index: $input("#set-large").checked }));
  $("#set-sound").addEventListener("change", () => change({ sound: $input("#set-sound").checked }));
  // The volume is saved when let go (not at every step of a drag).
  $("#set-volume").addEventListener("input", () => {
    app.settings.volume = Number($input("#set-volume").value);
    $input("#set-volume").setAttribute("aria-valuetext", `${app.settings.volume} %`);
  });
  $("#set-volume").addEventListener("change", () => change({ volume: Number($input("#set-volume").value) }));
}

