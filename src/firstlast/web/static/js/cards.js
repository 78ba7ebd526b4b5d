// Card art: our own SVG, drawn here (see ../LICENSE-art.md).
//
// The faces live once in a hidden SVG sprite as <symbol>s (one per rank and suit, for
// the current language's indices); every card on the table is a tiny <svg><use/></svg>
// pointing at its symbol, so 104 cards cost a few hundred DOM nodes, and switching the
// language re-draws the sprite and with it every card at once.

import { RANK_INDICES } from "./vocabulary.js";

const NS = "http://www.w3.org/2000/svg";
export const W = 200;
export const H = 280;

/** @typedef {import("./api-types").Card["suit"]} Suit */
/** @typedef {import("./lang.js").Lang} Lang */

/** @type {Suit[]} */
export const SUITS = ["c", "d", "h", "s"];
/** @type {Record<Suit, boolean>} */
export const RED = { c: false, d: true, h: true, s: false };

const INK = { red: "#c8102e", black: "#1b1b22" };
/** The four-colour deck's inks (settings.four_colour): diamonds blue, clubs green; each
 * at 4.5:1 or more on the face (measured in tests/web/test_looks.py). @type {Record<Suit, string>} */
const INK4 = { c: "#17702e", d: "#1747a6", h: INK.red, s: INK.black };

/** How the cards look (the player's settings; looks.js sets it before the sprite is built).
 * ``back``: the backs' design (play.settings.Back); ``four``: four colours; ``large``: large indices. */
export const looks = { back: "lattice", four: false, large: false };

/** A suit's ink on the face. @param {Suit} suit */
export function inkOf(suit) {
  return looks.four ? INK4[suit] : RED[suit] ? INK.red : INK.black;
}

// Suit shapes in a 100×100 box, centred at (50, 50).
/** @type {Record<Suit, string>} */
const SUIT_SHAPE = {
  h: `<path d="M50 92 C 44 84, 30 72, 16 58 C 2 44, 2 22, 18 12 C 32 4, 46 12, 50 26 C 54 12, 68 4, 82 12 C 98 22, 98 44, 84 58 C 70 72, 56 84, 50 92 Z"/>`,
  d: `<path d="M50 2 Q 66 28, 88 50 Q 66 72, 50 98 Q 34 72, 12 50 Q 34 28, 50 2 Z"/>`,
  s: `<path d="M50 4 C 56 18, 72 30, 86 44 C 100 58, 96 80, 78 84 C 66 86, 58 80, 54 72 C 55 84, 60 92, 70 97 L 30 97 C 40 92, 45 84, 46 72 C 42 80, 34 86, 22 84 C 4 80, 0 58, 14 44 C 28 30, 44 18, 50 4 Z"/>`,
  c: `<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/>` +
    `<path d="M44 40 L56 40 L56 62 C 56 80, 60 90, 70 97 L 30 97 C 40 90, 44 80, 44 62 Z"/>`,
};

// Pip centres for 2…10 on the 200×280 face (x, y); pips below the middle are drawn
// upside down, as on real cards. The side columns keep clear of the corner indices
// (x ≤ 43): a pip of PIP_SIZE (9 and 10: PIP_SIZE_SMALL) starts at x ≥ 48.
const L = 67, M = 100, R = 133;
const T = 64, B = 216, C = 140;
export const PIP_SIZE = 38;
export const PIP_SIZE_SMALL = 32;
/** @type {Record<number, [number, number][]>} */
const PIPS = {
  2: [[M, T], [M, B]],
  3: [[M, T], [M, C], [M, B]],
  4: [[L, T], [R, T], [L, B], [R, B]],
  5: [[L, T], [R, T], [M, C], [L, B], [R, B]],
  6: [[L, T], [R, T], [L, C], [R, C], [L, B], [R, B]],
  7: [[L, T], [R, T], [M, 102], [L, C], [R, C], [L, B], [R, B]],
  8: [[L, T], [R, T], [M, 102], [L, C], [R, C], [M, 178], [L, B], [R, B]],
  9: [[L, T], [R, T], [L, 114], [R, 114], [M, C], [L, 166], [R, 166], [L, B], [R, B]],
  10: [[L, T], [R, T], [M, 88], [L, 114], [R, 114], [L, 166], [R, 166], [M, 192], [L, B], [R, B]],
};

