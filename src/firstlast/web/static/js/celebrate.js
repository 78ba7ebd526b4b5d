// The win's celebration: the classic cascade of bouncing cards. The cards leave the
// eight finished piles one after another, from the top down, and bounce across the
// screen, each leaving its trail, drawn on a canvas by the project (no image is
// fetched: each card is drawn once, rank and suit, and stamped along its path).
// It says itself to screen readers, never takes the focus, and a tap, a click or
// Escape ends it at once; it ends by itself after a few seconds. None under reduced
// motion or with the animation off (the caller checks: view.js).

import { getLang, t } from "./i18n.js";
import { announce, app } from "./store.js";
import { DECK_SIZE, RANK_INDICES, SUIT_GLYPHS } from "./vocabulary.js";

/** How long the cascade plays at most, ms (the panel opens after it). */
export const CELEBRATION_MS = 6500;
/** Between two cards leaving, ms. */
const LAUNCH_MS = 42;
/** How long one card bounces before it goes, ms. */
const LIFE_MS = 2300;
const GRAVITY = 2000; // px/s²
const BOUNCE = 0.72; // of the speed kept at each bounce
const GLYPHS = /** @type {Record<string, string>} */ (SUIT_GLYPHS);

/** A card drawn once, ready to stamp: white, its corner index and its suit in the middle.
 * @param {number} rank @param {string} suit @param {number} w @param {number} h @param {number} scale */
function cardImage(rank, suit, w, h, scale) {
  const c = document.createElement("canvas");
  c.width = Math.ceil(w * scale);
  c.height = Math.ceil(h * scale);
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext("2d"));
  g.scale(scale, scale);
  const r = w * 0.08;
  g.beginPath();
  g.roundRect(0.5, 0.5, w - 1, h - 1, r);
  g.fillStyle = "#fdfbf5";
  g.fill();
  g.lineWidth = 1;
  g.strokeStyle = "#5c5545";
  g.stroke();
  const red = suit === "h" || suit === "d";
  g.fillStyle = red ? "#c0282d" : "#1b1b1f";
  g.textBaseline = "top";
  g.font = `700 ${Math.round(w * 0.26)}px system-ui, sans-serif`;
  g.fillText(RANK_INDICES[getLang()][rank - 1] || "", w * 0.08, h * 0.05);
  g.font = `${Math.round(w * 0.22)}px system-ui, sans-serif`;
  g.fillText(GLYPHS[suit] || "", w * 0.09, h * 0.05 + w * 0.27);
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.font = `${Math.round(w * 0.5)}px system-ui, sans-serif`;
  g.fillText(GLYPHS[suit] || "", w / 2, h * 0.56);
  return c;
}

/** @typedef {{img: HTMLCanvasElement, x: number, y: number, vx: number, vy: number, born: number}} Flyer */

/** The running celebration's stop, if one is on. @type {(() => void) | null} */
let stopNow = null;

/** Whether a celebration is on the screen now. */
export function celebrating() {
  return stopNow !== null;
}

/** End the celebration now (a tap, Escape, a new deal). */
export function stopCelebration() {
  if (stopNow) stopNow();
}

/** Play the cascade of the won table's cards; resolves when it is over (played out or
 * dismissed). Said once to screen readers ("It came out!…"), the focus left where it is.
 * @returns {Promise<void>} */
export function cascade() {
  stopCelebration();
  const W = window.innerWidth;
  const H = window.innerHeight;
  const scale = Math.min(2, window.devicePixelRatio || 1);
  const canvas = document.createElement("canvas");
  canvas.id = "celebration";
  canvas.setAttribute("aria-hidden", "true");
  canvas.width = Math.round(W * scale);
  canvas.height = Math.round(H * scale);
  document.body.append(canvas);
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  g.scale(scale, scale);
  const note = document.createElement("p");
  note.id = "celebration-note";
  note.textContent = t("celebrate.dismiss");
  // In the main landmark (its words are the page's), fixed at the foot of the screen.
  (document.getElementById("main") || document.body).append(note);
  announce(t("celebrate.say"));

  // The cards in the order they leave: the piles' tops, round and round, down to their bases.
  const cw = Math.max(36, Math.min(110, app.cw || 70));
  const ch = cw * 1.4;
  /** @type {{img: HTMLCanvasElement, x: number, y: number}[]} */
  const queue = [];
  const piles = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => (app.model[`P${k}`] || []).slice());
  /** @type {Map<string, HTMLCanvasElement>} */
  const drawn = new Map();
  for (let depth = 0; queue.length < DECK_SIZE && piles.some((p) => p.length); depth++) {
    for (const pile of piles) {
      const el = pile.pop();
      if (!el || !el.card) continue;
      const box = el.getBoundingClientRect();
      const key = `${el.card.rank}${el.card.suit}`;
      let img = drawn.get(key);
      if (!img) {
        img = cardImage(el.card.rank, el.card.suit, cw, ch, scale);
        drawn.set(key, img);
      }
      queue.push({ img, x: box.left + (box.width - cw) / 2, y: box.top + (box.height - ch) / 2 });
    }
  }

  return new Promise((resolve) => {
    /** @type {Flyer[]} */
    const flying = [];
    const start = performance.now();
    let last = start;
    let frame = 0;
    let launched = 0;
    const finish = () => {
      if (stopNow !== finish) return;
      stopNow = null;
      cancelAnimationFrame(frame);
      document.removeEventListener("keydown", onKey, true);
      canvas.removeEventListener("pointerdown", finish);
      canvas.classList.add("gone");
      note.remove();
      setTimeout(() => canvas.remove(), 400);
      resolve();
    };
    /** @param {KeyboardEvent} e */
    const onKey = (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      finish();
    };
    stopNow = finish;
    document.addEventListener("keydown", onKey, true);
    canvas.addEventListener("pointerdown", finish);
    const tick = (/** @type {number} */ now) => {
      const dt = Math.min(0.05, (now - last) / 1000);
      last = now;
      const due = Math.min(queue.length, Math.floor((now - start) / LAUNCH_MS) + 1);
      for (; launched < due; launched++) {
        const q = queue[launched];
        const dir = launched % 2 ? -1 : 1;
        flying.push({ img: q.img, x: q.x, y: q.y, born: now,
          vx: dir * (W / 5 + ((launched * 37) % 100) / 100 * W / 3), vy: -(150 + ((launched * 53) % 100) * 5) });
      }
      for (let i = flying.length - 1; i >= 0; i--) {
        const f = flying[i];
        f.vy += GRAVITY * dt;
        f.x += f.vx * dt;
        f.y += f.vy * dt;
        if (f.y + ch > H) {
          f.y = H - ch;
          f.vy = -f.vy * BOUNCE;
        }
        if (f.x + cw < 0 || f.x > W || now - f.born > LIFE_MS) {
          flying.splice(i, 1);
          continue;
        }
        // Not cleared between frames: each card leaves its trail, as in the classic.
        g.drawImage(f.img, f.x, f.y, cw, ch);
      }
      if ((launched >= queue.length && !flying.length) || now - start > CELEBRATION_MS) finish();
      else frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
  });
}
