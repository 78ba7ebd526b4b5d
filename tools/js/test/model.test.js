// The board model (static/js/model.js): the picture of a state, stack offsets, the
// table's geometry, hints and refusals, a replay's state.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  LABEL_ROW, PILL_ROW, PLACES, STACKS, baseZ, canPlay, cascadeGap, flightMs, flowBeats, hintPlace, isSource, pressable, refusalFor,
  replayState, reversed, stackOffset, stateModel, tableGeometry,
} from "../../../src/firstlast/web/static/js/model.js";

/** @param {number} id @param {number} rank @param {"c"|"d"|"h"|"s"} suit */
const card = (id, rank, suit, deck = 1) => ({ id, rank, suit, deck, symbol: `${rank}${suit}` });

/** A small State: F1 and R1 dealt, two cards on P1, one on the waste, three in the stock. */
function sampleState() {
  const none = () => Array(8).fill(null);
  const first = none();
  const reserve = none();
  first[0] = card(0, 12, "h");
  reserve[0] = card(1, 5, "c");
  const piles = Array.from({ length: 8 }, () => []);
  piles[0] = [card(2, 1, "s"), card(3, 2, "d", 2)];
  return {
    id: "g", deal: "1", variant: { redeals: 3, waste_playable: false, privileged_last: true, token: "r3", description: "" },
    status: "playing", score: 2, passes: 1, redeals_used: 0, redeals_left: 3,
    first, reserve, piles, stock_count: 3, stock_decks: [2, 1, 1], waste: [card(4, 9, "h")],
    active: 0, need: 3, need_char: "3", privileged: "F8", legal_moves: ["turn"], stock_move: "turn", base_move: "F1",
    drop_target: "P1", hint: "turn", refusals: { R1: { error: "no", code: "move.illegal", params: {}, text: "no" } },
    pressable: ["R1"],
    can_undo: true, can_redo: false, moves: 4, created: "", updated: "", finished: null, version: 3,
    origin: "played", result: null, abandoned: false,
  };
}

test("the places: 26, in reading order, the stacks among them", () => {
  assert.equal(PLACES.length, 26);
  assert.deepEqual(PLACES.slice(0, 3), ["F1", "F2", "F3"]);
  assert.deepEqual(PLACES.slice(8, 10), ["P1", "P2"]);
  assert.deepEqual(PLACES.slice(-2), ["stock", "waste"]);
  for (const s of STACKS) assert.ok(PLACES.includes(s));
  assert.ok(!STACKS.has("F1") && !STACKS.has("R8"));
});

test("a state's picture: known cards where the state has them, the stock by backs, top last", () => {
  const m = stateModel(/** @type {any} */ (sampleState()));
  assert.deepEqual(m.F1.map((c) => "id" in c && c.id), [0]);
  assert.deepEqual(m.F2, []);
  assert.deepEqual(m.R1.map((c) => "id" in c && c.id), [1]);
  assert.deepEqual(m.P1.map((c) => "id" in c && c.id), [2, 3]);
  assert.deepEqual(m.waste.map((c) => "id" in c && c.id), [4]);
  // stock_decks lists the next card first: it is the top, so it comes last.
  assert.deepEqual(m.stock, [{ anon: true, deck: 1 }, { anon: true, deck: 1 }, { anon: true, deck: 2 }]);
  assert.equal(Object.keys(m).length, PLACES.length);
});

test("sources: reserve and first-row cards, and only the waste's top", () => {
  assert.ok(isSource("R3", 0, 1) && isSource("F8", 0, 1));
  assert.ok(!isSource("R3", 0, 2)); // only the top card
  assert.ok(isSource("waste", 4, 5));
  assert.ok(!isSource("waste", 3, 5));
  assert.ok(!isSource("P1", 0, 1) && !isSource("stock", 9, 10));
});