/** One suit shape, ``size`` across, centred at (cx, cy).
 * @param {Suit} suit @param {number} cx @param {number} cy @param {number} size @param {boolean} [flip] */
function suitUse(suit, cx, cy, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 ${cx} ${cy})` : "";
  return `<use href="#suit-${suit}" width="100" height="100" transform="${rot} translate(${cx - size / 2} ${cy - size / 2}) scale(${s})"/>`;
}

/** @param {string} label @param {Suit} suit @param {boolean} compact */
function corner(label, suit, compact) {
  // Index: rank over suit, top-left; the same turned round, bottom-right. Small cards
  // (phones) get larger indices, since the index is what a player reads there.
  const narrow = label.length > 1;
  const k = compact ? 1.5 : 1;
  const x = compact ? 30 : 24;
  const idx =
    // "10" is two glyphs: narrower, and in compact cards not as large as one glyph, so
    // that it stays on the card and clear of the pips.
    `<text x="${x}" y="${44 * (compact ? 1.32 : 1)}" text-anchor="middle" font-size="${narrow ? (compact ? 46 : 36) : 40 * k}" ` +
    `${narrow ? `letter-spacing="${compact ? -5 : -3}" ` : ""}font-weight="700" ` +
    `font-family="Georgia, 'DejaVu Serif', 'Times New Roman', serif">${label}</text>` +
    suitUse(suit, x, compact ? 90 : 64, 22 * (compact ? 1.3 : 1));
  return `<g class="idx">${idx}</g><g transform="rotate(180 100 140)">${idx}</g>`;
}

/** The court figure's scale in its panel (see courtFigure). */
export const COURT_SCALE = 0.85;

// Court figures: a framed panel with a double-headed stylised figure (our own design).
// King: crown, full beard, ermine collar, sceptre. Queen: tiara, long hair, pearls, a
// rose. Jack: feathered cap, short hair, striped collar, halberd. The panel's tint
// differs a little by rank too, so the three read apart at a glance.
/** @param {number} rank 11…13 @param {Suit} suit @param {boolean} red */
function courtFigure(rank, suit, red) {
  const robe = red ? "#b3132b" : "#1f2f5c";
  const robe2 = red ? "#1f2f5c" : "#b3132b";
  const ink = inkOf(suit);
  const gold = "#d9a520";
  const goldLine = "#7a5a10";
  const skin = "#f4d7b5";
  const hair = rank === 12 ? "#9a5a1f" : rank === 13 ? "#5a4632" : "#2f2115";
  const tint = rank === 13 ? "#fbf3dc" : rank === 12 ? "#fcf0ef" : "#eef3fa";
  let head = "";
  let extra = "";
  // Hair behind the face.
  if (rank === 12) {
    head += `<path d="M74 58 Q 60 92, 66 122 L 80 112 Q 74 90, 80 66 Z M126 58 Q 140 92, 134 122 L 120 112 Q 126 90, 120 66 Z" fill="${hair}"/>`;
  }
  head +=
    `<path d="M77 64 Q 76 96, 100 101 Q 124 96, 123 64 Z" fill="${skin}" stroke="#6b4a2a" stroke-width="1.5"/>` +
    `<path d="M77 64 Q 72 78, 75 90 L 81 70 Z M123 64 Q 128 78, 125 90 L 119 70 Z" fill="${hair}"/>` +
    `<path d="M86 74 Q 90 71, 94 74 M106 74 Q 110 71, 114 74" stroke="#4a3020" stroke-width="1.6" fill="none"/>` +
    `<circle cx="90" cy="79" r="2.3" fill="#222"/><circle cx="110" cy="79" r="2.3" fill="#222"/>` +
    `<path d="M100 81 Q 97 87, 101 88" stroke="#b98a6a" stroke-width="1.4" fill="none"/>` +
    (rank === 12
      ? `<path d="M94 92 Q 100 96, 106 92" stroke="#c0392b" stroke-width="2.4" fill="none"/><circle cx="85" cy="87" r="3.5" fill="#f2a0a0" opacity="0.6"/><circle cx="115" cy="87" r="3.5" fill="#f2a0a0" opacity="0.6"/>`
      : `<path d="M94 92 Q 100 95, 106 92" stroke="#8a3a2a" stroke-width="2" fill="none"/>`);
  if (rank === 13) {
    // Beard and moustache.
    head +=
      `<path d="M79 82 Q 80 110, 100 116 Q 120 110, 121 82 Q 114 96, 100 97 Q 86 96, 79 82 Z" fill="${hair}"/>` +
      `<path d="M88 90 Q 100 84, 112 90 Q 100 88, 88 90 Z" fill="${hair}"/>`;
    head +=
      `<path d="M70 62 L73 32 L86 48 L100 26 L114 48 L127 32 L130 62 Z" fill="${gold}" stroke="${goldLine}" stroke-width="2"/>` +
      `<path d="M70 56 L130 56" stroke="${goldLine}" stroke-width="1.5"/>` +
      `<circle cx="100" cy="40" r="4.5" fill="${robe2}"/><circle cx="82" cy="50" r="3" fill="${robe}"/><circle cx="118" cy="50" r="3" fill="${robe}"/>` +
      `<circle cx="73" cy="31" r="2.5" fill="${gold}"/><circle cx="100" cy="25" r="2.5" fill="${gold}"/><circle cx="127" cy="31" r="2.5" fill="${gold}"/>`;
  } else if (rank === 12) {
    head +=
      `<path d="M74 62 Q 76 42, 100 38 Q 124 42, 126 62 Q 100 54, 74 62 Z" fill="${gold}" stroke="${goldLine}" stroke-width="2"/>` +
      `<path d="M86 46 L90 36 L94 45 M106 45 L110 36 L114 46" stroke="${goldLine}" stroke-width="1.5" fill="${gold}"/>` +
      `<circle cx="100" cy="46" r="6" fill="${robe}"/><circle cx="100" cy="46" r="2.5" fill="#fff3c4"/>`;
  } else {
    head +=
      `<path d="M70 66 Q 70 40, 100 38 Q 130 40, 130 66 Q 100 56, 70 66 Z" fill="${robe2}" stroke="#111" stroke-width="1.5"/>` +
      `<path d="M70 66 Q 100 56, 130 66" stroke="${gold}" stroke-width="3" fill="none"/>` +
      `<path d="M116 48 Q 136 16, 154 24 Q 140 34, 124 54 Z" fill="${gold}" stroke="${goldLine}" stroke-width="1.5"/>` +
      `<path d="M122 50 Q 136 30, 150 26" stroke="${goldLine}" stroke-width="1" fill="none"/>`;
  }
  let body =
    `<path d="M50 140 Q 54 110, 80 103 L 100 113 L 120 103 Q 146 110, 150 140 Z" fill="${robe}" stroke="#111" stroke-width="1.5"/>` +
    `<path d="M80 103 L 100 113 L 120 103 L 113 140 L 87 140 Z" fill="${gold}" stroke="${goldLine}" stroke-width="1.2"/>` +
    `<path d="M56 132 Q 60 118, 70 112 M144 132 Q 140 118, 130 112" stroke="${gold}" stroke-width="2" fill="none"/>` +
    `<circle cx="66" cy="127" r="10" fill="#fffdf7" stroke="${gold}" stroke-width="1.5"/>` +
    `<g fill="${ink}">${suitUse(suit, 66, 127, 13)}</g>`;
  if (rank === 13) {
    // Ermine collar; sceptre with an orb.
    body +=
      `<path d="M76 103 Q 100 118, 124 103 L 122 110 Q 100 124, 78 110 Z" fill="#fbfbf6" stroke="#777" stroke-width="1"/>` +
      `<path d="M86 110 l2 3 l-2 1 Z M100 115 l2 3 l-2 1 Z M114 110 l2 3 l-2 1 Z" fill="#111"/>` +
      `<path d="M138 140 L 138 84" stroke="${goldLine}" stroke-width="4"/>` +
      `<circle cx="138" cy="80" r="6" fill="${gold}" stroke="${goldLine}" stroke-width="1.5"/><path d="M138 70 L138 76 M135 73 L141 73" stroke="${goldLine}" stroke-width="1.5"/>`;
  } else if (rank === 12) {
    // Pearls and a rose.
    body +=
      `<path d="M84 108 Q 100 120, 116 108" stroke="#fffaf0" stroke-width="3.5" stroke-dasharray="0.1 5" stroke-linecap="round" fill="none"/>` +
      `<path d="M132 140 Q 128 118, 136 104" stroke="#2f6b2f" stroke-width="3" fill="none"/>` +
      `<path d="M131 120 Q 124 114, 126 108 Q 132 112, 131 120 Z" fill="#3c8a3c"/>` +
      `<circle cx="137" cy="100" r="7.5" fill="#c0392b"/><path d="M133 99 Q 137 94, 141 99 Q 137 104, 133 99 Z" fill="#e8766b"/>`;
  } else {
    // Striped collar; halberd.
    body +=
      `<path d="M88 118 L112 118 M86 126 L114 126 M85 134 L115 134" stroke="${robe2}" stroke-width="3"/>` +
      `<path d="M140 140 L 140 66" stroke="#6b4a2a" stroke-width="3"/>` +
      `<path d="M134 78 L140 60 L146 78 Z" fill="#9aa3ad" stroke="#333"/><path d="M140 82 Q 152 86, 150 96 Q 144 90, 140 90 Z" fill="#9aa3ad" stroke="#333"/>`;
  }
  const half = `<g>${body}${head}${extra}</g>`;
  // Drawn in a 200×280 box whose crown, cap and feather reach above the panel: scaled
  // about the centre (COURT_SCALE) so that every part lies inside the frame, none cut.
  const fit = `translate(100 140) scale(${COURT_SCALE}) translate(-100 -140)`;
  return (
    `<rect class="frame" x="38" y="34" width="124" height="212" rx="6" fill="${tint}" stroke="${gold}" stroke-width="3"/>` +
    `<clipPath id="cp-${rank}-${suit}"><rect x="40" y="36" width="120" height="208" rx="5"/></clipPath>` +
    `<g clip-path="url(#cp-${rank}-${suit})"><g class="figure" transform="${fit}">${half}<g transform="rotate(180 100 140)">${half}</g></g></g>` +
    `<path d="M40 140 L160 140" stroke="${gold}" stroke-width="2"/>` +
    `<rect x="38" y="34" width="124" height="212" rx="6" fill="none" stroke="#333" stroke-width="1"/>`
  );
}

/** @param {number} rank @param {Suit} suit @param {Lang} lang @param {boolean} compact */
function faceSymbol(rank, suit, lang, compact) {
  const red = RED[suit];
  const ink = inkOf(suit);
  const label = RANK_INDICES[lang][rank - 1];
  if (looks.large) return largeFace(rank, suit, label, ink);
  let middle;
  if (rank === 1) {
    // Ace: one large pip with a fine outline ring.
    middle =
      `<circle cx="100" cy="140" r="58" fill="none" stroke="${ink}" stroke-opacity="0.18" stroke-width="2"/>` +
      suitUse(suit, 100, 140, suit === "s" ? 84 : 74);
  } else if (rank <= 10) {
    const size = rank >= 9 ? PIP_SIZE_SMALL : PIP_SIZE;
    middle = PIPS[rank].map(([x, y]) => suitUse(suit, x, y, size, y > C).replace("<use ", '<use class="pip" ')).join("");
  } else {
    middle = courtFigure(rank, suit, red);
  }
  return (
    `<symbol id="face-${rank}${suit}" viewBox="0 0 ${W} ${H}">` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fffdf7" stroke="#b9b2a0" stroke-width="1.5"/>` +
    `<g fill="${ink}"><g${compact ? ' transform="translate(100 140) scale(0.76 0.8) translate(-100 -140)"' : ""}>${middle}</g>${corner(label, suit, compact)}</g>` +
    `</symbol>`
  );
}

