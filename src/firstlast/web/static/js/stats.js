// Statistics per variant (GET /api/stats), the score histogram drawn here in SVG, and
// the history of finished games with replay, export and import.

import { api, errorText } from "./api.js";
import { wireBackup } from "./backup.js";
import { dateLocale, getLang, t, variantFromToken, variantLabel } from "./i18n.js";
import { $, $dialog, $input, announce, onFileText, saveFile } from "./store.js";
import { DECK_SIZE, SCORE_BIN } from "./vocabulary.js";

/** @typedef {import("./api-types").Stats} Stats */

/**
 * What the dialog asks of the table.
 * @typedef {object} StatsContext
 * @property {(id: string) => void} replay replay a finished game
 * @property {(id: string) => void} reopen put an unfinished game back on the table
 * @property {(text: string, kind?: "info" | "error") => void} toast
 * @property {string | null | undefined} variant the table's variant token: its tab opens first
 * @property {string | null | undefined} current the game on the table (not listed to reopen)
 * @property {boolean} [keepTab] set after the first load: a reload (after an import) keeps the tab
 */

// The server describes a variant in English: name it in the page's language instead,
// from its fields (variant_label.*), never from that description.
/** @param {string} token */
function variantName(token) {
  const v = variantFromToken(token);
  return v ? variantLabel(v) : token;
}

const SVG = "http://www.w3.org/2000/svg";
/** @type {StatsContext} */
let ctx = { replay: () => {}, reopen: () => {}, toast: () => {}, variant: null, current: null };
let selected = 0;
/** @type {Stats[]} */
let variants = [];

/** A number in the page's language (a decimal comma in Russian), with at most
 * ``decimals`` decimals (exactly that many when ``fixed``).
 * @param {number} x @param {number} decimals @param {boolean} [fixed] */
function num(x, decimals, fixed = false) {
  return new Intl.NumberFormat(getLang(), { minimumFractionDigits: fixed ? decimals : 0, maximumFractionDigits: decimals }).format(x);
}

/** A share as a percentage, in the catalog's style ("37,5 %"). @param {number} x 0…1 */
function pct(x) {
  return t("percent", { p: num(x * 100, 1) });
}

/** Score histogram: 105 bins (0…104) grouped into bins of SCORE_BIN cards, the win bin apart.
 * Drawn at ``width`` CSS pixels (its units are pixels), so that its words are 12 px on
 * the screen however narrow the dialog (a phone): the bins' names turn aslant where
 * they do not fit across, and a count with no room above its bar is left to the bar's
 * tooltip (its <title>), never drawn over its neighbour's.
 * @param {number[]} hist games by score @param {number} [width] the width it is drawn at */
export function histogramSvg(hist, width = 560) {
  const groups = [];
  for (let lo = 0; lo < DECK_SIZE; lo += SCORE_BIN) {
    const hi = Math.min(DECK_SIZE - 1, lo + SCORE_BIN - 1);
    let n = 0;
    for (let s = lo; s <= hi; s++) n += hist[s] || 0;
    groups.push({ label: `${lo}–${hi}`, n, win: false });
  }
  groups.push({ label: String(DECK_SIZE), n: hist[DECK_SIZE] || 0, win: true });
  // Whole-number grid lines: the axis runs to a multiple of 4 steps.
  const step = Math.max(1, Math.ceil(Math.max(1, ...groups.map((g) => g.n)) / 4));
  const max = step * 4;
  const FONT = 12; // px: the smallest text the page draws
  const charW = FONT * 0.62; // the page's sans-serif digits, generously
  const w = Math.max(240, Math.round(width));
  const padL = Math.max(34, Math.ceil(String(max).length * charW) + 10);
  const bw = (w - padL - 8) / groups.length;
  // The longest bin name ("96–103") across, or aslant (at 45°) where it does not fit.
  const across = 6 * charW <= bw - 2;
  const padB = across ? 34 : Math.ceil(6 * charW * Math.SQRT1_2 + FONT) + 12;
  const padT = 18;
  const h = Math.max(200, padT + padB + 140);
  let out = `<svg class="hist" viewBox="0 0 ${w} ${h}" role="img" aria-label="${t("st_hist")}" xmlns="${SVG}"` +
    ` data-across="${across}">`;
  // Grid lines at quarters of the maximum.
  for (let q = 0; q <= 4; q++) {
    const y = padT + (h - padT - padB) * (1 - q / 4);
    const v = step * q;
    out += `<line x1="${padL}" x2="${w - 4}" y1="${y}" y2="${y}" class="grid"/>`;
    out += `<text x="${padL - 6}" y="${y + 4}" text-anchor="end" class="axis">${v}</text>`;
  }
  groups.forEach((g, i) => {
    const bh = ((h - padT - padB) * g.n) / max;
    const x = padL + i * bw + 3;
    const y = h - padB - bh;
    const cx = Math.round((x + (bw - 6) / 2) * 10) / 10;
    out += `<rect x="${x}" y="${y}" width="${bw - 6}" height="${Math.max(0, bh)}" rx="3" class="${g.win ? "bar win" : "bar"}"><title>${g.label}: ${g.n}</title></rect>`;
    if (g.n && String(g.n).length * charW <= bw - 2) {
      out += `<text x="${cx}" y="${y - 4}" text-anchor="middle" class="count">${g.n}</text>`;
    }
    const ly = h - padB + 16;
    out += across
      ? `<text x="${cx}" y="${ly}" text-anchor="middle" class="axis small">${g.label}</text>`
      : `<text x="${cx + 4}" y="${ly - 6}" text-anchor="end" transform="rotate(-45 ${cx + 4} ${ly - 6})" class="axis small">${g.label}</text>`;
  });
  out += `</svg>`;
  return out;
}

