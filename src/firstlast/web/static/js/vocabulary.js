// The game's vocabulary, generated from the engine's declarations (and the play layer's
// start kinds, settings and table of keys) by `python -m firstlast.web.generated`: do not edit.
// The page retypes no name, grammar, limit or key of the game: it imports them from here.

/** The cards of the double deck (R1), 104: a won game's score (engine.cards.DECK_SIZE). */
export const DECK_SIZE = 104;

/** Every place's one name (engine.places.PLACE_NAMES): stock and waste, F1…F8, R1…R8, P1…P8. */
export const PLACES = Object.freeze(["stock", "waste", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]);

/** The stock's name. */
export const STOCK = "stock";

/** The waste's name (also the move that plays its top card, V2). */
export const WASTE = "waste";

/** The places of each row, in order (R2, R3). */
export const ROWS = Object.freeze({ "first": Object.freeze(["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"]), "reserve": Object.freeze(["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]), "pile": Object.freeze(["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]) });

/** Each place's kind: stock, waste, first, reserve or pile. */
export const PLACE_KINDS = Object.freeze({ "stock": "stock", "waste": "waste", "F1": "first", "F2": "first", "F3": "first", "F4": "first", "F5": "first", "F6": "first", "F7": "first", "F8": "first", "R1": "reserve", "R2": "reserve", "R3": "reserve", "R4": "reserve", "R5": "reserve", "R6": "reserve", "R7": "reserve", "R8": "reserve", "P1": "pile", "P2": "pile", "P3": "pile", "P4": "pile", "P5": "pile", "P6": "pile", "P7": "pile", "P8": "pile" });

/** The places a card can be played from (R6): a play's move is the place's name. */
export const SOURCES = Object.freeze(["waste", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]);

/** The kinds of move (Move.kind). */
export const MOVE_KINDS = Object.freeze(["play", "turn", "redeal"]);

/** Every move a player can ask for, as the engine writes it. */
export const TABLE_MOVES = Object.freeze(["turn", "redeal", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "waste"]);

/** The move that turns a card (R9). */
export const TURN = "turn";

/** The move that redeals the waste (R10). */
export const REDEAL = "redeal";

/** A variant token a game may have (engine.variant.STORED_TOKEN_PATTERN): groups redeals, waste, no-privilege. */
export const VARIANT_TOKEN = new RegExp("^r([0-9]{1,4}|u)(w?)(n?)$");

/** The letters of a variant token (engine.variant.TOKEN_LETTERS). */
export const TOKEN_LETTERS = Object.freeze({ "prefix": "r", "unlimited": "u", "waste_playable": "w", "no_privileged": "n" });

/** What a player may type for unlimited redeals. */
export const UNLIMITED_WORDS = Object.freeze(["unlimited", "u", "∞"]);

/** The most redeals (V1) a stored game may have; past it, unlimited. */
export const MAX_REDEALS = 1000;

/** The canonical rules (V1–V3) and their token. */
export const CANONICAL = Object.freeze({ "redeals": 3, "waste_playable": false, "privileged_last": true, "token": "r3" });

/** The largest deal number (2^64 − 1), as text: read it with BigInt. */
export const MAX_DEAL = "18446744073709551615";

/** The most digits a deal number has (2^64 − 1). */
export const DEAL_DIGITS = 20;

/** The ranks' letters in the engine's card notation, ace to king. */
export const RANK_CHARS = "A23456789TJQK";

/** The suits' letters in the engine's card notation. */
export const SUIT_CHARS = "cdhs";

/** Every refusal of the rules: its rule and its parameters (engine.errors.REFUSALS). */
export const REFUSALS = Object.freeze({ "R11.won": Object.freeze({ "rule": "R11", "params": Object.freeze([]) }), "R11.stuck": Object.freeze({ "rule": "R11", "params": Object.freeze([]) }), "R9.play_before_turn": Object.freeze({ "rule": "R9", "params": Object.freeze([]) }), "R9.stock_empty": Object.freeze({ "rule": "R9", "params": Object.freeze([]) }), "R9.play_before_redeal": Object.freeze({ "rule": "R9", "params": Object.freeze([]) }), "R10.stock_left": Object.freeze({ "rule": "R10", "params": Object.freeze([]) }), "R10.waste_empty": Object.freeze({ "rule": "R10", "params": Object.freeze([]) }), "R10.none_left": Object.freeze({ "rule": "R10", "params": Object.freeze([]) }), "R6.waste": Object.freeze({ "rule": "R6", "params": Object.freeze([]) }), "R5.done": Object.freeze({ "rule": "R5", "params": Object.freeze(["source", "pile"]) }), "R5.early": Object.freeze({ "rule": "R5", "params": Object.freeze(["source", "pile"]) }), "V3.not_privileged": Object.freeze({ "rule": "V3", "params": Object.freeze([]) }), "R8.fixed": Object.freeze({ "rule": "R8", "params": Object.freeze([]) }), "R6.empty": Object.freeze({ "rule": "R6", "params": Object.freeze(["place"]) }), "R5.base_only": Object.freeze({ "rule": "R5", "params": Object.freeze(["pile", "base"]) }), "R4.rank": Object.freeze({ "rule": "R4", "params": Object.freeze(["card", "pile", "need"]) }), "R8.first": Object.freeze({ "rule": "R8", "params": Object.freeze(["card"]) }) });