test("stacking order: the rows over the piles over the waste over the stock", () => {
  assert.ok(baseZ("stock") < baseZ("waste"));
  assert.ok(baseZ("waste") < baseZ("P3"));
  assert.ok(baseZ("P3") < baseZ("R3"));
  assert.ok(baseZ("R3") < baseZ("F3"));
});

test("stack offsets: single places lie flat, fanned piles spread, stacks thicken in steps", () => {
  assert.deepEqual(stackOffset("F1", 0, 0, 80), [0, 0]);
  assert.deepEqual(stackOffset("R5", 3, 20, 80), [0, 0]);
  assert.deepEqual(stackOffset("P2", 5, 20, 80), [0, 100]);
  // Not fanned: a step every four cards, at most six.
  assert.deepEqual(stackOffset("P2", 3, 0, 110), [-0, -0]);
  assert.deepEqual(stackOffset("waste", 4, 0, 110), [-0.5, -1]);
  assert.deepEqual(stackOffset("stock", 100, 0, 110), [-3, -6]);
  // The fan is for piles only.
  assert.deepEqual(stackOffset("waste", 8, 20, 110), [-1, -2]);
  // Small cards still step at least 0.6 px.
  assert.deepEqual(stackOffset("stock", 4, 0, 20), [-0.3, -0.6]);
});

test("geometry: a desktop window is wide and unfanned, a tablet upright fans its piles", () => {
  const desk = tableGeometry(1440, 800);
  assert.equal(desk.wide, true);
  assert.equal(desk.tall, false);
  assert.equal(desk.fan, 0);
  assert.ok(desk.cw > 100 && desk.cw < 140, String(desk.cw));
  const tablet = tableGeometry(768, 900);
  assert.equal(tablet.wide, false);
  assert.equal(tablet.tall, false);
  assert.ok(tablet.fan > 0 && tablet.fan <= Math.floor(0.3 * 1.4 * tablet.cw), String(tablet.fan));
  // Never smaller than 28 px, even in a tiny window.
  assert.equal(tableGeometry(100, 80).cw, 28);
  assert.ok(Number.isInteger(tablet.fan) && Number.isInteger(tablet.cw));
});

test("geometry: a phone upright lays its columns in two halves, cards large enough to touch", () => {
  // 390 × 844 less the bars; eight columns across would give 41 px cards.
  for (const [w, h] of [[390, 724], [360, 640], [412, 800]]) {
    const phone = tableGeometry(w, h);
    assert.equal(phone.tall, true, `${w}×${h}`);
    assert.ok(phone.cw >= 52, `${w}×${h}: ${phone.cw}`);
    // Five columns and six card rows with their label rows fit.
    assert.ok(5 * phone.cw + 4 * 0.14 * phone.cw <= w, `${w}×${h} too wide`);
    const under = 2 * (2 * Math.max(0.3 * phone.cw, LABEL_ROW) + Math.max(0.42 * phone.cw, PILL_ROW)) + 0.15 * phone.cw;
    assert.ok(6 * 1.4 * phone.cw + under + 24 * phone.fan <= h, `${w}×${h} too tall`);
  }
  // Sideways: the wide layout, cards still at least 44 px under a compact bar.
  const side = tableGeometry(844, 300);
  assert.equal(side.wide, true);
  assert.ok(side.cw >= 44, String(side.cw));
});

test("flight times by speed; an unknown speed flies at normal speed", () => {
  assert.equal(flightMs(0), 0);
  assert.ok(flightMs(1) > flightMs(2) && flightMs(2) > flightMs(3));
  assert.equal(flightMs(7), flightMs(2));
});

