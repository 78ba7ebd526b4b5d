// What the table shows besides the cards: the piles' pills, the stock's count, the
// status bar, the buttons' states, the hint, the end of a game (a banner on the table
// that says won or lost and reopens the end panel; the win's wave, played on the table
// before the panel covers it; the panel with the story of the game) and the toast.

import { api } from "./api.js";
import { board } from "./board.js";
import { cascade, stopCelebration } from "./celebrate.js";
import { needText, passText, redealsLeftText, scoreText, sentence } from "./format.js";
import { drawHint } from "./guide.js";
import { getLang, rankChar, t, variantLabel } from "./i18n.js";
import { hintPlace } from "./model.js";
import { flyTime, landed, reducedMotion } from "./motion.js";
import { keepRecords, newsOf, showEndNews } from "./news.js";
import { $, $button, announce, app } from "./store.js";
import { showStory } from "./story.js";
import { chosen, withWords } from "./tablewords.js";

/** @param {HTMLElement} el @param {string} sel */
const part = (el, sel) => /** @type {HTMLElement} */ (el.querySelector(sel));

/** Show app.state: everything but the cards' places (board.js). */
export function render() {
  const s = app.state;
  if (!s) return;
  const active = s.active;
  for (let k = 0; k < 8; k++) {
    const pile = app.slots[`P${k + 1}`];
    const n = s.piles[k].length;
    pile.classList.toggle("active", active === k);
    pile.classList.toggle("done", n === 13);
    pile.style.setProperty("--depth", String(Math.max(0, n - 1)));
    const pill = part(pile, ".pill");
    // The cards on the pile; what it needs is the centre panel's (one fact once).
    pill.textContent = n || active === k ? `${n}/13` : "";
    app.slots[`F${k + 1}`].classList.toggle("active", active === k);
  }
  app.slots.F8.classList.toggle("privileged", s.privileged === "F8");
  part(app.slots.F8, ".tag").innerHTML = s.privileged === "F8" ? `★<span> ${t("privileged")}</span>` : "";
  for (const el of app.els) el.classList.toggle("privileged", s.privileged === "F8" && el.place === "F8");
  const stock = app.slots.stock;
  stock.classList.toggle("empty", s.stock_count === 0);
  stock.classList.toggle("can-redeal", s.stock_count === 0 && s.legal_moves.includes("redeal"));
  part(stock, ".stock-count").textContent = s.stock_count ? String(s.stock_count) : "";
  stock.setAttribute("aria-label", s.stock_count ? t("stock_label", { n: s.stock_count }) : t("stock_redeal"));
  part(app.slots.waste, ".stock-count").textContent = s.waste.length ? String(s.waste.length) : "";
  // Status bar.
  $("#s-deal").textContent = `${t("deal_n", { n: s.deal })} · ${variantLabel(s.variant)}`;
  $("#s-need").textContent = needText(s);
  const pass = passText(s);
  const left = redealsLeftText(s.redeals_left);
  $("#s-pass").textContent = left ? `${pass} · ${left}` : pass; // said here only
  $("#s-score").textContent = scoreText(s);
  for (const id of ["#s-pass", "#s-score"]) steady($(id), s.id);
  // The centre panel: what the active pile needs, large (the status bar says the passes).
  if (app.info) {
    part(app.info, ".need-caption").textContent = active === null ? "" : `P${active + 1}`;
    part(app.info, ".need-rank").textContent = active === null ? "✓" : rankChar(/** @type {number} */ (s.need));
  }
  // Buttons.
  const replaying = !!app.replay;
  $button("#b-undo").disabled = replaying || !s.can_undo;
  $button("#b-redo").disabled = replaying || !s.can_redo;
  const over = s.status !== "playing";
  // Finish, like the other forced-line buttons, does nothing in a replay or after the end.
  for (const id of ["#b-hint", "#b-step", "#b-advance", "#b-finish"]) $button(id).disabled = replaying || over;
  $button("#b-auto").disabled = replaying || over;
  $button("#b-restart").disabled = replaying || !s.can_undo;
  for (const id of ["#b-new", "#b-deal"]) $button(id).disabled = replaying;
  document.body.dataset.status = s.status;
  showHint(app.hintOn);
  showBanner(over && !replaying ? s : null);
  if (over && !replaying && app.endShownFor !== `${s.id}:${s.moves}`) {
    app.endShownFor = `${s.id}:${s.moves}`;
    // A game that was already over when the page loaded is shown quietly (issue 26: a
    // reload re-opened the panel over the player's click): its banner reopens the panel.
    if (!app.quietEnd) endOfGame(s);
  }
  app.quietEnd = false;
  if (!over) hideEnding();
}