/** How a new game picks its deal (play.START_KINDS). */
export const START_KINDS = Object.freeze(["number", "random", "next", "again", "daily", "winnable"]);

/** The player's settings as a new player has them (play.settings.Settings()). */
export const SETTING_DEFAULTS = Object.freeze({ "lang": null, "speed": 2, "variant": "r3", "show_chance": true, "verbosity": "full", "felt": "green", "back": "lattice", "four_colour": false, "large_index": false, "layout": "standard", "sound": false, "volume": 60, "wish": false, "show_playable": true, "tour_seen": false });

/** The settings that take one of a few words, and those words (play.settings.CHOICES). */
export const SETTING_CHOICES = Object.freeze({ "verbosity": Object.freeze(["brief", "full"]), "felt": Object.freeze(["green", "blue", "night", "paper"]), "back": Object.freeze(["lattice", "stripes", "rosette"]), "layout": Object.freeze(["standard", "mirrored"]) });

/** Each pace of play by the speed setting 0…3 (play.settings.PACES): its name, Auto's moves per second (null: at once) and one card's flight, ms. */
export const PACES = Object.freeze([Object.freeze({ "name": "instant", "moves_per_s": null, "flight_ms": 0 }), Object.freeze({ "name": "slow", "moves_per_s": 2.0, "flight_ms": 480 }), Object.freeze({ "name": "normal", "moves_per_s": 8.0, "flight_ms": 300 }), Object.freeze({ "name": "fast", "moves_per_s": 32.0, "flight_ms": 220 })]);

/** The longest Finish's cascade of a whole game may take, ms (play.settings.FINISH_MS). */
export const FINISH_MS = 4000;

/** The width of the score histogram's bins, in cards (play.stats.SCORE_BIN). */
export const SCORE_BIN = 8;

/** The languages every catalog speaks (i18n.LANGS). */
export const LANGS = Object.freeze(["ru", "en"]);

/** The language spoken when none is asked for (i18n.DEFAULT_LANG). */
export const DEFAULT_LANG = "en";

/** Each language's plural rules and rank forms (i18n.GRAMMAR): what picks a key of a family. */
export const GRAMMAR = Object.freeze({ "ru": Object.freeze({ "rules": Object.freeze([Object.freeze({ "form": "one", "ends": Object.freeze([1]), "mod": 10, "but": Object.freeze([11]) }), Object.freeze({ "form": "few", "ends": Object.freeze([2, 3, 4]), "mod": 10, "but": Object.freeze([12, 13, 14]) })]), "other": "many", "rank_forms": Object.freeze(["acc", "gen", "pl"]), "plurals": Object.freeze(["one", "few", "many"]) }), "en": Object.freeze({ "rules": Object.freeze([Object.freeze({ "form": "one", "ends": Object.freeze([1]), "mod": null, "but": Object.freeze([]) })]), "other": "many", "rank_forms": Object.freeze(["a", "pl"]), "plurals": Object.freeze(["one", "many"]) }) });

/** Each language's rank indices on a card, ace first (the catalogs' rank.N.short), for the card pictures drawn before a catalog is loaded. */
export const RANK_INDICES = Object.freeze({ "ru": Object.freeze(["Т", "2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К"]), "en": Object.freeze(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]) });

/** A suit as the cards show it (i18n.SUIT_GLYPHS). */
export const SUIT_GLYPHS = Object.freeze({ "c": "♣", "d": "♦", "h": "♥", "s": "♠" });

/** Every key the page answers to → its action (play.actions, the one table of keys both faces use).
 * A key is ``KeyboardEvent.key`` for a character (Russian-layout letters included), else a lower-case
 * name: space, escape, f1, ctrl+z.
 * @type {Readonly<Record<string, string>>} */
export const KEYMAP = Object.freeze({ "t": "turn", "space": "turn", "е": "turn", "1": "reserve", "2": "reserve", "3": "reserve", "4": "reserve", "5": "reserve", "6": "reserve", "7": "reserve", "8": "reserve", "p": "privileged", "з": "privileged", "b": "base", "и": "base", "w": "waste", "ц": "waste", "s": "step", "ы": "step", "f": "advance", "а": "advance", "a": "auto", "ф": "auto", "escape": "pause", "u": "undo", "ctrl+z": "undo", "г": "undo", "ctrl+я": "undo", "r": "redo", "ctrl+y": "redo", "ctrl+shift+z": "redo", "к": "redo", "ctrl+н": "redo", "ctrl+shift+я": "redo", "h": "hint", "р": "hint", "e": "summary", "у": "summary", "x": "review", "ч": "review", "n": "new", "т": "new", "g": "deal", "d": "deal", "п": "deal", "в": "deal", "v": "variant", "м": "variant", "l": "unfinished", "д": "unfinished", "o": "import", "щ": "import", "i": "stats", "ш": "stats", "c": "calendar", "с": "calendar", "y": "story", "н": "story", "L": "language", "Д": "language", "S": "settings", "Ы": "settings", "m": "mute", "ь": "mute", "?": "help", "f1": "help", ",": "help" });

