// The rules help: the server's help page in the player's language (GET /help/{lang},
// rendered from i18n/help-<lang>.md, no script, no style), the keys (from the catalog)
// and the book's original Russian text (/book.txt, firstlast/i18n/seed-ru.txt), in a dialog with tabs. The
// text scrolls by keyboard: its box takes the focus.

import { getLang, keyTable } from "./i18n.js";
import { $, $dialog } from "./store.js";
import { arrowTabs, selectTab } from "./tabs.js";
import { send } from "./transport.js";

/** @type {Map<string, string>} */
const cache = new Map();

/** A text the server ships, fetched once. @param {string} path @returns {Promise<string>} */
async function fetchText(path) {
  let text = cache.get(path);
  if (text === undefined) {
    const res = await send(path, { credentials: "same-origin" });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    text = await res.text();
    cache.set(path, text);
  }
  return text;
}

/** @type {Record<string, string>} */
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** @param {string} s */
export function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ENTITIES[c]);
}

let shown = "rules";
/** Which draw of the help's body is the latest: a text fetched for an earlier one (the
 * rules asked for, then the keys tab chosen before they came) must not replace it. */
let drawing = 0;

/** @param {string} tab rules, keys or book */
async function show(tab) {
  shown = tab;
  const mine = ++drawing;
  const body = $("#help-body");
  const list = $("#dlg-help [role=tablist]");
  const chosen = /** @type {HTMLElement | null} */ (list.querySelector(`[data-tab="${tab}"]`));
  if (chosen) selectTab(list, chosen, body);
  /** @type {string} */
  let html;
  try {
    if (tab === "rules") {
      // The server's own fragment: rendered from our Markdown with raw HTML escaped.
      html = await fetchText(`/help/${getLang()}`);
    } else if (tab === "keys") {
      html =
        `<table class="keys">` +
        keyTable().map(([k, d]) => `<tr><th scope="row"><kbd>${escapeHtml(k)}</kbd></th><td>${escapeHtml(d)}</td></tr>`).join("") +
        `</table>`;
    } else {
      // The title, then the paragraphs, one blank line apart (i18n.book_text).
      const paras = (await fetchText("/book.txt")).trim().split("\n\n");
      html = `<div class="book" lang="ru">${paras.map((p, i) => (i === 0 ? `<h3>${escapeHtml(p)}</h3>` : `<p>${escapeHtml(p)}</p>`)).join("")}</div>`;
    }
  } catch (err) {
    html = escapeHtml(String(err instanceof Error ? err.message : err));
  }
  if (mine !== drawing) return;
  body.innerHTML = html;
  body.scrollTop = 0;
}

/** The help, if open, again in the language just chosen. */
export function retranslateHelp() {
  if ($dialog("#dlg-help").open) show(shown);
}

let wired = false;

/** Open the help on ``tab`` (rules, keys or book). @param {string} [tab] */
export function openHelp(tab = "rules") {
  const dlg = $dialog("#dlg-help");
  if (!wired) {
    wired = true;
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (dlg.querySelectorAll("[role=tab]"))) {
      b.addEventListener("click", () => show(b.dataset.tab || "rules"));
    }
    arrowTabs($("#dlg-help [role=tablist]"), (b) => show(b.dataset.tab || "rules"));
  }
  show(tab);
  if (!dlg.open) dlg.showModal();
}