/** Keep room in a status chip whose words grow during a game (the score's and the moves'
 * digits, the passes), so that the status bar never gains a row and moves the table
 * (issue 26): a game's first figures get the room of four more characters, and the chip
 * never shrinks within the game (at this width and in this language).
 * @param {HTMLElement} el @param {string} game */
function steady(el, game) {
  const key = `${game}:${getLang()}:${innerWidth}`;
  const fresh = el.dataset.steady !== key;
  if (fresh) {
    el.dataset.steady = key;
    el.style.minWidth = "";
  }
  const width = el.getBoundingClientRect().width;
  if (fresh) el.style.minWidth = `min(100%, calc(${width}px + 4ch))`;
  else if (width > Number(el.dataset.widest)) el.style.minWidth = `min(100%, ${width}px)`;
  if (fresh || width > Number(el.dataset.widest)) el.dataset.widest = String(width);
}

/** A game just ended on the table: a won game's celebration first (the cascade of
 * bouncing cards, celebrate.js: a tap or Escape skips it), then the panel (at once
 * without animation, or where the player asks for less motion: the still panel).
 * @param {import("./api-types").GameState} s */
function endOfGame(s) {
  const still = () => app.state === s && !app.replay;
  // The last cards of Auto or Finish land first.
  landed().then(() => { if (still()) endNow(s, still); });
}

/** @param {import("./api-types").GameState} s @param {() => boolean} still */
function endNow(s, still) {
  if (s.status === "won" && app.speed > 0 && !reducedMotion()) {
    document.body.classList.add("celebrating");
    cascade().then(() => {
      document.body.classList.remove("celebrating");
      if (still()) showEnding();
    });
    return;
  }
  setTimeout(() => { if (still()) showEnding(); }, flyTime() ? 350 : 0);
}

/** The banner on the table of a finished game: won or lost, the score, and a button
 * that opens the end panel again. Hidden (``s`` null) while a game is under way.
 * @param {import("./api-types").GameState | null} s */
function showBanner(s) {
  let banner = document.getElementById("end-banner");
  if (!s) {
    if (banner) banner.hidden = true;
    return;
  }
  if (!banner) {
    // A titled section, its parts apart for the ear ("It did not come out", "52 of 104
    // cards on the piles", the button), not one run of text.
    banner = document.createElement("section");
    banner.id = "end-banner";
    banner.setAttribute("aria-labelledby", "end-banner-title");
    banner.innerHTML = '<h2 id="end-banner-title" class="end-banner-title"></h2>' +
      '<p class="end-banner-score"><span class="end-banner-figure" aria-hidden="true"></span><span class="sr-only"></span></p>' +
      '<button type="button" class="end-banner-open"></button>';
    /** @type {HTMLElement} */ (banner.querySelector("button")).addEventListener("click", () => showEnding());
    // In the status bar, never over the table: on a short screen it covered the reserve
    // (the table makes room: board.js fit).
    $("#statusbar").append(banner);
  }
  banner.dataset.result = s.status;
  part(banner, ".end-banner-title").textContent = s.status === "won" ? t("won_title") : t("lost_title");
  part(banner, ".end-banner-figure").textContent = `${s.score}/104`;
  part(banner, ".end-banner-score .sr-only").textContent = t("end_banner.score", { n: s.score });
  part(banner, ".end-banner-open").textContent = t("story.reopen");
  banner.hidden = false;
}

