// Card art: our own SVG, drawn here (see ../LICENSE-art.md).
//
// The faces live once in a hidden SVG sprite as <symbol>s (one per rank and suit, for
// the current language's indices); every card on the table is a tiny <svg><use/></svg>
// pointing at its symbol, so 104 cards cost a few hundred DOM nodes, and switching the
// language re-draws the sprite and with it every card at once.

const NS = "http://www.w3.org/2000/svg";
export const W = 200;
export const H = 280;

export const SUITS = ["c", "d", "h", "s"];
export const RED = { c: false, d: true, h: true, s: false };
export const RANKS = {
  en: ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
  ru: ["Т", "2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К"],
};
export const SUIT_GLYPH = { c: "♣", d: "♦", h: "♥", s: "♠" };

const INK = { red: "#c8102e", black: "#1b1b22" };

// Suit shapes in a 100×100 box, centred at (50, 50).
const SUIT_SHAPE = {
  h: `<path d="M50 92 C 44 84, 30 72, 16 58 C 2 44, 2 22, 18 12 C 32 4, 46 12, 50 26 C 54 12, 68 4, 82 12 C 98 22, 98 44, 84 58 C 70 72, 56 84, 50 92 Z"/>`,
  d: `<path d="M50 2 Q 66 28, 88 50 Q 66 72, 50 98 Q 34 72, 12 50 Q 34 28, 50 2 Z"/>`,
  s: `<path d="M50 4 C 56 18, 72 30, 86 44 C 100 58, 96 80, 78 84 C 66 86, 58 80, 54 72 C 55 84, 60 92, 70 97 L 30 97 C 40 92, 45 84, 46 72 C 42 80, 34 86, 22 84 C 4 80, 0 58, 14 44 C 28 30, 44 18, 50 4 Z"/>`,
  c: `<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/>` +
    `<path d="M44 40 L56 40 L56 62 C 56 80, 60 90, 70 97 L 30 97 C 40 90, 44 80, 44 62 Z"/>`,
};

// Pip centres for 2…10 on the 200×280 face (x, y); pips below the middle are drawn
// upside down, as on real cards.
const L = 58, M = 100, R = 142;
const T = 62, B = 218, C = 140;
const PIPS = {
  2: [[M, T], [M, B]],
  3: [[M, T], [M, C], [M, B]],
  4: [[L, T], [R, T], [L, B], [R, B]],
  5: [[L, T], [R, T], [M, C], [L, B], [R, B]],
  6: [[L, T], [R, T], [L, C], [R, C], [L, B], [R, B]],
  7: [[L, T], [R, T], [M, 101], [L, C], [R, C], [L, B], [R, B]],
  8: [[L, T], [R, T], [M, 101], [L, C], [R, C], [M, 179], [L, B], [R, B]],
  9: [[L, T], [R, T], [L, 114], [R, 114], [M, C], [L, 166], [R, 166], [L, B], [R, B]],
  10: [[L, T], [R, T], [M, 88], [L, 114], [R, 114], [L, 166], [R, 166], [M, 192], [L, B], [R, B]],
};