/** A large-index face (settings.large_index: small screens, low vision): the rank and
 * the suit large across the top, where a fanned pile shows them, and one large suit
 * below; a court card keeps a gold frame round it.
 * @param {number} rank @param {Suit} suit @param {string} label @param {string} ink */
function largeFace(rank, suit, label, ink) {
  const narrow = label.length > 1;
  const court = rank > 10
    ? `<rect x="30" y="120" width="140" height="140" rx="10" fill="#fbf3dc" stroke="#d9a520" stroke-width="4"/>`
    : "";
  return (
    `<symbol id="face-${rank}${suit}" viewBox="0 0 ${W} ${H}">` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fffdf7" stroke="#b9b2a0" stroke-width="1.5"/>` +
    `<g fill="${ink}">` +
    `<text class="idx" x="${narrow ? 60 : 52}" y="86" text-anchor="middle" font-size="${narrow ? 80 : 92}" font-weight="700" ` +
    `${narrow ? 'letter-spacing="-8" ' : ""}font-family="Georgia, 'DejaVu Serif', 'Times New Roman', serif">${label}</text>` +
    suitUse(suit, 152, 54, 66) + court + suitUse(suit, 100, 190, rank > 10 ? 96 : 120) +
    `</g></symbol>`
  );
}

/** The backs' colours by deck: deck 1 burgundy, deck 2 dark blue, in every design (R1:
 * the two decks are told apart by their backs). [base, line, accent] */
