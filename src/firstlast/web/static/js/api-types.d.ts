// The HTTP API's models (docs/web-api.md), generated from firstlast.web.models by
// `python -m firstlast.web.generated`: do not edit. Use in JSDoc as
// `import("./api-types").GameState`.

/**
 * The table page's address (``routes.pages``): a value that is not well formed is
 * dropped, not refused, so every text is accepted.
 */
export interface PageQuery {
  /** sign in as this known player (303 to /) */
  player?: string;
  /** the deal the page starts, if ASCII digits */
  deal?: string;
  /** its variant, if a variant token */
  variant?: string;
  /** the page's language, if ru or en */
  lang?: string;
}

/**
 * A new game on the table. ``how`` defaults to ``number`` when a deal is given,
 * else ``random``; ``variant`` to the player's setting (for ``again``, the table's); a
 * variant given is this game's only, unless ``make_default``.
 */
export interface NewGame {
  how?: "again" | "daily" | "next" | "number" | "random" | "winnable" | null;
  /** 0…2^64−1 (send large numbers as text); 0…18446744073709551615; ASCII digits, 0…2^64−1 */
  deal?: number | string | null;
  /** e.g. r3, ru, r0w, r3wn; redeals 0…1000; pattern `^r((?:[0-9]{1,3}|0[0-9]{3}|1000)|u)(w?)(n?)$` */
  variant?: string | VariantSpec | null;
  /** with how=daily: the date (YYYY-MM-DD) whose deal of the day to play (an earlier day of the calendar); today by default, never a day to come */
  date?: string | null;
  /** the wish made before the deal (the setting wish; "" in silence): kept privately with the game, in the player's backup only */
  wish?: string | null;
  /** the variant given becomes the player's setting for new games too; else it is this game's alone */
  make_default?: boolean;
}

/**
 * Rules V1–V3; a missing field takes the canonical value. ``token`` and
 * ``description`` are ignored, so a State's variant can be sent back as it came.
 */
export interface VariantSpec {
  /** null: unlimited; 0…1000 */
  redeals?: number | null;
  waste_playable?: boolean;
  privileged_last?: boolean;
  token?: string;
  description?: string;
}

/**
 * A game as the table shows it: everything but the stock's order. The table is the
 * play layer's view (``play.view.TableView``, its fields); the rest is the stored game's.
 */
export interface GameState {
  id: string;
  /** each table move not legal now: its refusal */
  refusals: Record<string, ErrorBody>;
  created: string;
  updated: string;
  finished: string | null;
  /** send it back with actions */
  version: number;
  origin: "imported" | "played";
  /** how the deal was chosen (POST /api/games how; winnable: it comes out); null for an imported or older game */
  dealt: "again" | "daily" | "next" | "number" | "random" | "winnable" | null;
  /** the first end reached, kept after undo */
  result: "lost" | "won" | null;
  abandoned: boolean;
  /** a wish was made before the deal (its words stay in the store and the backup: never sent) */
  wish: boolean;
  /** what becomes of this game if another takes the table (play.leaving); a face asks first on abandon */
  leaving: "abandon" | "delete" | "keep";
  status: "lost" | "playing" | "won";
  score: number;
  passes: number;
  redeals_used: number;
  /** null: unlimited */
  redeals_left: number | null;
  /** 0…7 */
  active: number | null;
  /** 1…13 */
  need: number | null;
  need_char: string | null;
  /** the one card the active pile takes: its own base (R5) */
  need_card: Card | null;
  privileged: "F8" | null;
  /** ASCII digits, 0…2^64−1 */
  deal: string;
  variant: VariantInfo;
  /** 8 items */
  first: (Card | null)[];
  /** 8 items */
  reserve: (Card | null)[];
  /** 8 items */
  piles: Card[][];
  stock_count: number;
  /** backs only, next card first */
  stock_decks: (1 | 2)[];
  /** bottom to top */
  waste: Card[];
  legal_moves: string[];
  /** turn, or redeal once the stock is empty */
  stock_move: string;
  /** F1…F8: the active pile's own base */
  base_move: string | null;
  /** P1…P8: the one pile that takes cards */
  drop_target: string | null;
  /** the places whose card answers a press: it plays, or its refusal is said (play.view.TableView) */
  pressable: string[];
  hint: string | null;
  can_undo: boolean;
  can_redo: boolean;
  moves: number;
  /** under way and known to come out (dealt as winnable: play is forced; play.view.table_view): the page says so instead of asking for the chance */
  comes_out: boolean;
}