function renderVariant() {
  const body = $("#st-body");
  const v = variants[selected];
  if (!v) {
    body.innerHTML = `<p class="muted">${t("st_none")}</p>`;
    return;
  }
  const cells = [
    [t("st_played"), v.played], [t("st_won"), v.won], [t("st_lost"), v.lost], [t("st_abandoned"), v.abandoned],
    // Averages over no game are no number.
    [t("st_rate"), v.played ? pct(v.win_rate) : t("st_no_value")],
    [t("st_streak"), v.current_streak], [t("st_best"), v.best_streak],
    [t("st_passes"), v.played ? num(v.average_passes, 2, true) : t("st_no_value")],
  ];
  // Personal records (play.stats): games won, the longest run of wins, the fewest passes
  // to come out, the best score of a lost game.
  const none = t("st_no_value");
  const records = [
    [t("st_won"), v.won], [t("st_best"), v.best_streak],
    [t("st_fewest_passes"), v.fewest_passes ?? none], [t("st_best_lost"), v.best_lost_score ?? none],
  ];
  body.innerHTML =
    `<div class="st-grid">${cells.map(([k, val]) => `<div class="st-cell"><span class="st-val">${val}</span><span class="st-key">${k}</span></div>`).join("")}</div>` +
    `<h3>${t("st_records")}</h3><div class="st-grid st-records">${records.map(([k, val]) => `<div class="st-cell"><span class="st-val">${val}</span><span class="st-key">${k}</span></div>`).join("")}</div>` +
    `<h3>${t("st_hist")}</h3>${histogramSvg(v.score_histogram, body.clientWidth || 560)}`;
}

function renderTabs() {
  const tabs = $("#st-tabs");
  tabs.innerHTML = "";
  variants.forEach((v, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "tab");
    b.setAttribute("aria-selected", String(i === selected));
    b.textContent = variantName(v.variant);
    // Named in the page's language from the token (never the server's English description).
    b.title = variantName(v.variant);
    b.addEventListener("click", () => {
      selected = i;
      renderTabs();
      renderVariant();
    });
    tabs.appendChild(b);
  });
}

/** @param {string | null} iso */
function fmtDate(iso) {
  if (!iso) return "";
  try {
    return new Date(iso).toLocaleString(dateLocale(), { dateStyle: "short", timeStyle: "short" });
  } catch {
    return iso;
  }
}

async function renderHistory() {
  const box = $("#st-history");
  let games = [];
  try {
    games = (await api.games("finished")).games;
  } catch (err) {
    box.textContent = errorText(err);
    return;
  }
  if (!games.length) {
    // Said once: without any game counted, the summary above says it already.
    box.innerHTML = variants.length ? `<p class="muted">${t("st_none")}</p>` : "";
    return;
  }
  const rows = games.map((g) =>
    `<tr data-id="${g.id}"><td>${g.deal}</td><td title="${g.variant}">${variantName(g.variant)}</td><td class="res ${g.status}">${t(g.status)}</td>` +
    `<td>${g.score}</td><td>${fmtDate(g.finished)}</td>` +
    `<td class="acts"><button type="button" class="small replay">${t("replay")}</button>` +
    `<button type="button" class="small export" data-deal="${g.deal}">${t("export")}</button></td></tr>`,
  ).join("");
  box.innerHTML =
    `<table><thead><tr><th>${t("h_deal")}</th><th>${t("rules")}</th><th>${t("h_result")}</th>` +
    `<th>${t("score")}</th><th>${t("h_date")}</th><th><span class="sr-only">${t("h_actions")}</span></th></tr></thead><tbody>${rows}</tbody></table>`;
  for (const b of box.querySelectorAll("button.export")) {
    b.addEventListener("click", async () => {
      const deal = /** @type {HTMLElement} */ (b).dataset.deal || "game";
      try {
        saveFile(`firstlast-${deal}.txt`, await api.record(rowId(b)), "text/plain");
      } catch (err) {
        box.prepend(errorText(err));
      }
    });
  }
  for (const b of box.querySelectorAll("button.replay")) {
    b.addEventListener("click", () => {
      const id = rowId(b);
      $dialog("#dlg-stats").close();
      ctx.replay(id);
    });
  }
}