test("a flow: a beat a move in order, a redeal's gathering one beat; Finish fits its budget", () => {
  const mv = (/** @type {string} */ from, /** @type {string} */ to, /** @type {number} */ id) =>
    ({ card: card(id, 1, "s"), from, to, face_up: to !== "stock" });
  const moves = [mv("stock", "waste", 1), mv("waste", "P1", 1), mv("waste", "stock", 2), mv("waste", "stock", 3),
    mv("stock", "waste", 3)];
  const beats = flowBeats(moves, 10, 100);
  assert.deepEqual(beats.map((b) => b.at), [100, 110, 120, 150]);
  assert.deepEqual(beats.map((b) => b.movements.length), [1, 1, 2, 1]);
  assert.deepEqual(beats.flatMap((b) => b.movements), moves); // none lost, none reordered
  // The top animated pace plays at least 8 moves a second (issue 26), and Finish's
  // cascade of a whole game (about 330 moves) fits its budget at every pace.
  assert.ok(1000 / cascadeGap(3, 1, 1e9) >= 8);
  for (const speed of [1, 2, 3]) assert.ok(cascadeGap(speed, 330, 4000) * 330 <= 4000);
  assert.equal(cascadeGap(0, 330, 4000), 0);
});

test("a hint points at the place it plays from", () => {
  assert.equal(hintPlace("turn"), "stock");
  assert.equal(hintPlace("redeal"), "stock");
  assert.equal(hintPlace("waste"), "waste");
  assert.equal(hintPlace("R4"), "R4");
  assert.equal(hintPlace(null), null);
});

test("a refusal is read from the state, by the move's one name", () => {
  const s = /** @type {any} */ (sampleState());
  assert.equal(refusalFor(s, "R1")?.error, "no");
  assert.equal(refusalFor(s, "R2"), null);
  assert.equal(refusalFor(s, "waste"), null);
  s.refusals.W = { error: "old name", code: "move.illegal", params: {} };
  assert.equal(refusalFor(s, "waste"), null); // "W" is read by the engine alone, in old records
});

test("what can be pressed and played is the state's, not a rule of the page", () => {
  const s = /** @type {any} */ (sampleState());
  assert.ok(pressable(s, "R1", 1) && !pressable(s, "R2", 1));
  assert.ok(!pressable(s, "R1", 0) && !pressable(s, "R1", 1, true)); // no card there; a replay
  s.pressable = ["F3"]; // whatever the server says: the page does not know R8 or V2
  assert.ok(pressable(s, "F3", 1) && !pressable(s, "R1", 1) && !pressable(s, "F8", 1));
  assert.ok(canPlay(s, "turn") && !canPlay(s, "R1"));
  s.legal_moves = ["waste"];
  assert.ok(canPlay(s, "waste") && !canPlay(s, "waste", true));
});

test("a step played backwards: last movement first, each card back where it was", () => {
  const c1 = card(5, 3, "h");
  const c2 = card(6, 4, "h");
  const back = reversed([
    { card: c1, from: "stock", to: "waste", face_up: true },
    { card: c2, from: "R2", to: "P1", face_up: true },
  ]);
  assert.deepEqual(back, [
    { card: c2, from: "P1", to: "R2", face_up: true },
    { card: c1, from: "waste", to: "stock", face_up: false },
  ]);
});

test("a replay's state: the picture's cards, the step's facts, no controls", () => {
  const initial = /** @type {any} */ (sampleState());
  const picture = stateModel(initial);
  // One card turned: the stock's top onto the waste.
  picture.stock.pop();
  picture.waste.push(card(7, 3, "c", 2));
  const facts = { status: "playing", score: 2, passes: 1, redeals_used: 0, redeals_left: 3, active: 0, need: 3,
    need_char: "3", privileged: null };
  const s = replayState(initial, /** @type {any} */ (facts), 1, picture);
  assert.equal(s.moves, 1);
  assert.equal(s.stock_count, 2);
  assert.deepEqual(s.stock_decks, [1, 1]);
  assert.deepEqual(s.waste.map((c) => c.id), [4, 7]);
  assert.deepEqual(s.piles[0].map((c) => c.id), [2, 3]);
  assert.equal(s.first[0]?.id, 0);
  assert.equal(s.first[1], null);
  assert.equal(s.privileged, null);
  assert.deepEqual([s.legal_moves, s.hint, s.can_undo, s.can_redo, s.refusals], [[], null, false, false, {}]);
  assert.equal(s.id, initial.id);
});
