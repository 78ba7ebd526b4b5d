// The first-visit tour: a few steps that point at the real parts of the table (the first
// row, the pile being built and the rank it needs, the reserve, the stock and its
// redeals, the privileged card, the hint), in the player's language. A modal dialog: the
// focus is in it (Tab stays, Escape skips, the focus goes back to its opener: dialogs.js),
// its title and words are its name and description, and each new step is said in its
// live region. Shown once, on a first visit (the settings' ``tour_seen``, kept with the
// player: on the static site too), and again whenever asked for from the help.

import { redealsLeftText } from "./format.js";
import { rankChar, rankName, t } from "./i18n.js";
import { saveSettings } from "./settings.js";
import { $, $button, $dialog, announce, app } from "./store.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * One step of the tour.
 * @typedef {object} Step
 * @property {string} key its catalog keys' stem (tour.KEY.title, tour.KEY.text)
 * @property {() => Element[]} targets the parts of the page it points at
 * @property {() => string} text its words, from the table as it stands
 */

/** @param {string[]} places @returns {Element[]} */
const slots = (places) => places.map((p) => app.slots[p]).filter(Boolean);

/** The steps for the table on the page (a step about what the table lacks is left out:
 * the pile being built after the end, the privileged card under V3). @returns {Step[]} */