const BACK_INKS = { 1: ["#7b1e2e", "#a8475a", "#e9c46a"], 2: ["#1b2f5e", "#4563a3", "#cfd8f0"] };

/** A back in the chosen design (``looks.back``). Besides the colour, each design marks
 * the deck by its drawing too: the stripes lean the other way, the rosette's heart is a
 * star or a ring. @param {1 | 2} deck */
function backSymbol(deck) {
  if (looks.back === "stripes") return stripesBack(deck);
  if (looks.back === "rosette") return rosetteBack(deck);
  return latticeBack(deck);
}

/** @param {1 | 2} deck */
function stripesBack(deck) {
  const [base, line, accent] = BACK_INKS[deck];
  return (
    `<pattern id="str-${deck}" width="18" height="18" patternUnits="userSpaceOnUse" patternTransform="rotate(${deck === 1 ? 35 : -35})">` +
    `<rect width="18" height="18" fill="${base}"/><rect width="7" height="18" fill="${line}"/>` +
    `<rect x="11" width="2" height="18" fill="${accent}" fill-opacity="0.5"/></pattern>` +
    `<symbol id="back-${deck}" viewBox="0 0 ${W} ${H}">` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fffdf7" stroke="#b9b2a0" stroke-width="1.5"/>` +
    `<rect x="12" y="12" width="${W - 24}" height="${H - 24}" rx="8" fill="url(#str-${deck})" stroke="${accent}" stroke-width="3"/>` +
    `<rect x="56" y="100" width="88" height="80" rx="40" fill="${base}" stroke="${accent}" stroke-width="3"/>` +
    `<rect x="66" y="110" width="68" height="60" rx="30" fill="none" stroke="${accent}" stroke-opacity="0.7" stroke-width="1.5"/>` +
    `</symbol>`
  );
}

