// Runs the page's words (static/js/words.js) on states read from stdin, one JSON line per
// state: tests/i18n/test_table_words.py compares them with the terminal's (i18n/table.py).
import { readFileSync } from "node:fs";
globalThis.localStorage = /** @type {any} */ ({ getItem: () => null, setItem: () => {} });
globalThis.document = /** @type {any} */ ({ documentElement: {} });
const root = process.argv[2];
const { setCatalog, setLang } = await import(`${root}/src/firstlast/web/static/js/i18n.js`);
const { hintWords, reviewSentence, summaryWords, REVIEW_PLACES } = await import(`${root}/src/firstlast/web/static/js/words.js`);
for (const lang of ["en", "ru"]) {
  setCatalog(lang, JSON.parse(readFileSync(`${root}/src/firstlast/i18n/${lang}.json`, "utf-8")));
}
const out = [];
for (const line of readFileSync(0, "utf-8").split("\n")) {
  if (!line.trim()) continue;
  const { lang, state } = JSON.parse(line);
  setLang(lang);
  const reviews = Object.fromEntries(REVIEW_PLACES.map((p) => [p, reviewSentence(state, p)]));
  out.push(JSON.stringify({ hint: hintWords(state, "full"), hint_brief: hintWords(state, "brief"),
    summary: summaryWords(state, "full"), summary_brief: summaryWords(state, "brief"), reviews }));
}
process.stdout.write(out.join("\n") + "\n");
