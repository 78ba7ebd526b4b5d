// The story's chart (static/js/story.js, storySvg): an accessible SVG of the chance
// curve with its band, the 50 % line, the moments and a won game's crossing.
import assert from "node:assert/strict";
import { test } from "node:test";

const stored = new Map();
globalThis.localStorage = /** @type {any} */ ({
  getItem: (/** @type {string} */ k) => stored.get(k) ?? null,
  setItem: (/** @type {string} */ k, /** @type {string} */ v) => stored.set(k, v),
});
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { CHART, fittedSize, labelBox, labelSize, moveAt, overlaps, placeLabels, scales, storySvg } =
  await import("../../../src/firstlast/web/static/js/story.js");

/** @param {number} move @param {number} pass @param {number} p @param {number} [w] */
const point = (move, pass, p, w = 0.02) => ({ move, pass, score: 0, probability: p, low: Math.max(0, p - w),
  high: Math.min(1, p + w), wins: 0, samples: 5000, certain: false });

/** A lost game of 300 moves over 3 passes. @returns {any} */
function lost() {
  return {
    deal: "1", status: "lost", moves: 300,
    points: [point(0, 1, 0.25), point(100, 1, 0.2), point(120, 2, 0.3), point(159, 2, 0.07), point(250, 3, 0.02),
      { ...point(300, 3, 0, 0), certain: true }],
    moments: [{ move: 159, first_move: 159, span: 1, pass: 2, before: 0.3, after: 0.07, change: -0.23, clear: true }],
    crossing: null,
    sentences: ["Deal 1 did not come out: 300 moves.", "It stopped (R11): pile 5 needed a ten & <more>."],
    chart_name: "The chance to come out over 300 moves: 25 % & <more>.",
  };
}

/** All numbers of one attribute in the markup. @param {string} svg @param {string} attr */
const numbers = (svg, attr) => [...svg.matchAll(new RegExp(` ${attr}="(-?[\\d.]+)"`, "g"))].map((m) => Number(m[1]));

test("the chart is an image whose accessible name is short: the story's chart_name", () => {
  const svg = storySvg(lost());
  assert.match(svg, /^<svg class="story-chart" viewBox="0 0 640 230" role="img"/);
  assert.ok(svg.endsWith("</svg>"));
  // The short name, escaped, is its <title>, not the sentences shown beside it.
  const title = /<svg[^>]*><title>([^<]*)<\/title>/.exec(svg);
  assert.equal(title && title[1], "The chance to come out over 300 moves: 25 % &amp; &lt;more&gt;.");
  assert.doesNotMatch(svg, /It stopped/);
  assert.doesNotMatch(svg, /aria-labelledby/);
  // No inline style (the page's CSP allows none).
  assert.doesNotMatch(svg, /style=/);
});

test("points, band, the 50 % line and the passes are drawn inside the plot", () => {
  const svg = storySvg(lost());
  const { x, y } = scales(300);
  assert.equal(x(0), CHART.left);
  assert.equal(x(300), CHART.width - CHART.right);
  assert.equal(y(1), CHART.top);
  assert.equal(y(0), CHART.height - CHART.bottom);
  assert.equal((svg.match(/<circle class="point"/g) || []).length, 6);
  assert.match(svg, /<polygon class="band" points="[^"]+"/);
  assert.match(svg, new RegExp(`<line class="half" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y(0.5)}"`));
  // The band runs along the highs, then back along the lows: 2 corners per point.
  const band = /<polygon class="band" points="([^"]+)"/.exec(svg);
  assert.equal(band && band[1].split(" ").length, 12);
  // Two passes begin after the first: two dotted lines, labelled.
  assert.equal((svg.match(/<line class="pass"/g) || []).length, 2);
  assert.match(svg, />pass 2</);
  assert.match(svg, />pass 3</);
  for (const cx of numbers(svg, "cx")) assert.ok(cx >= CHART.left && cx <= CHART.width - CHART.right, `cx ${cx}`);
  for (const cy of numbers(svg, "cy")) assert.ok(cy >= CHART.top && cy <= CHART.height - CHART.bottom, `cy ${cy}`);
});

test("the moments are marked with their move; a lost game has no crossing", () => {
  const svg = storySvg(lost(), { labels: { move: (n) => `ход ${n}`, pass: (n) => `проход ${n}`, crossing: (n) => `50 % на ходе ${n}`, axis: "ходы" } });
  assert.match(svg, /<g class="moment down" data-move="159">/);
  assert.match(svg, />ход 159</);
  assert.match(svg, />проход 2</);
  assert.doesNotMatch(svg, /class="crossing"/);
});

test("a won game marks where it first reached 50 %", () => {
  const story = {
    ...lost(), status: "won",
    points: [point(0, 1, 0.3), point(50, 1, 0.45), point(60, 1, 0.62), point(300, 2, 1, 0)],
    moments: [{ move: 60, first_move: 51, span: 10, pass: 1, before: 0.45, after: 0.62, change: 0.17, clear: false }],
    crossing: { point: point(60, 1, 0.62), previous: point(50, 1, 0.45) },
  };
  const svg = storySvg(story);
  assert.match(svg, /<g class="crossing" data-move="60">/);
  assert.match(svg, />50\u00a0% at move 60</);
  assert.match(svg, /<g class="moment up noise" data-move="60">/);
});

test("the replay's cursor, and the move under a point of the chart", () => {
  const svg = storySvg(lost(), { cursor: 150 });
  const { x } = scales(300);
  assert.match(svg, new RegExp(`<line class="cursor" x1="${x(150)}"`));
  assert.equal(moveAt(x(150), 300), 150);
  assert.equal(moveAt(0, 300), 0);
  assert.equal(moveAt(10_000, 300), 300);
  // A game of no moves still draws (one point, nothing divided by zero).
  const empty = storySvg({ ...lost(), moves: 0, points: [point(0, 1, 0.25)], moments: [] });
  assert.doesNotMatch(empty, /NaN|Infinity/);
});