/** @param {1 | 2} deck */
function rosetteBack(deck) {
  const [base, line, accent] = BACK_INKS[deck];
  let petals = "";
  for (let k = 0; k < 12; k++) {
    petals += `<ellipse cx="0" cy="-38" rx="9" ry="24" transform="rotate(${k * 30})" fill="${line}" stroke="${accent}" stroke-width="1.5"/>`;
  }
  const heart = deck === 1
    ? `<path d="M0 -16 L5 -5 L16 -5 L7 3 L10 15 L0 8 L-10 15 L-7 3 L-16 -5 L-5 -5 Z" fill="${accent}"/>`
    : `<circle r="13" fill="none" stroke="${accent}" stroke-width="5"/>`;
  return (
    `<pattern id="dot-${deck}" width="20" height="20" patternUnits="userSpaceOnUse">` +
    `<rect width="20" height="20" fill="${base}"/><circle cx="10" cy="10" r="2.2" fill="${accent}" fill-opacity="0.45"/></pattern>` +
    `<symbol id="back-${deck}" viewBox="0 0 ${W} ${H}">` +
    `<rect x="1.5" y="1.5" width="${W - 3}" height="${H - 3}" rx="14" fill="#fffdf7" stroke="#b9b2a0" stroke-width="1.5"/>` +
    `<rect x="12" y="12" width="${W - 24}" height="${H - 24}" rx="8" fill="url(#dot-${deck})" stroke="${accent}" stroke-width="2"/>` +
    `<g transform="translate(100 140)"><circle r="70" fill="${base}" stroke="${accent}" stroke-width="2.5"/>${petals}` +
    `<circle r="24" fill="${base}" stroke="${accent}" stroke-width="2"/>${heart}</g>` +
    `<path d="M28 28 h24 M28 28 v24 M172 28 h-24 M172 28 v24 M28 252 h24 M28 252 v-24 M172 252 h-24 M172 252 v-24" stroke="${accent}" stroke-width="3" fill="none"/>` +
    `</symbol>`
  );
}

