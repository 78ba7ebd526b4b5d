// The toolbar on one row. A wide screen shows every button's label where they fit;
// where they do not inline (English at 1440 px wrapped to three rows), the words go
// under the icons, smaller, then the brand's words make room; only then do the less used
// buttons lose their labels, then the rest (table.css, #topbar.fold-N). Measured, not
// guessed from the width: it holds in either language and with any font. Phones and
// short windows have their own bar (the menu), which needs no folding.

import { $ } from "./store.js";

/** The deepest fold: every label gone, the bar at its tightest. */
const DEEPEST = 6;

/** @param {HTMLElement} bar @param {number} level */
function setFold(bar, level) {
  for (let i = 1; i <= DEEPEST; i++) bar.classList.toggle(`fold-${i}`, i <= level);
}

/** Whether everything shown in the bar stands on one row. @param {HTMLElement} bar */
function oneRow(bar) {
  const boxes = [...bar.querySelectorAll(".brand, .tools button, .tools .speed-pick")]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  const lowestTop = Math.max(...boxes.map((r) => r.top));
  const highestBottom = Math.min(...boxes.map((r) => r.bottom));
  return lowestTop < highestBottom;
}

/** Fold the bar as little as it takes to stand on one row. */
export function fitToolbar() {
  const bar = $("#topbar");
  if (getComputedStyle($("#b-more")).display !== "none") {
    setFold(bar, 0); // the phone's bar: the menu holds the rest
    return;
  }
  for (let level = 0; level <= DEEPEST; level++) {
    setFold(bar, level);
    if (oneRow(bar)) return;
  }
}

/** Fold again when the bar's width or a label changes (a new language, Auto ↔ Pause). */
export function watchToolbar() {
  const bar = $("#topbar");
  let width = -1;
  new ResizeObserver(() => {
    if (bar.clientWidth === width) return;
    width = bar.clientWidth;
    fitToolbar();
  }).observe(bar);
  new MutationObserver(() => fitToolbar()).observe($("#topbar .tools"), { subtree: true, childList: true, characterData: true });
  fitToolbar();
}