function suitUse(suit, cx, cy, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 ${cx} ${cy})` : "";
  return `<use href="#suit-${suit}" transform="${rot} translate(${cx - size / 2} ${cy - size / 2}) scale(${s})"/>`;
}

function corner(label, suit) {
  // Index: rank over suit, top-left; the same turned round, bottom-right.
  const narrow = label.length > 1;
  const idx =
    `<text x="24" y="44" text-anchor="middle" font-size="${narrow ? 36 : 40}" ` +
    `${narrow ? 'letter-spacing="-3" ' : ""}font-weight="700" ` +
    `font-family="Georgia, 'DejaVu Serif', 'Times New Roman', serif">${label}</text>` +
    suitUse(suit, 24, 66, 26);
  return `<g class="idx">${idx}</g><g transform="rotate(180 100 140)">${idx}</g>`;
}

// Court figures: a framed panel with a double-headed stylised figure (our own design).
function courtFigure(rank, suit, red) {
  const robe = red ? "#b3132b" : "#1f2f5c";
  const robe2 = red ? "#1f2f5c" : "#b3132b";
  const gold = "#d9a520";
  const skin = "#f4d7b5";
  const hair = rank === 12 ? "#8a4b17" : "#3b2a1a";
  let headwear;
  if (rank === 13) {
    // King: a three-pointed crown with jewels, and a beard.
    headwear =
      `<path d="M70 62 L74 34 L86 50 L100 28 L114 50 L126 34 L130 62 Z" fill="${gold}" stroke="#7a5a10" stroke-width="2"/>` +
      `<circle cx="100" cy="38" r="4" fill="${robe2}"/><circle cx="80" cy="52" r="3" fill="${robe}"/><circle cx="120" cy="52" r="3" fill="${robe}"/>`;
  } else if (rank === 12) {
    // Queen: a rounded tiara with a flower.
    headwear =
      `<path d="M72 62 Q 74 40, 100 36 Q 126 40, 128 62 Z" fill="${gold}" stroke="#7a5a10" stroke-width="2"/>` +
      `<circle cx="100" cy="44" r="7" fill="${robe}"/><circle cx="100" cy="44" r="3" fill="#fff3c4"/>`;
  } else {
    // Jack: a cap with a feather.
    headwear =
      `<path d="M70 64 Q 72 42, 100 40 Q 126 42, 130 64 Z" fill="${robe2}" stroke="#111" stroke-width="1.5"/>` +
      `<path d="M118 46 Q 140 22, 150 30 Q 138 36, 124 52 Z" fill="${gold}" stroke="#7a5a10" stroke-width="1.5"/>`;
  }
  const face =
    `<path d="M76 66 Q 76 96, 100 100 Q 124 96, 124 66 Z" fill="${skin}" stroke="#6b4a2a" stroke-width="1.5"/>` +
    `<path d="M76 66 Q 70 80, 74 92 L 80 72 Z M124 66 Q 130 80, 126 92 L 120 72 Z" fill="${hair}"/>` +
    `<circle cx="90" cy="78" r="2.4" fill="#222"/><circle cx="110" cy="78" r="2.4" fill="#222"/>` +
    `<path d="M93 90 Q 100 94, 107 90" stroke="#8a3a2a" stroke-width="2" fill="none"/>` +
    (rank === 13 ? `<path d="M80 88 Q 100 116, 120 88 Q 112 100, 100 102 Q 88 100, 80 88 Z" fill="${hair}"/>` : "");
  const body =
    `<path d="M52 140 Q 56 108, 80 102 L 100 112 L 120 102 Q 144 108, 148 140 Z" fill="${robe}" stroke="#111" stroke-width="1.5"/>` +
    `<path d="M80 102 L 100 112 L 120 102 L 112 140 L 88 140 Z" fill="${gold}" stroke="#7a5a10" stroke-width="1.2"/>` +
    `<path d="M92 116 L108 116 M90 126 L110 126" stroke="${robe2}" stroke-width="3"/>` +
    suitUse(suit, 66, 126, 18) +
    (rank === 13
      ? `<path d="M138 140 L 138 86" stroke="#555" stroke-width="4"/><path d="M130 92 L146 92" stroke="${gold}" stroke-width="4"/>`
      : rank === 12
        ? `<path d="M134 140 Q 130 118, 138 106" stroke="#2f6b2f" stroke-width="3" fill="none"/><circle cx="138" cy="102" r="7" fill="${robe2}"/><circle cx="138" cy="102" r="3" fill="${gold}"/>`
        : `<path d="M140 140 L 140 70" stroke="#6b4a2a" stroke-width="3"/><path d="M134 80 L140 64 L146 80 Z" fill="#888" stroke="#333"/>`);
  const half = `<g>${body}${face}${headwear}</g>`;
  return (
    `<rect x="38" y="34" width="124" height="212" rx="6" fill="#fbf6e6" stroke="${gold}" stroke-width="3"/>` +
    `<clipPath id="cp-${rank}-${suit}"><rect x="40" y="36" width="120" height="208" rx="5"/></clipPath>` +
    `<g clip-path="url(#cp-${rank}-${suit})">${half}<g transform="rotate(180 100 140)">${half}</g></g>` +
    `<path d="M40 140 L160 140" stroke="${gold}" stroke-width="2"/>` +
    `<rect x="38" y="34" width="124" height="212" rx="6" fill="none" stroke="#333" stroke-width="1"/>`
  );
}

function faceSymbol(rank, suit, lang) {
  const red = RED[suit];
  const ink = red ? INK.red : INK.black;
  const label = RANKS[lang][rank - 1];
  let middle;
  if (rank === 1) {
    // Ace: one large pip with a fine outline ring.
    middle =
      `<circle cx="100" cy="140" r="58" fill="none" stroke="${ink}" stroke-opacity="0.18" stroke-width="2"/>` +
      suitUse(suit, 100, 140, suit === "s" ? 84 : 74);
  } else if (rank <= 10) {
    const size = rank >= 9 ? 36 : 40;
    middle = PIPS[rank].map(([x, y]) => suitUse(suit, x, y, size, y > C)).join("");
  } else {
    middle = courtFigure(rank, suit, red);
  }
  return (
    `<symbol id="face-${rank}${suit}" viewBox="0 0 ${W} ${H}">` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fffdf7" stroke="#b9b2a0" stroke-width="1.5"/>` +
    `<g fill="${ink}">${middle}${corner(label, suit)}</g>` +
    `</symbol>`
  );
}

