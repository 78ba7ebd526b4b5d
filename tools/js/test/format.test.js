// The table's texts (static/js/format.js) and the language helpers under them
// (static/js/i18n.js), in both languages.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

// i18n.js remembers the language in localStorage and on <html lang>: stand-ins.
const stored = new Map();
globalThis.localStorage = /** @type {any} */ ({
  getItem: (/** @type {string} */ k) => stored.get(k) ?? null,
  setItem: (/** @type {string} */ k, /** @type {string} */ v) => stored.set(k, v),
});
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { needText, passText, redealsLeftText, scoreText } = await import(
  "../../../src/firstlast/web/static/js/format.js");
const { cardName, cardWords, keyTable, placeName, plural, rankName, setCatalog, setLang, t, variantFromToken,
  variantLabel, variantToken } = await import("../../../src/firstlast/web/static/js/i18n.js");
const { pluralForm } = await import("../../../src/firstlast/web/static/js/lang.js");

const { KEYMAP, KEY_HELP } = await import("../../../src/firstlast/web/static/js/vocabulary.js");
const { keyName } = await import("../../../src/firstlast/web/static/js/keyname.js");

// The page fetches the shared catalogs (GET /i18n/{lang}.json); here they are read from disk.
import { readFileSync } from "node:fs";
for (const lang of /** @type {const} */ (["en", "ru"])) {
  setCatalog(lang, JSON.parse(readFileSync(new URL(`../../../src/firstlast/i18n/${lang}.json`, import.meta.url), "utf-8")));
}

/** @param {number} id @param {number} rank @param {string} suit */
const card = (id, rank, suit) => ({ id, rank, suit, deck: 1, symbol: "" });

/** A State's fields the texts read. @param {object} over */
function state(over = {}) {
  const piles = Array.from({ length: 8 }, () => []);
  const first = Array(8).fill(null);
  first[2] = card(9, 12, "h");
  return /** @type {any} */ ({ active: 2, need: 7, need_card: null, piles, first, passes: 2, redeals_left: 1, score: 40, moves: 17, ...over });
}

beforeEach(() => setLang("en"));

test("what the active pile needs: a rank, then its own base (the state's need_card, R5), then nothing", () => {
  assert.equal(needText(state()), "Pile P3 needs 7");
  const base = { need_card: card(9, 12, "h") };
  assert.equal(needText(state(base)), "Pile P3 takes its base Q♥");
  assert.equal(needText(state({ active: null, need: null })), "All piles complete");
  setLang("ru");
  assert.equal(needText(state({ need: 1 })), t("pile_needs", { pile: "P3", rank: "Т" }));
  assert.match(needText(state(base)), /Д♥/);
});

test("passes, with and without a limit", () => {
  assert.equal(passText(state()), "Pass 2 of 3");
  assert.equal(passText(state({ redeals_left: null })), "Pass 2 (unlimited redeals)");
});

test("redeals left in words", () => {
  assert.equal(redealsLeftText(null), "");
  assert.equal(redealsLeftText(0), "no redeals left");
  assert.equal(redealsLeftText(1), "1 redeal left");
  assert.equal(redealsLeftText(3), "3 redeals left");
});

test("score and moves, from the catalog's score_line and the count.moves family", () => {
  assert.equal(scoreText(state()), "Score: 40/104 · 17 moves");
  assert.equal(scoreText(state({ moves: 1 })), "Score: 40/104 · 1 move");
  setLang("ru");
  assert.equal(scoreText(state({ moves: 22 })), "Счёт: 40/104 · 22 хода");
});

test("strings: filled in from the shared catalog; a missing key or part is an error, as in Python", () => {
  assert.equal(t("deal_n", { n: 42 }), "Deal 42");
  assert.throws(() => t("deal_n"), /deal_n: \{n\} not given/);
  assert.throws(() => t("no_such_key"), /no string "no_such_key"/);
  setLang("ru");
  assert.throws(() => t("no_such_key"), /no string/); // never English instead
  assert.equal(t("deal_n", { n: 42 }), "Раскладка № 42");
});

test("plurals: Russian one, few, many; English one and many", () => {
  assert.equal(plural("aria.stock", 1), "stock: 1 card");
  assert.equal(plural("aria.stock", 40), "stock: 40 cards");
  setLang("ru");
  assert.equal(plural("aria.stock", 21), "колода: 21 карта");
  assert.equal(plural("aria.stock", 23), "колода: 23 карты");
  assert.equal(plural("aria.stock", 12), "колода: 12 карт");
});

test("a count is written as the language writes numbers, as Python's i18n.number writes it", () => {
  setLang("en");
  assert.equal(plural("aria.stock", 1001), "stock: 1,001 cards");
  setLang("ru");
  assert.equal(plural("aria.stock", 1001), "колода: 1\u00a0001 карта");
});