/**
 * Every refusal. ``code`` and ``params`` are stable; ``error`` is the English
 * sentence and ``text`` the same in the player's language, which the page shows (the
 * server says every refusal, cards in words: ``i18n.error_text``); ``rule`` for a
 * rule's refusal, ``line`` for a record's.
 */
export interface ErrorBody {
  error: string;
  code: string;
  params: Record<string, string | number | boolean | null>;
  /** the refusal in the player's language (i18n.error_text) */
  text: string;
  rule?: string;
  line?: number | null;
}

/** Card */
export interface Card {
  /** 0…103 */
  id: number;
  /** 1…13 */
  rank: number;
  suit: "c" | "d" | "h" | "s";
  deck: 1 | 2;
  symbol: string;
}

/** VariantInfo */
export interface VariantInfo {
  /** null: unlimited */
  redeals: number | null;
  waste_playable: boolean;
  privileged_last: boolean;
  token: string;
  description: string;
}

/** GamesQuery */
export interface GamesQuery {
  status?: "abandoned" | "finished" | "lost" | "playing" | "unfinished" | "won" | null;
  /** 1…1000 */
  limit?: number;
}

/** GameList */
export interface GameList {
  /** latest first */
  games: GameSummary[];
}

/**
 * A game in a list: the store's one declaration (``play.GameSummary``) as it is,
 * its deal and variant with their bounds.
 */
export interface GameSummary {
  id: string;
  /** ASCII digits, 0…2^64−1 */
  deal: string;
  /** e.g. r3, ru, r0w, r3wn; redeals 0…1000; pattern `^r((?:[0-9]{1,3}|0[0-9]{3}|1000)|u)(w?)(n?)$` */
  variant: string;
  description: string;
  status: "lost" | "playing" | "won";
  score: number;
  passes: number;
  moves: number;
  created: string;
  updated: string;
  finished: string | null;
  origin: "imported" | "played";
  result: "lost" | "won" | null;
  abandoned: boolean;
}

/** RecordList */
export interface RecordList {
  /** the records the game set when it ended */
  records: RecordNews[];
}

/** A personal record the game set when it ended (play.stats.news). */
export interface RecordNews {
  /** first_win: the first game won under these rules; streak: the longest run of wins; passes: the fewest passes to come out; lost_score: the best score of a lost game */
  kind: "first_win" | "lost_score" | "passes" | "streak";
  value: number;
  /** the record it beat; null: none */
  previous: number | null;
  /** the record in words, in the player's language */
  text: string;
}

/** No fields: the game goes on the table. */
export interface OpenRequest {
}

/** MoveRequest */
export interface MoveRequest {
  move: "F1" | "F2" | "F3" | "F4" | "F5" | "F6" | "F7" | "F8" | "R1" | "R2" | "R3" | "R4" | "R5" | "R6" | "R7" | "R8" | "redeal" | "turn" | "waste";
  /** the State's version the page acted on; 0…9007199254740991 */
  version?: number | null;
}

/**
 * An action's answer: the state as stored, every move made (for undo, the one taken
 * back) and every card movement in order.
 */
export interface ActionResult {
  state: GameState;
  move: string | null;
  movements: Movement[];
  steps: string[];
  new_game: boolean;
  /** the movements in words for a screen reader, in the player's language (i18n.announce) */
  announcement: string;
  /** the personal records the game set, when this action ended it (the end panel says them) */
  records: RecordNews[];
}

/** One card moving, in the order it happened. */
export interface Movement {
  card: Card;
  from: string;
  to: string;
  face_up: boolean;
}

/** StepRequest */
export interface StepRequest {
  /** forced moves to make; 1…100000 */
  n?: number;
  /** the State's version the page acted on; 0…9007199254740991 */
  version?: number | null;
}

/** advance, undo, redo, restart. */
export interface ActionRequest {
  /** the State's version the page acted on; 0…9007199254740991 */
  version?: number | null;
}

/** A game record (engine format) as text; a byte-order mark is allowed. */
export interface ImportRequest {
  /** at most 1 Mi characters */
  record: string;
}

