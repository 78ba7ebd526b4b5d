// The interface in Russian and English, from the one message catalog per language
// that the server, the terminal and the command line share (src/firstlast/i18n/*.json,
// served as /i18n/{lang}.json; docs/i18n.md). Strings are looked up by key; "{name}"
// parts are filled from the arguments. Elements with data-i18n="key" (text),
// data-i18n-title and data-i18n-aria are translated in place by translatePage().
// No string lives here: a catalog is fetched at start and on a language switch.

import { send } from "./transport.js";
import { langOf, pluralForm, rankKey, render } from "./lang.js";
import {
  CANONICAL, DEFAULT_LANG, KEY_HELP, PLACE_KINDS, ROWS, STOCK, SUIT_GLYPHS, TOKEN_LETTERS, VARIANT_TOKEN, WASTE,
} from "./vocabulary.js";

export { detectLang, langOf, otherLang } from "./lang.js";

/** @typedef {import("./lang.js").Lang} Lang */
/** A language's strings: key → template. @typedef {Record<string, string>} Catalog */
/** @typedef {import("./lang.js").Args} Args */

/** @type {Partial<Record<Lang, Catalog>>} */
const catalogs = {};

/** @type {Lang} */
let current = DEFAULT_LANG;

export function getLang() {
  return current;
}

/** The locale dates and times are written in (issue 26): the page's language with the
 * browser's region ("en" in an en-US browser writes 12/2/2026, in en-GB 02/12/2026;
 * Russian 02.12.2026), the language alone where the browser names no region.
 * @returns {string} */
export function dateLocale() {
  const nav = typeof navigator === "undefined" ? [] : (navigator.languages || [navigator.language]);
  for (const tag of nav) {
    try {
      const region = new Intl.Locale(tag).region;
      if (region) return Intl.DateTimeFormat.supportedLocalesOf(`${current}-${region}`).length ? `${current}-${region}` : current;
    } catch { /* not a language tag */ }
  }
  return current;
}

/** The first day of the week where the player is (``dateLocale``'s region: Sunday in
 * the United States, Monday in Russia and most of Europe), as ISO numbers it: 1 Monday …
 * 7 Sunday; Monday where the browser cannot say.
 * @returns {number} */
export function firstWeekday() {
  try {
    const loc = /** @type {{weekInfo?: {firstDay: number}, getWeekInfo?: () => {firstDay: number}}} */ (
      /** @type {unknown} */ (new Intl.Locale(dateLocale())));
    const info = loc.getWeekInfo ? loc.getWeekInfo() : loc.weekInfo;
    const day = info && info.firstDay;
    return typeof day === "number" && day >= 1 && day <= 7 ? day : 1;
  } catch {
    return 1;
  }
}

/** Use ``data`` as the catalog of ``lang`` (the tests give it from the file).
 * @param {Lang} lang @param {Catalog} data */
export function setCatalog(lang, data) {
  catalogs[lang] = data;
}

/** Fetch the catalog of ``lang`` from the server, once (the browser revalidates it).
 * @param {Lang} lang @returns {Promise<void>} */
export async function loadCatalog(lang) {
  if (catalogs[lang]) return;
  const res = await send(`/i18n/${lang}.json`, { credentials: "same-origin" });
  if (!res.ok) throw new Error(`/i18n/${lang}.json: ${res.status}`);
  catalogs[lang] = await res.json();
}

/** @param {string} lang a catalog's language, else the default */
export function setLang(lang) {
  current = langOf(lang) || DEFAULT_LANG;
  document.documentElement.lang = current;
  localStorage.setItem("fl_lang", current);
}

/** The string ``key`` in the current language, "{name}" parts filled from ``args``
 * (lang.js's render: a key or a part missing is an error, as in Python).
 * @param {string} key @param {Args} [args] @returns {string} */
export function t(key, args = {}) {
  const cat = catalogs[current];
  if (!cat) throw new Error(`the ${current} catalog is not loaded`);
  return render(cat, key, args);
}

/** The plural family ``key.one/.few/.many`` for the count ``n`` (passed as {n}, written as
 * the language writes numbers, as i18n.number does: "1,000", "1 000"), by the language's
 * GRAMMAR. @param {string} key @param {number} n @param {Args} [args] */
export function plural(key, n, args = {}) {
  return t(`${key}.${pluralForm(current, n)}`, { ...args, n: n.toLocaleString(current) });
}

/** The keys help: [keys, what they do] rows, from the one table of keys (vocabulary.js,
 * generated). @returns {string[][]} */