/** The keys help, in order: the action, its keys as the help writes them in each language, and the
 * catalog key of what it does.
 * @type {ReadonlyArray<{id: string, keys: Record<string, string>, does: string}>} */
export const KEY_HELP = Object.freeze([Object.freeze({ "id": "turn", "keys": Object.freeze({ "ru": "t (е), Пробел", "en": "t (е), Space" }), "does": "keys.turn.does" }), Object.freeze({ "id": "reserve", "keys": Object.freeze({ "ru": "1 … 8", "en": "1 … 8" }), "does": "keys.reserve.does" }), Object.freeze({ "id": "privileged", "keys": Object.freeze({ "ru": "p (з)", "en": "p (з)" }), "does": "keys.privileged.does" }), Object.freeze({ "id": "base", "keys": Object.freeze({ "ru": "b (и)", "en": "b (и)" }), "does": "keys.base.does" }), Object.freeze({ "id": "waste", "keys": Object.freeze({ "ru": "w (ц)", "en": "w (ц)" }), "does": "keys.waste.does" }), Object.freeze({ "id": "step", "keys": Object.freeze({ "ru": "s (ы)", "en": "s (ы)" }), "does": "keys.step.does" }), Object.freeze({ "id": "advance", "keys": Object.freeze({ "ru": "f (а)", "en": "f (а)" }), "does": "keys.advance.does" }), Object.freeze({ "id": "auto", "keys": Object.freeze({ "ru": "a (ф)", "en": "a (ф)" }), "does": "keys.auto.does" }), Object.freeze({ "id": "pause", "keys": Object.freeze({ "ru": "Esc", "en": "Esc" }), "does": "keys.pause.does" }), Object.freeze({ "id": "undo", "keys": Object.freeze({ "ru": "u (г), Ctrl+Z", "en": "u (г), Ctrl+Z" }), "does": "keys.undo.does" }), Object.freeze({ "id": "redo", "keys": Object.freeze({ "ru": "r (к), Ctrl+Y, Ctrl+Shift+Z", "en": "r (к), Ctrl+Y, Ctrl+Shift+Z" }), "does": "keys.redo.does" }), Object.freeze({ "id": "hint", "keys": Object.freeze({ "ru": "h (р)", "en": "h (р)" }), "does": "keys.hint.does" }), Object.freeze({ "id": "summary", "keys": Object.freeze({ "ru": "e (у)", "en": "e (у)" }), "does": "keys.summary.does" }), Object.freeze({ "id": "review", "keys": Object.freeze({ "ru": "x (ч)", "en": "x (ч)" }), "does": "keys.review.does" }), Object.freeze({ "id": "new", "keys": Object.freeze({ "ru": "n (т)", "en": "n (т)" }), "does": "keys.new.does" }), Object.freeze({ "id": "deal", "keys": Object.freeze({ "ru": "g (п), d (в)", "en": "g (п), d (в)" }), "does": "keys.deal.does" }), Object.freeze({ "id": "variant", "keys": Object.freeze({ "ru": "v (м)", "en": "v (м)" }), "does": "keys.variant.does" }), Object.freeze({ "id": "unfinished", "keys": Object.freeze({ "ru": "l (д)", "en": "l (д)" }), "does": "keys.unfinished.does" }), Object.freeze({ "id": "import", "keys": Object.freeze({ "ru": "o (щ)", "en": "o (щ)" }), "does": "keys.import.does" }), Object.freeze({ "id": "stats", "keys": Object.freeze({ "ru": "i (ш)", "en": "i (ш)" }), "does": "keys.stats.does" }), Object.freeze({ "id": "calendar", "keys": Object.freeze({ "ru": "c (с)", "en": "c (с)" }), "does": "keys.calendar.does" }), Object.freeze({ "id": "story", "keys": Object.freeze({ "ru": "y (н)", "en": "y (н)" }), "does": "keys.story.does" }), Object.freeze({ "id": "language", "keys": Object.freeze({ "ru": "L (Д)", "en": "L (Д)" }), "does": "keys.language.does" }), Object.freeze({ "id": "settings", "keys": Object.freeze({ "ru": "S (Ы)", "en": "S (Ы)" }), "does": "keys.settings.does" }), Object.freeze({ "id": "mute", "keys": Object.freeze({ "ru": "m (ь)", "en": "m (ь)" }), "does": "keys.mute.does" }), Object.freeze({ "id": "help", "keys": Object.freeze({ "ru": "? (,), F1", "en": "? (,), F1" }), "does": "keys.help.does" })]);