/** The deal as dealt and every move made since. */
export interface Replay {
  initial: GameState;
  steps: ReplayStep[];
}

/** ReplayStep */
export interface ReplayStep {
  move: string;
  movements: Movement[];
  facts: StepFacts;
  /** the step's movements in words for a screen reader, in the player's language (i18n.announce) */
  announcement: string;
}

/** The engine's view after a replayed step (``play.view.TableFacts``). */
export interface StepFacts {
  status: "lost" | "playing" | "won";
  score: number;
  passes: number;
  redeals_used: number;
  /** null: unlimited */
  redeals_left: number | null;
  /** 0…7 */
  active: number | null;
  /** 1…13 */
  need: number | null;
  need_char: string | null;
  /** the one card the active pile takes: its own base (R5) */
  need_card: Card | null;
  privileged: "F8" | null;
}

/** WordsQuery */
export interface WordsQuery {
  /** a replay's step: the table after this many moves, as the replay shows it (no hint); the default is the table as it stands; ≥ 0 */
  step?: number | null;
}

/**
 * The table in words (i18n.table), in the player's language, both verbosities: the
 * page shows and says these, and words nothing of them itself.
 */
export interface TableWords {
  /** the hint as a sentence, verbosity full (i18n.table.hint_text) */
  hint: string;
  hint_brief: string;
  /** the table summary, verbosity full (i18n.table.table_summary) */
  summary: string;
  summary_brief: string;
  /** each place's review, in the order the review offers */
  reviews: PlaceReview[];
}

/** One place's review (i18n.table.review_words): its title and its cards in order. */
export interface PlaceReview {
  /** P1 … P8, waste, or rows (the first row and the reserve) */
  place: string;
  title: string;
  cards: string[];
  /** the title and the cards as one sentence, to be said */
  sentence: string;
}

/** ChanceQuery */
export interface ChanceQuery {
  /** samples of each round; the default, and the most, is every face's (play.chance.SAMPLES_PER_ROUND); 100…20000 */
  samples?: number;
  /** refinement round: each round draws new, independent samples of the same position, pooled with rounds 0 … round − 1; at most the policy's last (play.chance.MAX_ROUNDS − 1); 0…19 */
  round?: number;
}

/**
 * One round's estimate (``round``); rounds of one position are independent, and
 * ``pooled`` merges those estimated so far (a face shows that, and words nothing).
 */
export interface Chance {
  /** 0…1 */
  probability: number;
  /** 0…1 */
  low: number;
  /** 0…1 */
  high: number;
  /** 0: the game is decided, known exactly; ≥ 0 */
  samples: number;
  /** samples that came out; ≥ 0 */
  wins: number;
  /** the figure in the player's language (i18n.chance_text) */
  text: string;
  /** nothing is unknown: exact, no round adds anything */
  certain: boolean;
  /** the round answered: the one asked for, or an earlier one where rounds before it were missing and the engine samples alone (one round per request, play.chance.one_round_per_ask); next_round then names the one to ask for; 0…19 */
  round: number;
  pooled: ChancePool;
  /** the round to ask for next while the player is idle; null: refining further adds nothing (play.chance's policy, the same in every face) */
  next_round: number | null;
}

/**
 * The rounds of one position this server has estimated so far, up to the one
 * asked for, pooled (wins and samples summed, ``ChanceEstimate.merge``): the figure a
 * face shows while it refines, worded by the one display rule.
 */
export interface ChancePool {
  /** 0…1 */
  probability: number;
  /** 0…1 */
  low: number;
  /** 0…1 */
  high: number;
  /** 0: the game is decided, known exactly; ≥ 0 */
  samples: number;
  /** samples that came out; ≥ 0 */
  wins: number;
  /** the figure in the player's language (i18n.chance_text) */
  text: string;
  /** how many rounds are pooled; ≥ 1 */
  rounds: number;
  /** the pooled figure in a few characters, the meter's (i18n.chance_text, short: "25 %", "20–25 %", "< 1 %"); text, with its interval, is the meter's help */
  short: string;
}

/**
 * The story of a game (docs/story.md, ``play.story.Story``) and its words
 * in the player's language: ``sentences`` (``Story.describe``), ``conclusion``
 * then ``details``.
 */
