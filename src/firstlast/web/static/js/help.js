// The rules help: our plain-words rules (help/rules-<lang>.html), the keys, and the
// book's original Russian text (help/seed-ru.txt), shown in a dialog with tabs.

import { getLang, t } from "./i18n.js";

const cache = new Map();

async function fetchText(path) {
  if (!cache.has(path)) {
    const res = await fetch(path);
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    cache.set(path, await res.text());
  }
  return cache.get(path);
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

async function show(tab) {
  const body = document.getElementById("help-body");
  for (const b of document.querySelectorAll("#dlg-help [role=tab]")) {
    b.setAttribute("aria-selected", String(b.dataset.tab === tab));
  }
  try {
    if (tab === "rules") {
      // Our own, trusted file shipped with the package.
      body.innerHTML = await fetchText(`/static/help/rules-${getLang()}.html`);
    } else if (tab === "keys") {
      body.innerHTML =
        `<table class="keys">` +
        t("keys").map(([k, d]) => `<tr><th><kbd>${escapeHtml(k)}</kbd></th><td>${escapeHtml(d)}</td></tr>`).join("") +
        `</table>`;
    } else {
      const text = await fetchText("/static/help/seed-ru.txt");
      const raw = text.split(/\n[^\S\n]*\n/).filter((p) => p.trim());
      // The text as reprinted opens with the site's section name ("Библиотека"); the
      // patience's title is the line centred with spaces. Start the page at the title.
      let first = raw.findIndex((p) => /^\n*[^\S\n]{8,}\S/.test(p));
      if (first < 0) first = 0;
      const paras = raw.slice(first).map((p) => p.trim());
      body.innerHTML = `<div class="book" lang="ru">${paras.map((p, i) => (i === 0 ? `<h3>${escapeHtml(p)}</h3>` : `<p>${escapeHtml(p)}</p>`)).join("")}</div>`;
    }
  } catch (err) {
    body.textContent = String(err.message || err);
  }
  body.scrollTop = 0;
}

let wired = false;

export function openHelp(tab = "rules") {
  const dlg = document.getElementById("dlg-help");
  if (!wired) {
    wired = true;
    for (const b of dlg.querySelectorAll("[role=tab]")) b.addEventListener("click", () => show(b.dataset.tab));
  }
  show(tab);
  if (!dlg.open) dlg.showModal();
}
