// The page's languages and its one renderer of sentences, the twin of firstlast.i18n
// (docs/i18n.md): which language to start in, which key of a plural family or a rank's
// forms a language takes (by the generated GRAMMAR, declared once in Python), and
// render(), which fills a catalog's template. A key the catalog lacks, or a part not
// given, is an error here as in Python: a half sentence never reaches a player.
// Pure of the DOM: used by i18n.js and by the static site's loading screen (site.js),
// which speaks before i18n.js runs.

import { DEFAULT_LANG, GRAMMAR, LANGS } from "./vocabulary.js";

/** @typedef {"ru" | "en"} Lang */
/** @typedef {Record<string, string | number | boolean | null | undefined>} Args */

/** The language a tag names ("ru-RU" → "ru"), or null where no catalog speaks it.
 * @param {string | null | undefined} tag @returns {Lang | null} */
export function langOf(tag) {
  const code = (tag || "").toLowerCase();
  return /** @type {Lang | undefined} */ (LANGS.find((lang) => code === lang
    || [`${lang}-`, `${lang}_`, `${lang}.`].some((head) => code.startsWith(head)))) || null;
}

/** The language to start in: the last chosen here, else the browser's, else the default.
 * @returns {Lang} */
export function detectLang() {
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language;
  return langOf(localStorage.getItem("fl_lang")) || langOf(nav) || DEFAULT_LANG;
}

/** The other language (the switch's). @param {Lang} lang @returns {Lang} */
export function otherLang(lang) {
  return /** @type {Lang} */ (LANGS.find((other) => other !== lang));
}

/** Which key of a plural family (.one/.few/.many) the count ``n`` takes in ``lang``.
 * @param {Lang} lang @param {number} n @returns {string} */
export function pluralForm(lang, n) {
  n = Math.abs(n);
  /** @type {{rules: readonly {form: string, ends: readonly number[], mod: number | null, but: readonly number[]}[], other: string}} */
  const g = GRAMMAR[lang];
  const rule = g.rules.find((r) => r.ends.includes(r.mod ? n % r.mod : n) && !r.but.includes(n % 100));
  return rule ? rule.form : g.other;
}

/** The key of a rank's ``form`` ("a", "acc", "gen", "pl") in ``lang``: the nominative
 * where the language has no such form. @param {Lang} lang @param {number} rank @param {string} [form] */
export function rankKey(lang, rank, form) {
  return form && /** @type {readonly string[]} */ (GRAMMAR[lang].rank_forms).includes(form)
    ? `rank.${rank}.${form}` : `rank.${rank}`;
}

/** The string ``key`` of ``catalog`` with its "{name}" parts filled from ``args``.
 * @param {Record<string, string>} catalog @param {string} key @param {Args} [args] @returns {string} */
export function render(catalog, key, args = {}) {
  const template = catalog[key];
  if (typeof template !== "string") throw new Error(`no string ${JSON.stringify(key)}`);
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    const value = args[name];
    if (value === undefined || value === null) throw new Error(`${key}: {${name}} not given`);
    return String(value);
  });
}