/** The hint key and button: mark the card the forced line moves next (or stop), and say
 * the move in words ("Hint: play the king of hearts from reserve 2 onto pile 1"). */
export function toggleHint() {
  showHint(!app.hintOn);
  if (!app.state) return;
  if (app.hintOn || app.state.status !== "playing") withWords((w) => announce(chosen(w, "hint")));
  else announce(t("say.hint.off"));
}

/** Mark (or stop marking) the card the forced line moves next: the card pulses, an
 * arrow goes from it to where it goes, and the hint's words show (guide.js).
 * @param {boolean} on */
export function showHint(on) {
  app.hintOn = on;
  $("#b-hint").setAttribute("aria-pressed", String(!!on));
  for (const el of board.querySelectorAll(".hint")) el.classList.remove("hint");
  const place = on && app.state && app.state.status === "playing" && !app.replay ? hintPlace(app.state.hint) : null;
  drawHint(place && app.state ? app.state.hint : null);
  if (!place) return;
  const list = app.model[place] || [];
  if (list.length === 0) app.slots[place].classList.add("hint");
  else list[list.length - 1].classList.add("hint");
}

/** The end-of-game panel, for a finished game on the table; drawn afresh when open
 * already (a new language), then ``focus: false`` leaves the player's focus where it is.
 * @param {{focus?: boolean}} [opts] */
export function showEnding({ focus = true } = {}) {
  const s = app.state;
  if (!s || s.status === "playing" || app.replay) return;
  const won = s.status === "won";
  $("#end-title").textContent = won ? t("won_title") : t("lost_title");
  $("#end-text").textContent = won ? t("won_text") : lostWords(s.score);
  $("#end-score").textContent = String(s.score);
  $("#end-meta").textContent = `${t("deal_n", { n: s.deal })} · ${variantLabel(s.variant)} · ${t("passes_used", { n: s.passes })}`;
  const news = showEndNews(s); // a new record, the wish (news.js)
  if (!newsOf(s.id).length && s.result && s.origin === "played") {
    // Shown again (after a reload, say): the records it set, asked of the server.
    api.records(s.id).then((r) => {
      if (!r.records.length || !app.state || app.state.id !== s.id || $("#ending").hidden) return;
      keepRecords(s.id, r.records);
      showEndNews(app.state);
    }).catch(() => {});
  }
  const box = $("#ending");
  box.dataset.result = s.status;
  box.hidden = false;
  requestAnimationFrame(() => box.classList.add("show"));
  if (focus) {
    $("#end-again").focus();
    // Said in the panel's own live region (the table behind is hidden from the ear).
    announce(`${t("say.end", { title: $("#end-title").textContent, text: $("#end-text").textContent })}${news ? ` ${news}` : ""}`, 150);
  }
  // The story of the game: "computing…" now, the curve and the sentences when told.
  showStory($("#end-story"), s.id, s.moves, { prefix: "end-story", ended: true });
}

/** A lost game's words, kind and encouraging: how close it came (the story below says
 * what would have brought it out). @param {number} score cards on the piles */
export function lostWords(score) {
  if (score >= 96) return t("lost_kind.close", { left: 104 - score });
  return t(score > 52 ? "lost_kind.good" : "lost_kind.hard", { n: score });
}

export function hideEnding() {
  stopCelebration();
  const box = $("#ending");
  box.classList.remove("show");
  box.hidden = true;
}

let toastTimer = 0;

/** A short message over the table; longer texts stay longer.
 * @param {string} text @param {"info" | "error"} [kind] */
export function toast(text, kind = "info") {
  const box = $("#toast");
  // Over an open dialog the toast must be in the dialog (the top layer), not under its backdrop.
  const host = document.querySelector("dialog[open]") || $("#main");
  if (box.parentElement !== host) host.append(box);
  text = sentence(text, getLang()); // a refusal reads "a card that fits…" inside a sentence
  box.textContent = text;
  box.dataset.kind = kind;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), Math.max(2600, text.length * 60));
}