export function keyTable() {
  const lang = getLang();
  return KEY_HELP.map((row) => [row.keys[lang], t(row.does)]);
}

/** A rank's index as on the cards ("10", "Д"). @param {number} rank 1…13 */
export function rankChar(rank) {
  return t(`rank.${rank}.short`);
}

/** A rank in words ("queen", "дама"); ``form`` "a" with the English article ("a
 * queen"), "acc", "gen", "pl" the other cases. @param {number} rank 1…13 @param {string} [form] */
export function rankName(rank, form) {
  return t(rankKey(current, rank, form));
}

/** A card as the cards show it ("10♥"): for the eye. @param {import("./api-types").Card} card */
export function cardName(card) {
  return rankChar(card.rank) + SUIT_GLYPHS[card.suit];
}

/** A card in words ("queen of hearts", "дама червей"): for the ear.
 * @param {{rank: number, suit: string}} card */
export function cardWords(card) {
  return t("card", { rank: rankName(card.rank), suit: t(`suit.${card.suit}`) });
}

/** A place in words ("pile 3", "the waste"); ``form`` "from", "onto" or "at" gives the
 * whole phrase. @param {string} place a place's name (the vocabulary's PLACES) @param {string} [form] */
export function placeName(place, form) {
  const suffix = form ? `.${form}` : "";
  if (place === STOCK || place === WASTE) return t(`place.${place}${suffix}`);
  const kind = /** @type {Record<string, string>} */ (PLACE_KINDS)[place];
  const row = /** @type {Record<string, readonly string[]>} */ (ROWS)[kind];
  return row ? t(`place.${kind}${suffix}`, { n: row.indexOf(place) + 1 }) : place;
}

/** Where a toolbar label takes its short form (data-i18n-short): phones (docs/page.md). */
export const NARROW = "(max-width: 560px)";

/** Translate the elements marked data-i18n, data-i18n-title, data-i18n-aria. A title
 * is a tooltip, for hovering pointers only: on touch screens it is left out (the
 * element's name is its text or its aria-label). On a narrow screen an element that
 * names a short form too (data-i18n-short, "undo_short") shows that.
 * @param {ParentNode} [root] */
export function translatePage(root = document) {
  const hover = typeof matchMedia === "function" && matchMedia("(hover: hover)").matches;
  const narrow = typeof matchMedia === "function" && matchMedia(NARROW).matches;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const d = /** @type {HTMLElement} */ (el).dataset;
    el.textContent = t((narrow && d.i18nShort) || d.i18n || "");
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    const h = /** @type {HTMLElement} */ (el);
    if (hover) h.title = t(h.dataset.i18nTitle || "");
    else h.removeAttribute("title");
  }
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    // The name holds the words shown (WCAG 2.5.3): on a phone, the short label.
    const short = narrow ? el.querySelector("[data-i18n-short]") : null;
    el.setAttribute("aria-label", short ? short.textContent || "" : t(/** @type {HTMLElement} */ (el).dataset.i18nAria || ""));
  }
  document.title = t("title");
}

/** A variant in a few words. @param {Variant} v */
export function variantLabel(v) {
  if (variantToken(v) === CANONICAL.token) return t("canonical");
  const parts = [v.redeals === null ? t("variant_label.unlimited") : plural("variant_label.redeals", v.redeals)];
  if (v.waste_playable) parts.push("V2");
  if (!v.privileged_last) parts.push(t("variant_label.no_r8"));
  return parts.join(", ");
}

/** The rules V1–V3, every one given (a request's VariantSpec may leave some out).
 * @typedef {object} Variant
 * @property {number | null} redeals null: unlimited
 * @property {boolean} waste_playable
 * @property {boolean} privileged_last
 */

/** The variant of a token as the server writes it ("r3", "ru", "r0wn"), or null: by
 * the engine's grammar (the generated VARIANT_TOKEN, TOKEN_LETTERS).
 * @param {string | null | undefined} token @returns {Variant | null} */
export function variantFromToken(token) {
  const m = VARIANT_TOKEN.exec(token || "");
  if (!m) return null;
  return { redeals: m[1] === TOKEN_LETTERS.unlimited ? null : Number(m[1]), waste_playable: m[2] !== "",
    privileged_last: m[3] === "" };
}

/** A variant's token ("r3", "ru", "r0wn"), by the engine's letters. @param {Variant} v */
export function variantToken(v) {
  const L = TOKEN_LETTERS;
  return `${L.prefix}${v.redeals === null ? L.unlimited : v.redeals}${v.waste_playable ? L.waste_playable : ""}`
    + (v.privileged_last ? "" : L.no_privileged);
}
