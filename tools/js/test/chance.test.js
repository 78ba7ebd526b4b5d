// The chance meter's pure part (static/js/chance.js): the Wilson interval, pooling
// rounds, and the one display rule, against what the server's Python says
// (odds.interval.wilson, i18n.chance_text; the expected values were printed by it).
import assert from "node:assert/strict";
import { test } from "node:test";

// chance.js's imports remember the language in localStorage and on <html lang>: stand-ins.
const stored = new Map();
globalThis.localStorage = /** @type {any} */ ({
  getItem: (/** @type {string} */ k) => stored.get(k) ?? null,
  setItem: (/** @type {string} */ k, /** @type {string} */ v) => stored.set(k, v),
});
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { chanceParts, chanceText, mergeEstimates, wilson } = await import("../../../src/firstlast/web/static/js/chance.js");

const NB = "\u00a0";
/** [wins, samples, [low, high], English, Russian] as Python printed them. */
const CASES = [
  [454, 2000, [0.20917505418269786, 0.2458716536328662], `20–25${NB}%`, `20–25${NB}%`],
  [5040, 20000, [0.2460309567138504, 0.25806429316997753], `25${NB}% (24–26${NB}%)`, `25${NB}% (24–26${NB}%)`],
  [0, 2000, [0.0, 0.0019170472812529331], `0.0–0.2${NB}%`, `0,0–0,2${NB}%`],
  [2000, 2000, [0.9980829527187469, 1.0], `99.8–100.0${NB}%`, `99,8–100,0${NB}%`],
  [1, 5000, [3.530578343936526e-05, 0.0011320890808397361], `0.0–0.2${NB}%`, `0,0–0,2${NB}%`],
  [27400, 100000, [0.27124437939485574, 0.2767729833320319], `27${NB}% (27–28${NB}%)`, `27${NB}% (27–28${NB}%)`],
  [2740, 10000, [0.2653464161745538, 0.28282715108899203], `27${NB}% (26–29${NB}%)`, `27${NB}% (26–29${NB}%)`],
  [12, 24, [0.3142742581957336, 0.6857257418042664], `31–69${NB}%`, `31–69${NB}%`],
  [50000, 80000, [0.6216393341615206, 0.6283486618560749], `63${NB}% (62–63${NB}%)`, `63${NB}% (62–63${NB}%)`],
  [1, 1, [0.20654931437723745, 1.0], `20–100${NB}%`, `20–100${NB}%`],
  [274000, 1000000, null, `27.4${NB}% (27.3–27.5${NB}%)`, `27,4${NB}% (27,3–27,5${NB}%)`],
  [274000000, 1000000000, null, `27.40${NB}% (27.39–27.41${NB}%)`, `27,40${NB}% (27,39–27,41${NB}%)`],
];

test("the Wilson interval is the server's, number for number", () => {
  for (const [wins, samples, expected] of CASES) {
    if (!expected) continue;
    const w = wilson(Number(wins), Number(samples));
    assert.ok(Math.abs(w.low - expected[0]) < 1e-12, `${wins}/${samples} low ${w.low}`);
    assert.ok(Math.abs(w.high - expected[1]) < 1e-12, `${wins}/${samples} high ${w.high}`);
    assert.equal(w.probability, Number(wins) / Number(samples));
  }
  assert.throws(() => wilson(0, 0));
  assert.throws(() => wilson(3, 2));
});

test("the figure shows only the digits the interval supports, in both languages", () => {
  for (const [wins, samples, , en, ru] of CASES) {
    const est = { ...wilson(Number(wins), Number(samples)), certain: false };
    assert.equal(chanceText(est, "en"), en, `${wins}/${samples}`);
    assert.equal(chanceText(est, "ru"), ru, `${wins}/${samples}`);
  }
  // 0 % and 100 % only when certain.
  assert.equal(chanceText({ probability: 1, low: 1, high: 1, certain: true }, "en"), `100${NB}%`);
  assert.equal(chanceText({ probability: 0, low: 0, high: 0, certain: true }, "ru"), `0${NB}%`);
  assert.deepEqual(chanceParts({ probability: 0.2, low: 0.19, high: 0.21 }),
    { kind: "point", decimals: 0, point: 20, low: 19, high: 21 });
  assert.equal(chanceParts({ probability: 0.2, low: 0.18, high: 0.221 }).kind, "range"); // ±2 points: the interval alone
});

test("a catalog's templates are used when it has them", () => {
  const tr = (/** @type {string} */ key, /** @type {Record<string, string>} */ a) =>
    key === "chance.point" ? `P=${a.p} [${a.low};${a.high}]` : key;
  assert.equal(chanceText({ ...wilson(5040, 20000), certain: false }, "en", tr), "P=25 [24;26]");
  assert.equal(chanceText({ ...wilson(454, 2000), certain: false }, "en", tr), `20–25${NB}%`);
});

test("rounds pool: wins and samples summed, the interval recomputed (ChanceEstimate.merge)", () => {
  const a = { ...wilson(454, 2000), wins: 454, samples: 2000, certain: false };
  const b = { ...wilson(500, 2000), wins: 500, samples: 2000, certain: false };
  const m = mergeEstimates(a, b);
  assert.equal(m.wins, 954);
  assert.equal(m.samples, 4000);
  assert.ok(Math.abs(m.low - 0.22554805837877334) < 1e-12 && Math.abs(m.high - 0.2519537304617405) < 1e-12);
  assert.equal(chanceText(m, "en"), `24${NB}% (22–26${NB}%)`);
  // Ten rounds of 2,000 at a quarter narrow the figure from "20–25 %" to a whole percent.
  let pooled = a;
  for (let r = 1; r < 10; r++) pooled = mergeEstimates(pooled, { ...wilson(504, 2000), wins: 504, samples: 2000, certain: false });
  assert.equal(pooled.samples, 20000);
  assert.match(chanceText(pooled, "en"), /^2\d\u00a0% \(2\d–2\d\u00a0%\)$/);
  // A decided game stays exact.
  const exact = { probability: 1, low: 1, high: 1, wins: 0, samples: 0, certain: true };
  assert.equal(mergeEstimates(exact, b), exact);
});
