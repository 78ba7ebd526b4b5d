// The table in words (static/js/words.js): the hint, the summary, the review of a
// place and the summary of a run of moves, in both languages (catalogs read from disk).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

// i18n.js remembers the language in localStorage and on <html lang>: stand-ins.
globalThis.localStorage = /** @type {any} */ ({ getItem: () => null, setItem: () => {} });
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { setCatalog, setLang } = await import("../../../src/firstlast/web/static/js/i18n.js");
const { hintWords, reviewSentence, reviewWords, streamWords, summaryWords, tally } = await import(
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

test("the hint in words, both languages", () => {
  setLang("en");
  assert.equal(hintWords(state()), "Hint: play the king of hearts from reserve 2 onto pile 1");
  assert.equal(hintWords({ ...state(), hint: "turn" }, "brief"), "Hint: turn the stock");
  assert.match(hintWords({ ...state(), hint: "turn" }, "full"), /nothing fits: pile 1, 1 of 13, needs a king/);
  assert.equal(hintWords({ ...state(), status: "lost" }), "No hint: the game is over");
  setLang("ru");
  assert.equal(hintWords(state()), "Подсказка: положите короля червей с места 2 нижнего ряда на кучку 1");
});

test("the summary: the pile, where its rank lies in sight, counts, redeals", () => {
  setLang("en");
  const brief = summaryWords(state(), "brief");
  assert.equal(brief, "Building pile 1, 1 of 13, needs a king. Kings in sight: reserve 2 (king of hearts); "
    + "the waste, card 2 from the top (king of spades). Stock: 70 cards, waste: 2 cards. 3 redeals left.");
  assert.match(summaryWords(state(), "full"), /0 on the piles, 6 in the stock/);
  assert.match(summaryWords({ ...state(), redeals_left: null }), /Redeals unlimited\./);
  setLang("ru");
  assert.match(summaryWords(state(), "brief"), /^Собирается кучка 1, 1 из 13, ждёт карту: король\. На виду короли: /);
});

test("a pile bottom to top, the waste top down", () => {
  setLang("en");
  assert.deepEqual(reviewWords(state(), "waste").cards, ["two of diamonds", "king of spades"]);
  assert.equal(reviewSentence(state(), "P1"), "pile 1, 1 of 13, bottom to top: queen of clubs.");
  assert.equal(reviewSentence(state(), "P2"), "pile 2: empty.");
  assert.equal(reviewWords(state(), "rows").cards.length, 16);
  setLang("ru");
  assert.equal(reviewSentence(state(), "waste"), "сборная кучка: 2 карты, сверху вниз: двойка бубен; король пик.");
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