test("one plural rule: the forms tests/i18n/test_catalog.py expects of Python's, from the generated GRAMMAR", () => {
  /** @type {[number, string, string][]} */
  const cases = [[0, "many", "many"], [1, "one", "one"], [2, "few", "many"], [4, "few", "many"], [5, "many", "many"],
    [11, "many", "many"], [12, "many", "many"], [14, "many", "many"], [21, "one", "many"], [22, "few", "many"],
    [41, "one", "many"], [111, "many", "many"], [112, "many", "many"], [1001, "one", "many"]];
  for (const [n, ru, en] of cases) {
    assert.equal(pluralForm("ru", n), ru, `ru ${n}`);
    assert.equal(pluralForm("en", n), en, `en ${n}`);
  }
});

test("a rank's form a language lacks is its nominative (English has no cases, Russian no article)", () => {
  assert.equal(rankName(12, "a"), "a queen");
  assert.equal(rankName(12, "acc"), "queen");
  setLang("ru");
  assert.equal(rankName(12, "acc"), "даму");
  assert.equal(rankName(12, "a"), "дама");
});

test("cards and places in words, for screen readers", () => {
  assert.equal(cardWords(card(0, 12, "h")), "queen of hearts");
  assert.equal(placeName("R2"), "reserve 2");
  assert.equal(placeName("P1", "onto"), "onto pile 1");
  assert.equal(t("aria.place.card", { place: placeName("R2"), card: cardWords(card(0, 12, "h")) }), "reserve 2: queen of hearts");
  setLang("ru");
  assert.equal(cardWords(card(0, 12, "h")), "дама червей");
  assert.equal(placeName("waste"), "сборная кучка");
});

test("the keys help comes from the one table of keys and the catalog", () => {
  const rows = keyTable();
  assert.equal(rows.length, KEY_HELP.length);
  assert.ok(rows.length > 20);
  assert.deepEqual(rows[0], ["t (е), Space", "turn the stock (or redeal)"]);
  setLang("ru");
  assert.deepEqual(keyTable()[0], ["t (е), Пробел", "открыть карту из колоды (или переложить)"]);
});

test("a key press is found in the key map on either layout, whatever Caps Lock says", () => {
  /** @param {string} key @param {object} [mods] */
  const press = (key, mods = {}) => KEYMAP[keyName({ key, shiftKey: false, ctrlKey: false, metaKey: false, ...mods })];
  assert.equal(press("t"), "turn");
  assert.equal(press("е"), "turn");
  assert.equal(press("T"), "turn"); // Caps Lock
  assert.equal(press(" "), "turn");
  assert.equal(press("h"), "hint");
  assert.equal(press("р"), "hint");
  assert.equal(press("?", { shiftKey: true }), "help");
  assert.equal(press(","), "help"); // "?"'s key on the Russian layout
  assert.equal(press("L", { shiftKey: true }), "language");
  assert.equal(press("Д", { shiftKey: true }), "language");
  assert.equal(press("l"), "unfinished");
  assert.equal(press("z", { ctrlKey: true }), "undo");
  assert.equal(press("я", { ctrlKey: true }), "undo");
  assert.equal(press("Z", { ctrlKey: true, shiftKey: true }), "redo");
  assert.equal(press("Escape"), "pause");
  assert.equal(press("r", { ctrlKey: true }), undefined); // the browser's reload stays the browser's
  assert.equal(press("q"), undefined); // the terminal's quit
});

test("cards are named as the cards show them", () => {
  assert.equal(cardName(card(0, 10, "h")), "10♥");
  assert.equal(cardName(card(0, 1, "s")), "A♠");
  setLang("ru");
  assert.equal(cardName(card(0, 13, "c")), "К♣");
});

test("variant tokens and labels", () => {
  assert.deepEqual(variantFromToken("r3"), { redeals: 3, waste_playable: false, privileged_last: true });
  assert.deepEqual(variantFromToken("ruwn"), { redeals: null, waste_playable: true, privileged_last: false });
  assert.equal(variantFromToken("x3"), null);
  assert.equal(variantFromToken(null), null);
  assert.equal(variantLabel({ redeals: 3, waste_playable: false, privileged_last: true }), t("canonical"));
  assert.equal(variantLabel({ redeals: 1, waste_playable: true, privileged_last: false }), "1 redeal, V2, no R8");
  assert.equal(variantLabel({ redeals: null, waste_playable: false, privileged_last: true }), "∞ redeals");
});

test("variant tokens round-trip", () => {
  for (const token of ["r3", "ru", "r0w", "r3wn", "r10n"]) {
    assert.equal(variantToken(/** @type {any} */ (variantFromToken(token))), token);
  }
});
