// What the table shows a player to guide the eye: the marks on the cards that can be
// played now (the state's legal moves, board.js's "source" class: the play layer decides,
// never this page), and the hint drawn as an arrow from the card (or the stock) to where
// it goes, with its words on screen (the server's words, tablewords.js). The marks can be
// turned off in the settings (show_playable); their colours are CSS variables
// (--mark, --hint-line), so a theme restyles them, and a11y.css keeps them under forced
// colours.

import { board, cardXY, slotXY } from "./board.js";
import { hintPlace } from "./model.js";
import { $, app } from "./store.js";
import { withWords } from "./tablewords.js";
import { REDEAL, TURN, WASTE } from "./vocabulary.js";

const SVG = "http://www.w3.org/2000/svg";

/** Show the marks on the playable cards, or not, as the player's settings say. */
export function showMarks() {
  board.classList.toggle("marks", app.settings.show_playable !== false);
}

/** The centre of the card (or empty slot) at the top of ``place``, in the board's px; with
 * ``next``, where the next card laid there would lie.
 * @param {string} place @param {boolean} [next] @returns {[number, number]} */
function centre(place, next = false) {
  const n = (app.model[place] || []).length;
  const cw = app.cw || 80;
  const [x, y] = n || next ? cardXY(place, Math.max(0, next ? n : n - 1)) : slotXY(place);
  return [x + cw / 2, y + (cw * 1.4) / 2];
}

/** Where the hint's move goes: a played card onto the active pile, a turned card onto
 * the waste, a redeal's waste back into the stock. @param {string} move @returns {[string, string] | null} */
function hintPath(move) {
  const s = app.state;
  if (!s) return null;
  if (move === TURN) return ["stock", WASTE];
  if (move === REDEAL) return [WASTE, "stock"];
  if (s.active === null) return null;
  return [/** @type {string} */ (hintPlace(move)), `P${s.active + 1}`];
}

/** The arrow layer over the cards (made once). @returns {SVGSVGElement} */
function arrowLayer() {
  let svg = /** @type {SVGSVGElement | null} */ (board.querySelector("svg.hint-arrow"));
  if (!svg) {
    svg = document.createElementNS(SVG, "svg");
    svg.classList.add("hint-arrow");
    svg.setAttribute("aria-hidden", "true");
    for (const cls of ["line", "head"]) {
      const path = document.createElementNS(SVG, "path");
      path.classList.add(cls);
      svg.append(path);
    }
    board.append(svg);
  }
  return svg;
}

/** The hint's words on screen (made once): over the status bar, which they cover while
 * shown, so that they take no room from the table and cover no card. @returns {HTMLElement} */
function wordsBox() {
  let box = document.getElementById("hint-words");
  if (!box) {
    box = document.createElement("p");
    box.id = "hint-words";
    box.className = "hint-words";
    box.hidden = true;
    // Said already by the live region (view.js toggleHint): shown, not said twice.
    box.setAttribute("aria-hidden", "true");
    $("#main").append(box);
  }
  return box;
}

/** Draw the hint (``move``: the state's hint) as an arrow and in words, or take it away
 * (``move`` null). @param {string | null} move */
export function drawHint(move) {
  const svg = arrowLayer();
  const box = wordsBox();
  const path = move ? hintPath(move) : null;
  if (!move || !path) {
    svg.classList.remove("show");
    box.hidden = true;
    box.textContent = "";
    return;
  }
  const [from, to] = path;
  const [x1, y1] = centre(from);
  let [x2, y2] = centre(to, true);
  const cw = app.cw || 80;
  // Stop short of the target's centre, so that the head sits on the card, not past it.
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const back = Math.min(cw * 0.35, len * 0.25);
  x2 -= ((x2 - x1) / len) * back;
  y2 -= ((y2 - y1) / len) * back;
  // A gentle curve: the control point off the middle, to the side.
  const bend = Math.min(cw * 0.9, len * 0.25);
  const cx = (x1 + x2) / 2 + ((y2 - y1) / len) * bend;
  const cy = (y1 + y2) / 2 - ((x2 - x1) / len) * bend;
  const [line, head] = /** @type {SVGPathElement[]} */ ([...svg.querySelectorAll("path")]);
  line.setAttribute("d", `M${x1.toFixed(1)},${y1.toFixed(1)} Q${cx.toFixed(1)},${cy.toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}`);
  // The head: a triangle along the curve's last direction (control point → end).
  const hl = Math.max(10, cw * 0.22);
  const dl = Math.hypot(x2 - cx, y2 - cy) || 1;
  const [ux, uy] = [(x2 - cx) / dl, (y2 - cy) / dl];
  const [bx, by] = [x2 - ux * hl, y2 - uy * hl];
  const [px, py] = [-uy * hl * 0.55, ux * hl * 0.55];
  head.setAttribute("d", `M${x2.toFixed(1)},${y2.toFixed(1)} L${(bx + px).toFixed(1)},${(by + py).toFixed(1)} L${(bx - px).toFixed(1)},${(by - py).toFixed(1)} Z`);
  svg.style.setProperty("--hint-w", `${Math.max(3, cw * 0.06)}px`);
  svg.classList.add("show");
  withWords((w) => {
    if (!app.hintOn) return;
    box.textContent = w.hint;
    box.hidden = false;
  });
}