/** The lattice back (the first design). @param {1 | 2} deck */
function latticeBack(deck) {
  // A lattice, a border and a central medallion.
  const [base, line, accent] = BACK_INKS[deck];
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

/** (Re)build the sprite of suits, faces and backs for ``lang``.
 * @param {Lang} lang @param {boolean} [compact] larger indices, for small cards */
export function buildSprite(lang, compact = false) {
  let sprite = /** @type {Element | null} */ (document.getElementById("card-sprite"));
  if (!sprite) {
    sprite = document.createElementNS(NS, "svg");
    sprite.id = "card-sprite";
    sprite.setAttribute("aria-hidden", "true");
    sprite.setAttribute("class", "svg-defs"); // hidden by the style sheet (the CSP allows no inline style)
    document.body.prepend(sprite);
  }
  let defs = "";
  for (const s of SUITS) defs += `<symbol id="suit-${s}" viewBox="0 0 100 100">${SUIT_SHAPE[s]}</symbol>`;
  for (const s of SUITS) for (let r = 1; r <= 13; r++) defs += faceSymbol(r, s, lang, compact);
  defs += backSymbol(1) + backSymbol(2);
  sprite.innerHTML = `<defs>${defs}</defs>`;
}

/** A stand-alone face as SVG markup (used in dialogs and tests).
 * @param {number} rank @param {Suit} suit @param {string} [cls] */
export function faceSvg(rank, suit, cls = "") {
  return `<svg class="${cls}" viewBox="0 0 ${W} ${H}"><use href="#face-${rank}${suit}"/></svg>`;
}

/** @param {Suit} suit @param {string} [cls] */
export function suitSvg(suit, cls = "") {
  return `<svg class="${cls} suit-${RED[suit] ? "red" : "black"}" viewBox="0 0 100 100" fill="${inkOf(suit)}"><use href="#suit-${suit}"/></svg>`;
}

/**
 * One card on the table: its element, with what the page knows of the card there.
 * @typedef {HTMLDivElement & CardFacts} CardEl
 * @typedef {object} CardFacts
 * @property {number | null} cardId the face shown (null: a back only)
 * @property {import("./api-types").Card | null} card
 * @property {number} deck 1 or 2: the back's colour
 * @property {boolean} up face up
 * @property {[number, number] | null} pos where it was last put, px
 * @property {string} place where the picture has it
 * @property {number} index its place in that stack, from the bottom
 */

/** The DOM element of one card on the table: a flipper with a front and a back.
 * @returns {CardEl} */
export function makeCardElement() {
  const el = document.createElement("div");
  el.className = "card down";
  el.innerHTML =
    `<div class="flipper"><svg class="face front" viewBox="0 0 ${W} ${H}" aria-hidden="true"><use/></svg>` +
    `<svg class="face back" viewBox="0 0 ${W} ${H}" aria-hidden="true"><use href="#back-1"/></svg></div>`;
  /** @type {CardFacts} */
  const facts = { cardId: null, card: null, deck: 1, up: false, pos: null, place: "", index: 0 };
  return Object.assign(el, facts);
}

/** Show ``card`` (a server Card, or null for an unknown face-down card) on ``el``.
 * @param {CardEl} el @param {import("./api-types").Card | null} card @param {number} [deck] the back, for a null card */
export function bindCard(el, card, deck = 1) {
  const front = /** @type {SVGUseElement} */ (el.querySelector(".front use"));
  const back = /** @type {SVGUseElement} */ (el.querySelector(".back use"));
  if (card) {
    el.cardId = card.id;
    el.card = card;
    el.deck = card.deck;
    el.dataset.card = card.symbol + (card.deck === 2 ? "2" : "");
    setHref(front, `#face-${card.rank}${card.suit}`);
  } else {
    el.cardId = null;
    el.card = null;
    el.deck = deck;
    delete el.dataset.card;
    setHref(front, null);
  }
  setHref(back, `#back-${el.deck}`);
}

/** Point ``use`` at ``href`` (none: null), only if it changes: setting it again, even to
 * the same, makes the browser build the drawing anew (a reconcile binds every card, and
 * Auto reconciles several times a second). @param {SVGUseElement} use @param {string | null} href */
function setHref(use, href) {
  if (use.getAttribute("href") === href) return;
  if (href === null) use.removeAttribute("href");
  else use.setAttribute("href", href);
}