/** Every drawn label's box, from the markup (the estimate story.js places them by).
 * @param {string} svg */
function boxes(svg) {
  return [...svg.matchAll(/<text(?: class="([^"]*)")? x="([-\d.]+)" y="([-\d.]+)" text-anchor="(\w+)" font-size="([\d.]+)">([^<]*)<\/text>/g)]
    .map((m) => ({ cls: m[1] || "", text: m[6], box: labelBox(m[6], Number(m[5]),
      { x: Number(m[2]), y: Number(m[3]), anchor: /** @type {any} */ (m[4]) }) }));
}

test("labels never overlap: close moments and passes are placed apart or thinned", () => {
  // The README's screenshot had "move 159" over "move 180": moments 21 moves apart on
  // a chart of 310, and passes close together.
  const story = {
    ...lost(), moves: 310,
    points: [point(0, 1, 0.25), point(120, 2, 0.1), point(124, 2, 0.08), point(130, 3, 0.08), point(140, 4, 0.07),
      point(158, 4, 0.04), point(159, 4, 0.07), point(179, 4, 0.07), point(180, 4, 0.04), { ...point(310, 4, 0, 0), certain: true }],
    moments: [
      { move: 124, first_move: 120, span: 5, pass: 2, before: 0.1, after: 0.08, change: -0.02, clear: true },
      { move: 159, first_move: 159, span: 1, pass: 4, before: 0.04, after: 0.07, change: 0.03, clear: true },
      { move: 180, first_move: 180, span: 1, pass: 4, before: 0.07, after: 0.04, change: -0.03, clear: true },
    ],
  };
  // Up to the sizes a chart drawn small on a phone takes (12 px on the screen: story.fittedSize).
  for (const fontSize of [12, 21, 24, 30]) {
    const drawn = boxes(storySvg(story, { fontSize }));
    assert.ok(drawn.some((d) => d.text === "move 159") || drawn.some((d) => d.text === "move 180"));
    // A moment near the start: its label clear of the axis's "50 %" too.
    const early = boxes(storySvg({ ...story, moments: [{ ...story.moments[0], move: 16, first_move: 16, span: 1, before: 0.6, after: 0.5 }] }, { fontSize }));
    for (let i = 0; i < early.length; i++) for (let j = i + 1; j < early.length; j++) {
      assert.ok(!overlaps(early[i].box, early[j].box), `${early[i].text} overlaps ${early[j].text} at size ${fontSize}`);
    }
    for (let i = 0; i < drawn.length; i++) {
      const a = drawn[i].box;
      assert.ok(a.left >= 0 && a.right <= CHART.width && a.top >= 0 && a.bottom <= CHART.height, drawn[i].text);
      for (let j = i + 1; j < drawn.length; j++) {
        assert.ok(!overlaps(a, drawn[j].box), `${drawn[i].text} overlaps ${drawn[j].text} at size ${fontSize}`);
      }
    }
    // Every moment keeps its marker and its name (a <title>) even when its label is thinned.
    assert.equal((storySvg(story, { fontSize }).match(/<g class="moment/g) || []).length, 3);
  }
  // The passes keep their labels where there is room, at any size.
  for (const fontSize of [12, 21, 22, 24]) {
    assert.deepEqual(boxes(storySvg(lost(), { fontSize })).filter((d) => d.cls === "pass-label").map((d) => d.text),
      ["pass 2", "pass 3"]);
  }
  // Larger: a pass with no room for its words is named by its number, its words in its <title>.
  const big = storySvg(story, { fontSize: 40 });
  assert.deepEqual([...big.matchAll(/<g class="pass-mark"><title>([^<]*)<\/title>/g)].map((m) => m[1]), ["pass 2", "pass 3", "pass 4"]);
  const late = { ...lost(), points: [point(0, 1, 0.25), point(280, 2, 0.1), point(290, 3, 0.05), { ...point(300, 3, 0, 0), certain: true }] };
  assert.deepEqual(boxes(storySvg(late, { fontSize: 24 })).filter((d) => d.cls === "pass-label").map((d) => d.text), ["pass 2", "3"]);
  // At the default size all three moments are labelled.
  assert.deepEqual(boxes(storySvg(story)).filter((d) => /^move \d/.test(d.text)).map((d) => d.text),
    ["move 124", "move 159", "move 180"]);
});

test("placeLabels takes the first free spot and thins a label with none", () => {
  const bounds = { left: 0, top: 0, right: 100, bottom: 100 };
  const spot = /** @type {const} */ ({ x: 50, y: 50, anchor: "middle" });
  const placed = placeLabels([{ text: "abc", size: 10, spots: [spot] }, { text: "abc", size: 10, spots: [spot] },
    { text: "abc", size: 10, spots: [spot, { x: 50, y: 80, anchor: "middle" }] }], bounds);
  assert.deepEqual(placed, [spot, null, { x: 50, y: 80, anchor: "middle" }]);
  // Larger words where the chart is drawn small: about 12 px on the screen.
  assert.equal(labelSize(640), 12);
  assert.equal(labelSize(350), 22);
  assert.equal(labelSize(0), 12);
  // The chart's box, however it is scaled (by its width, or by a phone's max-height).
  assert.equal(fittedSize(640, 230), 12);
  assert.equal(fittedSize(340, 600), 23);
  assert.equal(fittedSize(640, 101), 28);
  assert.equal(fittedSize(0, 0), 12);
});