export interface Story {
  version: number;
  /** ASCII digits, 0…2^64−1 */
  deal: string;
  /** e.g. r3, ru, r0w, r3wn; redeals 0…1000; pattern `^r((?:[0-9]{1,3}|0[0-9]{3}|1000)|u)(w?)(n?)$` */
  variant: string;
  status: "lost" | "playing" | "won";
  moves: number;
  passes: number;
  score: number;
  sampler: "engine" | "kernel";
  samples_per_point: number;
  planned: number;
  /** the curve, the deal first */
  points: Point[];
  current: Point;
  moments: Moment[];
  crossing: Crossing | null;
  low_point: Point | null;
  stop: Stop | null;
  /** a lost game: what would have brought it out */
  what_if: WhatIf | null;
  /** a won game: the pass it came out on; ≥ 1 */
  won_on_pass: number | null;
  /** the story told in the player's language */
  sentences: string[];
  /** the first sentences: the result, why it stopped and what would have brought it out, or the pass it came out on */
  conclusion: string[];
  /** the other sentences: the chance, the moments, the copies */
  details: string[];
  /** a short name of the chart (its accessible name) */
  chart_name: string;
  /** the story's first view in plain words (Story.plain): how it ended, why, what would have brought it out, the moments that mattered; no rule code, variant token or interval */
  plain: string[];
  /** a lost game: where the needed rank's cards lay, counted in plain words (the page's map's name) */
  where: string | null;
}

/**
 * The estimated chance after ``move`` moves (0: the deal), in pass ``pass_no``;
 * ``certain`` when nothing was unknown there (``ChanceEstimate.certain``).
 */
export interface Point {
  move: number;
  pass: number;
  score: number;
  /** 0…1 */
  probability: number;
  /** 0…1 */
  low: number;
  /** 0…1 */
  high: number;
  wins: number;
  samples: number;
  certain: boolean;
}

/**
 * One of the largest changes of the curve, from the point after ``first_move`` − 1
 * moves to the one after ``move`` (``Story.ends``); ``play`` is that last move and
 * ``cards`` the cards it moved. Every moment ``story_of`` tells is ``clear``.
 */
export interface Moment {
  move: number;
  first_move: number;
  /** 1: pinned to that one move */
  span: number;
  pass: number;
  play: string;
  cards: MovedCard[];
  /** 0…1 */
  before: number;
  /** 0…1 */
  after: number;
  change: number;
  /** the two 95 % intervals are apart */
  clear: boolean;
}

/**
 * A card a moment's move moved (``engine.Movement``): ``card`` its symbol, ``token``
 * with its deck, in the order it happened.
 */
export interface MovedCard {
  card: string;
  token: string;
  deck: 1 | 2;
  from: string;
  to: string;
  face_up: boolean;
}

/**
 * Where a won game's chance first stood at 50 % or more (``point``), and the point
 * before it (``None`` when the deal itself started there).
 */
export interface Crossing {
  point: Point;
  previous: Point | null;
}

/**
 * Why a lost game stopped (R11): nothing fits ``pile``, which needed rank ``need``
 * (R3, R4), the stock is empty and no redeal can be made (``code``: none left, or an
 * empty waste, R10). ``copies``: where each of the eight cards of that rank lay (R1).
 */
export interface Stop {
  code: "R11.no_redeal" | "R11.waste_empty";
  /** pattern `^P[1-8]$` */
  pile: string;
  /** 1…13 */
  need: number;
  need_char: string;
  redeals_used: number;
  /** null: unlimited */
  redeals: number | null;
  copies: CardPlace[];
}

/**
 * Where one card of the needed rank lay: ``code`` and its ``params``, as docs/story.md's
 * table lists them.
 */
export interface CardPlace {
  card: string;
  token: string;
  code: "first" | "pile" | "privileged" | "reserve" | "stock" | "waste";
  params: Record<string, string | number | boolean>;
}

/** What would have brought a lost deal out (``what_if``). */
export interface WhatIf {
  /** the fewest redeals (V1; the game's V2 and V3 kept) with which the same deal comes out; null: no number does, not even unlimited; ≥ 0 */
  fewest_redeals: number | null;
  /** the pass it then comes out on; ≥ 1 */
  comes_out_on_pass: number | null;
  /** which of the 20 variants of docs/odds.md (0–3 redeals or unlimited, with or without V2 and V3) bring the same deal out, in that table's order */
  variants_that_come_out: string[];
}