export function tourSteps() {
  const s = app.state;
  const marks = app.settings.show_playable !== false;
  /** @type {Step[]} */
  const steps = [
    { key: "first", targets: () => slots(["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"]), text: () => t("tour.first.text") },
  ];
  if (s && s.active !== null && s.need) {
    const k = s.active + 1;
    const need = s.need;
    steps.push({
      key: "pile",
      targets: () => [...slots([`P${k}`]), app.slots[`P${k}`].querySelector(".pill"), app.info].filter((el) => el !== null),
      text: () => t("tour.pile.text", { pile: `P${k}`, rank: rankName(need, "a"), char: rankChar(need) }),
    });
  }
  steps.push({
    key: "reserve", targets: () => slots(["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]),
    text: () => t(marks ? "tour.reserve.text" : "tour.reserve.text_plain"),
  });
  steps.push({
    key: "stock", targets: () => slots(["stock", "waste"]),
    text: () => t("tour.stock.text", {
      redeals: s && s.redeals_left !== null ? redealsLeftText(s.redeals_left) : t("tour.stock.unlimited"),
    }),
  });
  if (s && s.privileged === "F8") {
    steps.push({ key: "privileged", targets: () => slots(["F8"]), text: () => t("tour.privileged.text") });
  }
  steps.push({
    key: "hint", targets: () => [$("#b-hint")],
    text: () => t(marks ? "tour.hint.text" : "tour.hint.text_plain"),
  });
  return steps;
}

/** The tour under way: its steps and the one shown. */
let steps = /** @type {Step[]} */ ([]);
let at = 0;
let wired = false;

/** Whether the tour opens by itself now: on a first visit (the settings say it was
 * never shown). A browser driven by a script (tests, benchmarks: navigator.webdriver)
 * meets the table as it expects, unless its address asks for the tour (?tour). */
export function tourDue() {
  if (app.settings.tour_seen) return false;
  return !navigator.webdriver || new URLSearchParams(location.search).has("tour");
}

/** Open the tour at its first step. */
export function openTour() {
  const dlg = $dialog("#dlg-tour");
  if (!wired) wire(dlg);
  steps = tourSteps();
  at = 0;
  if (!dlg.open) dlg.showModal();
  show(false);
  $("#tour-next").focus();
}

/** @param {HTMLDialogElement} dlg */
function wire(dlg) {
  wired = true;
  $("#tour-next").addEventListener("click", () => {
    if (at >= steps.length - 1) dlg.close("done");
    else go(at + 1);
  });
  $("#tour-back").addEventListener("click", () => go(at - 1));
  $("#tour-skip").addEventListener("click", () => dlg.close("skip"));
  dlg.addEventListener("close", () => {
    // Seen (finished, skipped or closed with Escape): it opens again only when asked for.
    if (!app.settings.tour_seen) saveSettings({ tour_seen: true });
  });
  // The table settles (the status bar's chips come, the cards are sized): ring it anew.
  const again = () => { if (dlg.open) place(); };
  addEventListener("resize", again);
  const watch = new ResizeObserver(again);
  for (const sel of ["#table", "#board", "#statusbar"]) watch.observe($(sel));
}

/** Show step ``i`` and say it. @param {number} i */
function go(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  show(true);
  const back = $button("#tour-back");
  if (document.activeElement === back && back.hidden) $("#tour-next").focus();
}

/** Fill the card with the current step; ``say``: announce it (a step after the first:
 * the first is the dialog's own name and description, read as it opens).
 * @param {boolean} say */
function show(say) {
  const step = steps[at];
  const last = at === steps.length - 1;
  $("#tour-count").textContent = t("tour.step", { n: at + 1, total: steps.length });
  $("#tour-title").textContent = t(`tour.${step.key}.title`);
  $("#tour-text").textContent = step.text();
  $("#tour-next").textContent = t(last ? "tour.done" : "tour.next");
  $button("#tour-back").hidden = at === 0;
  $dialog("#dlg-tour").dataset.step = step.key;
  place();
  if (say) announce([$("#tour-count"), $("#tour-title"), $("#tour-text")].map((el) => sentenceEnd(el.textContent || "")).join(" "));
}

/** ``text`` ending as a sentence does ("2 of 6." — a question keeps its mark). @param {string} text */
const sentenceEnd = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);

/** A rectangle: left, top, right, bottom (px of the window). @typedef {[number, number, number, number]} Box */

/** The area two boxes share. @param {Box} a @param {Box} b */
function overlap(a, b) {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Ring the step's targets (the rest of the page dimmed), and put the card beside them
 * where it covers the least of them, wholly in the window. */
function place() {
  const step = steps[at];
  if (!step) return;
  const W = innerWidth;
  const H = innerHeight;
  const pad = 4;
  /** @type {Box[]} */
  const boxes = step.targets().map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0)
    .map((r) => [r.left - pad, r.top - pad, r.right + pad, r.bottom + pad]);
  const shade = /** @type {SVGSVGElement} */ (document.querySelector("#dlg-tour .tour-shade"));
  const holes = /** @type {SVGGElement} */ (shade.querySelector(".holes"));
  const rings = /** @type {SVGGElement} */ (shade.querySelector(".rings"));
  holes.replaceChildren();
  rings.replaceChildren();
  for (const [l, tp, r, b] of boxes) {
    for (const group of [holes, rings]) {
      const rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("x", String(l));
      rect.setAttribute("y", String(tp));
      rect.setAttribute("width", String(r - l));
      rect.setAttribute("height", String(b - tp));
      rect.setAttribute("rx", "8");
      group.append(rect);
    }
  }
  const card = $("#tour-card");
  const w = card.offsetWidth;
  const h = card.offsetHeight;
  const m = 8;
  const clampX = (/** @type {number} */ x) => Math.max(m, Math.min(W - w - m, x));
  const clampY = (/** @type {number} */ y) => Math.max(m, Math.min(H - h - m, y));
  const all = boxes.length ? boxes : [/** @type {Box} */ ([W / 2, H / 2, W / 2, H / 2])];
  const [L, T, R, B] = [Math.min(...all.map((b) => b[0])), Math.min(...all.map((b) => b[1])),
    Math.max(...all.map((b) => b[2])), Math.max(...all.map((b) => b[3]))];
  const cx = (L + R) / 2 - w / 2;
  const cy = (T + B) / 2 - h / 2;
  /** Beside the targets (below, above, right, left), then the window's edges and middle. */
  const spots = [
    [clampX(cx), clampY(B + m)], [clampX(cx), clampY(T - m - h)], [clampX(R + m), clampY(cy)], [clampX(L - m - w), clampY(cy)],
    [clampX(cx), m], [clampX(cx), clampY(H - h - m)], [m, clampY(cy)], [clampX(W - w - m), clampY(cy)],
  ];
  let best = spots[0];
  let least = Infinity;
  for (const [x, y] of spots) {
    const covered = all.reduce((sum, b) => sum + overlap([x, y, x + w, y + h], b), 0);
    if (covered < least - 1) {
      least = covered;
      best = [x, y];
    }
  }
  card.style.left = `${best[0]}px`;
  card.style.top = `${best[1]}px`;
}