/** The player's unfinished games (the one on the table and those left for another),
 * each of which can be put back on the table. */
async function renderUnfinished() {
  const box = $("#st-unfinished");
  let games = [];
  try {
    games = (await api.games("unfinished", 20)).games;
  } catch (err) {
    box.textContent = errorText(err);
    return;
  }
  games = games.filter((g) => g.id !== ctx.current);
  if (!games.length) {
    box.innerHTML = "";
    return;
  }
  const rows = games.map((g) =>
    `<tr data-id="${g.id}"><td>${g.deal}</td><td title="${g.variant}">${variantName(g.variant)}</td>` +
    `<td>${g.abandoned ? t("abandoned") : t("playing")}</td><td>${g.score}</td><td>${fmtDate(g.updated)}</td>` +
    `<td class="acts"><button type="button" class="small reopen">${t("reopen")}</button></td></tr>`,
  ).join("");
  box.innerHTML =
    `<h3>${t("unfinished")}</h3><table><thead><tr><th>${t("h_deal")}</th><th>${t("rules")}</th><th>${t("h_result")}</th>` +
    `<th>${t("score")}</th><th>${t("h_updated")}</th><th><span class="sr-only">${t("h_actions")}</span></th></tr></thead><tbody>${rows}</tbody></table>`;
  for (const b of box.querySelectorAll("button.reopen")) {
    b.addEventListener("click", () => {
      const id = rowId(b);
      $dialog("#dlg-stats").close();
      ctx.reopen(id);
    });
  }
}

/** Loads under way (the dialog's opening and an import's may overlap). */
let loading = 0;

/** Fetch and show the numbers, the unfinished games and the history. The dialog is
 * ``aria-busy`` meanwhile (screen readers wait for the whole; tests wait for its end). */
async function load() {
  const dlg = $dialog("#dlg-stats");
  loading += 1;
  dlg.setAttribute("aria-busy", "true");
  try {
    try {
      variants = (await api.stats()).variants;
    } catch {
      variants = [];
    }
    // Open on the rules of the game on the table (a player of one variant sees its
    // numbers, not the canonical tab's zeros); else keep the tab last looked at.
    const current = variants.findIndex((v) => v.variant === ctx.variant);
    if (current >= 0 && !ctx.keepTab) selected = current;
    ctx.keepTab = true;
    selected = Math.min(selected, Math.max(0, variants.length - 1));
    renderTabs();
    renderVariant();
    await renderUnfinished();
    await renderHistory();
  } finally {
    loading -= 1;
    if (!loading) dlg.removeAttribute("aria-busy");
  }
}

/** Say what an import brought, beside the import button, with a button that opens it:
 * a replay of a finished game, or an unfinished one put on the table. Its row in the
 * history is marked. @param {import("./api-types").GameState} game */
function showImported(game) {
  const note = $("#st-note");
  const finished = game.status !== "playing";
  const result = t(finished ? game.status : "playing");
  const said = `${t("imported")} ${t("imported_game", { deal: game.deal, result, score: game.score })}`;
  note.textContent = said;
  // Said through the open dialog's own live region: the note itself is hidden while
  // empty, and a region that was not rendered is not heard when it fills.
  announce(said);
  const open = document.createElement("button");
  open.type = "button";
  open.className = "small";
  open.textContent = t(finished ? "imported_replay" : "imported_open");
  open.addEventListener("click", () => {
    $dialog("#dlg-stats").close();
    if (finished) ctx.replay(game.id);
    else ctx.reopen(game.id);
  });
  note.append(" ", open);
  for (const row of document.querySelectorAll("#st-history tr, #st-unfinished tr")) {
    row.classList.toggle("fresh", /** @type {HTMLElement} */ (row).dataset.id === game.id);
  }
  note.scrollIntoView({ block: "nearest" });
}

/** The game id of a history row's button. @param {Element} b */
function rowId(b) {
  return /** @type {HTMLElement} */ (b.closest("tr")).dataset.id || "";
}

let wired = false;

/** @param {StatsContext} context */
export function openStats(context) {
  ctx = context;
  const dlg = $dialog("#dlg-stats");
  if (!wired) {
    wired = true;
    wireBackup({ toast: (text, kind) => ctx.toast(text, kind), reload: load });
    onFileText($input("#import-file"), async (text) => {
      try {
        const game = await api.importRecord(text);
        await load();
        showImported(game);
      } catch (err) {
        // Say first that nothing was imported, then the server's reason (its words).
        ctx.toast(t("import_bad", { error: errorText(err) }), "error");
      }
    });
  }
  $("#st-note").textContent = "";
  load();
  if (!dlg.open) dlg.showModal();
}