/** StatsList */
export interface StatsList {
  /** the canonical variant first */
  variants: Stats[];
}

/** One variant's counted games (docs/play.md, "Statistics"). */
export interface Stats {
  /** e.g. r3, ru, r0w, r3wn; redeals 0…1000; pattern `^r((?:[0-9]{1,3}|0[0-9]{3}|1000)|u)(w?)(n?)$` */
  variant: string;
  description: string;
  played: number;
  won: number;
  lost: number;
  abandoned: number;
  /** 0…1 */
  win_rate: number;
  current_streak: number;
  best_streak: number;
  average_passes: number;
  /** games by score 0…104; 105 items */
  score_histogram: number[];
  /** record: the fewest passes a won game took; null: none won */
  fewest_passes: number | null;
  /** record: the best score of a lost game; null: none */
  best_lost_score: number | null;
}

/** CalendarQuery */
export interface CalendarQuery {
  /** YYYY-MM; today's month by default; pattern `^[0-9]{4}-(0[1-9]|1[0-2])$` */
  month?: string | null;
}

/** A month of deals of the day (docs/play.md, "The deal of the day"). */
export interface Calendar {
  /** YYYY-MM-DD */
  today: string;
  /** YYYY-MM */
  month: string;
  /** the 1st first */
  days: CalendarDay[];
  streaks: Streaks;
  /** the month before (YYYY-MM), if the calendar has it */
  previous: string | null;
  /** the month after, up to today's */
  next: string | null;
}

/** One date's deal of the day (play.daily). */
export interface CalendarDay {
  /** YYYY-MM-DD */
  date: string;
  /** ASCII digits, 0…2^64−1 */
  deal: string;
  /** played: a move was made in a game of its deal; won: one came out */
  state: "none" | "played" | "won";
  /** played (or won) on its own date: it counts in the streaks */
  on_day: boolean;
  today: boolean;
  /** a day to come: not playable yet */
  future: boolean;
}

/**
 * The daily streaks (docs/play.md, "The deal of the day"), now and at best, and the
 * days played and won in all. Declared once: the web's answer is this Struct.
 */
export interface Streaks {
  played: number;
  won: number;
  best_played: number;
  best_won: number;
  days_played: number;
  days_won: number;
}

/**
 * A player's settings, defaults for a key never set (docs/play.md's table says what
 * each does; ``lang`` ``None``: follow the browser or terminal; ``sound`` is off by
 * default: a page does not speak up unasked). Declared once, with its bounds:
 * docs/meanings.md says what derives from it.
 */
export interface Settings {
  lang: "en" | "ru" | null;
  /** 0 instant, 1 slow, 2 normal, 3 fast; 0…3 */
  speed: number;
  /** e.g. r3, ru, r0w, r3wn; redeals 0…1000; pattern `^r((?:[0-9]{1,3}|0[0-9]{3}|1000)|u)(w?)(n?)$` */
  variant: string;
  show_chance: boolean;
  verbosity: "brief" | "full";
  felt: "blue" | "green" | "night" | "paper";
  back: "lattice" | "rosette" | "stripes";
  four_colour: boolean;
  large_index: boolean;
  layout: "mirrored" | "standard";
  sound: boolean;
  /** card sounds' volume, per cent; 0…100 */
  volume: number;
  /** on a wish: ask for a wish before each new deal */
  wish: boolean;
  /** mark the cards that can be played now */
  show_playable: boolean;
  /** the first-visit tour has been shown */
  tour_seen: boolean;
}

/** The keys to change; ``null`` restores a key's default. */
export interface SettingsChange {
  lang?: "en" | "ru" | null;
  /** 0 instant, 1 slow, 2 normal, 3 fast; 0…3 */
  speed?: number | null;
  /** e.g. r3, ru, r0w, r3wn; redeals 0…1000; pattern `^r((?:[0-9]{1,3}|0[0-9]{3}|1000)|u)(w?)(n?)$` */
  variant?: string | VariantSpec | null;
  show_chance?: boolean | null;
  verbosity?: "brief" | "full" | null;
  felt?: "blue" | "green" | "night" | "paper" | null;
  back?: "lattice" | "rosette" | "stripes" | null;
  four_colour?: boolean | null;
  large_index?: boolean | null;
  layout?: "mirrored" | "standard" | null;
  sound?: boolean | null;
  /** card sounds' volume, per cent; 0…100 */
  volume?: number | null;
  /** on a wish: ask for a wish before each new deal */
  wish?: boolean | null;
  /** mark the cards that can be played now */
  show_playable?: boolean | null;
  /** the first-visit tour has been shown */
  tour_seen?: boolean | null;
}

