// The words of a run of moves (static/js/words.js), in both languages (catalogs read
// from disk). The hint, the summary and the reviews are the server's (i18n/table.py):
// tests/i18n/test_table_words.py.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

// i18n.js remembers the language in localStorage and on <html lang>: stand-ins.
globalThis.localStorage = /** @type {any} */ ({ getItem: () => null, setItem: () => {} });
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { setCatalog, setLang } = await import("../../../src/firstlast/web/static/js/i18n.js");
const { pileWords, streamWords, tally } = await import(
  "../../../src/firstlast/web/static/js/words.js");
for (const lang of /** @type {const} */ (["en", "ru"])) {
  setCatalog(lang, JSON.parse(readFileSync(new URL(`../../../src/firstlast/i18n/${lang}.json`, import.meta.url), "utf-8")));
}

/** @param {number} id @param {number} rank @param {"c" | "d" | "h" | "s"} suit */
const card = (id, rank, suit) => ({ id, rank, suit, deck: /** @type {1} */ (1), symbol: "" });

/** Deal 1 after 18 turns, as far as the words read it. @returns {any} */
function state() {
  return {
    status: "playing", active: 0, need: 13, hint: "R2", drop_target: "P1", stock_count: 70, redeals_left: 3,
    piles: [[card(1, 12, "c")], [], [], [], [], [], [], []],
    first: [card(2, 11, "c"), null, card(3, 1, "s"), null, null, null, null, card(4, 9, "s")],
    reserve: [card(5, 8, "s"), card(6, 13, "h"), null, null, null, null, null, null],
    waste: [card(7, 13, "s"), card(8, 2, "d")],
  };
}

test("the active pile in words", () => {
  setLang("en");
  assert.equal(pileWords(state()), "pile 1, 1 of 13, needs a king");
  setLang("ru");
  assert.equal(pileWords(state()), "кучка 1, 1 из 13, ждёт карту: король");
});

test("a run of moves summed up", () => {
  setLang("en");
  const moves = [
    { card: card(9, 3, "h"), from: "stock", to: "waste", face_up: true },
    { card: card(10, 4, "h"), from: "stock", to: "waste", face_up: true },
    { card: card(10, 4, "h"), from: "waste", to: "P2", face_up: true },
    { card: card(11, 5, "h"), from: "waste", to: "stock", face_up: false },
    { card: card(12, 6, "h"), from: "waste", to: "stock", face_up: false },
  ];
  assert.deepEqual({ ...tally(moves), last: null }, { turned: 2, played: 1, redeals: 1, last: null });
  assert.equal(streamWords(3, tally(moves), state(), "brief"),
    "3 moves: 2 cards turned; 1 card onto the piles; 1 redeal; the last, the four of hearts onto pile 2.");
  setLang("ru");
  assert.equal(streamWords(3, tally(moves), null, "brief"),
    "3 хода: открыто 2 карты; 1 карта на кучки; 1 перекладка; последняя — четвёрка червей на кучку 2.");
});
