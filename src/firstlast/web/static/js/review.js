// The table in words, for everyone: the Review button (under the status bar's chips, a
// touch target) and the X key open a dialog with the table summary and, tab by tab,
// each pile's cards in order, the waste top down, and the two rows; 1 … 8 and W choose a
// pile or the waste there. The E key says the summary at once (and shows it); the H key
// says the hint (view.js). The words are the server's (tablewords.js).

import { placeName, t } from "./i18n.js";
import { keyName } from "./keyname.js";
import { $, $dialog, announce, app } from "./store.js";
import { arrowTabs, selectTab } from "./tabs.js";
import { chosen, withWords } from "./tablewords.js";
import { toast } from "./view.js";
import { KEYMAP } from "./vocabulary.js";

/** @typedef {import("./api-types").TableWords} TableWords */

/** The review's tabs: the summary, then the places (the server's order).
 * @param {TableWords} w */
function tabs(w) {
  return ["summary", ...w.reviews.map((r) => r.place)];
}

/** A tab's words. @param {string} id */
function tabLabel(id) {
  if (id === "summary") return t("review.summary");
  if (id === "rows") return t("review.rows");
  if (id === "waste") return t("waste");
  const name = placeName(id);
  return name.charAt(0).toLocaleUpperCase() + name.slice(1);
}

let wired = false;

/** Show tab ``id`` of the review, and say what it shows (the dialog's own live region).
 * @param {string} id */
function show(id) {
  withWords((w) => showWords(w, id));
}

/** @param {TableWords} w @param {string} id */
function showWords(w, id) {
  const list = $("#rv-tabs");
  const body = $("#rv-body");
  const tab = /** @type {HTMLElement | null} */ (list.querySelector(`[data-place="${id}"]`));
  if (tab) selectTab(list, tab, body);
  body.replaceChildren();
  if (id === "summary") {
    const p = document.createElement("p");
    p.textContent = chosen(w, "summary");
    body.append(p);
    announce(p.textContent, 150);
    return;
  }
  const review = w.reviews.find((r) => r.place === id);
  if (!review) return;
  const { title, cards } = review;
  const h = document.createElement("h3");
  h.textContent = title.charAt(0).toLocaleUpperCase() + title.slice(1);
  body.append(h);
  if (cards.length) {
    const ol = document.createElement("ol");
    for (const c of cards) {
      const li = document.createElement("li");
      li.textContent = c;
      ol.append(li);
    }
    body.append(ol);
  }
  announce(review.sentence, 150);
}

/** The tabs, in the page's language (made again on each opening). @param {TableWords} w */
function buildTabs(w) {
  const list = $("#rv-tabs");
  list.replaceChildren();
  for (const id of tabs(w)) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = `rv-tab-${id}`;
    b.setAttribute("role", "tab");
    b.setAttribute("aria-controls", "rv-body");
    b.dataset.place = id;
    b.textContent = tabLabel(id);
    b.addEventListener("click", () => show(id));
    list.append(b);
  }
}

/** Open the review on ``place`` (a pile, the waste, the rows), else on the summary.
 * @param {string} [place] */
export function openReview(place = "summary") {
  withWords((w) => openWith(w, place));
}

/** @param {TableWords} w @param {string} place */
function openWith(w, place) {
  const dlg = $dialog("#dlg-review");
  if (!wired) {
    wired = true;
    arrowTabs($("#rv-tabs"), (tab) => show(tab.dataset.place || "summary"));
    // As on the table: 1 … 8 a pile, W the waste, E the summary.
    dlg.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // The table's keys, either layout, from the one table of keys (vocabulary.js's KEYMAP).
      const k = keyName(e);
      const action = KEYMAP[k];
      const id = action === "reserve" ? `P${k}` : action === "waste" ? "waste" : action === "summary" ? "summary" : null;
      if (!id) return;
      e.preventDefault();
      const tab = /** @type {HTMLElement | null} */ ($("#rv-tabs").querySelector(`[data-place="${id}"]`));
      if (tab) tab.focus();
      show(id);
    });
  }
  buildTabs(w);
  const id = tabs(w).includes(place) ? place : "summary";
  if (!dlg.open) dlg.showModal();
  showWords(w, id);
  const tab = /** @type {HTMLElement | null} */ ($("#rv-tabs").querySelector(`[data-place="${id}"]`));
  if (tab) tab.focus();
}

/** The X key: review the place that has the focus (a pile, the waste), else the pile
 * being built. */
export function reviewHere() {
  const s = app.state;
  if (!s) return;
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  const place = focused && focused.dataset ? focused.dataset.place : undefined;
  if (place && (place[0] === "P" || place === "waste")) openReview(place);
  else openReview(s.active !== null ? `P${s.active + 1}` : "summary");
}

/** The E key: the table summary, said and shown (the toast is said to screen readers). */
export function saySummary() {
  withWords((w) => toast(chosen(w, "summary")));
}