/** A player's backup file: every game and the settings (docs/backup.md). */
export interface Backup {
  format: "firstlast-backup";
  version: 1;
  /** the firstlast that wrote it (not read back) */
  app: string;
  /** ISO 8601, UTC, milliseconds */
  exported: string;
  settings: Settings;
  /** the id of the game on the table */
  table: string | null;
  /** in the order they were stored */
  games: BackupGame[];
  /** games left out: a restore would refuse them (written only when there are some) */
  left_out?: LeftOut[];
}

/**
 * One game of a backup: everything the store keeps of it (docs/backup.md). What the
 * replay derives (``status``, ``score``, ``passes``) may be left out.
 */
export interface BackupGame {
  /** 1…64 letters, digits, - or _; pattern `^[A-Za-z0-9_-]{1,64}$` */
  id: string;
  /** ASCII digits, 0…2^64−1; 0…2^64−1 (send large numbers as text); 0…18446744073709551615 */
  deal: string | number;
  /** e.g. r3, ru, r0w, r3wn; redeals 0…1000; pattern `^r((?:[0-9]{1,3}|0[0-9]{3}|1000)|u)(w?)(n?)$` */
  variant: string;
  /** the moves made, in the engine's notation, one space apart */
  moves: string;
  /** the moves redo would make, next first */
  redo: string;
  status?: "lost" | "playing" | "won";
  /** 0…104 */
  score?: number;
  /** ≥ 1 */
  passes?: number;
  /** the first end reached, kept after undo */
  result: "lost" | "won" | null;
  /** 0…104 */
  result_score: number | null;
  /** ≥ 1 */
  result_passes: number | null;
  origin: "imported" | "played";
  /** ISO 8601, UTC, milliseconds */
  created: string;
  /** ISO 8601, UTC, milliseconds */
  updated: string;
  /** when the result was reached; ISO 8601, UTC, milliseconds */
  finished: string | null;
  /** when it was left unfinished for another game; ISO 8601, UTC, milliseconds */
  abandoned: string | null;
  /** 0…9007199254740991 */
  version: number;
  /** how the deal was chosen; null: imported or older */
  dealt: "again" | "daily" | "next" | "number" | "random" | "winnable" | null;
  /** the player's date when it was dealt (a deal of the day played on its date counts in the streak); YYYY-MM-DD; pattern `^[0-9]{4}-[0-9]{2}-[0-9]{2}$` */
  dealt_on: string | null;
  /** the wish made before the deal ("": in silence; null: none): private, in the backup only */
  wish: string | null;
}

/** A stored game an export left out: an import would refuse it (``Skipped.to_json``). */
export interface LeftOut {
  /** its place among the player's games, from 1; ≥ 1 */
  n: number;
  id: string | null;
  deal: string | null;
  /** why, in English */
  error: string;
  /** the refusal's code (backup.field, backup.game) */
  code: string;
  params: Record<string, string | number | boolean | null>;
}

/** A backup file's text (docs/backup.md), as a string; a byte-order mark is allowed. */
export interface RestoreRequest {
  /** the file's text, at most 16 Mi characters */
  backup: string;
}

/** What a restore did (the merge rule: docs/backup.md). */
export interface RestoreReport {
  /** games in the file */
  games: number;
  /** games that were not here */
  added: number;
  /** games here that took the file's newer copy, or its result */
  updated: number;
  /** games already here as they are, or newer here */
  kept: number;
  /** the settings taken from the file (those still at their default) */
  settings: string[];
  /** the file's game went on the table (there was none) */
  table: boolean;
  /** damaged games left out; every other one was restored */
  skipped: SkippedGame[];
  /** what it did in the player's language, the games left out named */
  text: string;
}

/** A game of the file a restore left out, and why (docs/backup.md). */
export interface SkippedGame {
  /** its place in the file's games, from 1; ≥ 1 */
  n: number;
  /** its id, when it could be read */
  id: string | null;
  /** its deal, when it could be read */
  deal: string | null;
  error: ErrorBody;
}