function backSymbol(deck) {
  // Deck 1: burgundy; deck 2: dark blue. A lattice, a border and a central medallion.
  const [base, line, accent] = deck === 1 ? ["#7b1e2e", "#a8475a", "#e9c46a"] : ["#1b2f5e", "#4563a3", "#cfd8f0"];
  return (
    `<pattern id="lat-${deck}" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="16" height="16" fill="${base}"/><path d="M0 8 H16 M8 0 V16" stroke="${line}" stroke-width="2"/>` +
    `<circle cx="8" cy="8" r="2" fill="${accent}" fill-opacity="0.55"/></pattern>` +
    `<symbol id="back-${deck}" viewBox="0 0 ${W} ${H}">` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fffdf7" stroke="#b9b2a0" stroke-width="1.5"/>` +
    `<rect x="12" y="12" width="${W - 24}" height="${H - 24}" rx="8" fill="url(#lat-${deck})" stroke="${accent}" stroke-width="2"/>` +
    `<rect x="20" y="20" width="${W - 40}" height="${H - 40}" rx="5" fill="none" stroke="${accent}" stroke-opacity="0.6" stroke-width="1.5"/>` +
    `<g transform="translate(100 140)"><path d="M0 -46 L34 0 L0 46 L-34 0 Z" fill="${base}" stroke="${accent}" stroke-width="3"/>` +
    `<path d="M0 -30 L22 0 L0 30 L-22 0 Z" fill="${accent}" fill-opacity="0.85"/>` +
    `<circle r="8" fill="${base}"/></g>` +
    `</symbol>`
  );
}

/** (Re)build the sprite of suits, faces and backs for ``lang`` ("ru" | "en"). */
export function buildSprite(lang) {
  let sprite = document.getElementById("card-sprite");
  if (!sprite) {
    sprite = document.createElementNS(NS, "svg");
    sprite.id = "card-sprite";
    sprite.setAttribute("aria-hidden", "true");
    sprite.setAttribute("style", "position:absolute;width:0;height:0;overflow:hidden");
    document.body.prepend(sprite);
  }
  let defs = "";
  for (const s of SUITS) defs += `<symbol id="suit-${s}" viewBox="0 0 100 100">${SUIT_SHAPE[s]}</symbol>`;
  for (const s of SUITS) for (let r = 1; r <= 13; r++) defs += faceSymbol(r, s, lang);
  defs += backSymbol(1) + backSymbol(2);
  sprite.innerHTML = `<defs>${defs}</defs>`;
}

/** A stand-alone face as SVG markup (used in dialogs and tests). */
export function faceSvg(rank, suit, cls = "") {
  return `<svg class="${cls}" viewBox="0 0 ${W} ${H}"><use href="#face-${rank}${suit}"/></svg>`;
}

export function suitSvg(suit, cls = "") {
  return `<svg class="${cls} suit-${RED[suit] ? "red" : "black"}" viewBox="0 0 100 100"><use href="#suit-${suit}"/></svg>`;
}

/** The DOM element of one card on the table: a flipper with a front and a back. */
export function makeCardElement() {
  const el = document.createElement("div");
  el.className = "card down";
  el.innerHTML =
    `<div class="flipper"><svg class="face front" viewBox="0 0 ${W} ${H}" aria-hidden="true"><use/></svg>` +
    `<svg class="face back" viewBox="0 0 ${W} ${H}" aria-hidden="true"><use href="#back-1"/></svg></div>`;
  el.cardId = null;
  el.deck = 1;
  return el;
}

/** Show ``card`` (a server Card, or null for an unknown face-down card) on ``el``. */
export function bindCard(el, card, deck) {
  const front = el.querySelector(".front use");
  const back = el.querySelector(".back use");
  if (card) {
    el.cardId = card.id;
    el.card = card;
    el.deck = card.deck;
    el.dataset.card = card.symbol + (card.deck === 2 ? "2" : "");
    front.setAttribute("href", `#face-${card.rank}${card.suit}`);
  } else {
    el.cardId = null;
    el.card = null;
    el.deck = deck;
    delete el.dataset.card;
    front.removeAttribute("href");
  }
  back.setAttribute("href", `#back-${el.deck}`);
}
