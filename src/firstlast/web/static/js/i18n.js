// The interface in Russian and English. Strings are looked up by key; "{name}" parts
// are filled from the arguments. Elements with data-i18n="key" (text), data-i18n-title
// and data-i18n-aria are translated in place by translatePage().

import { RANKS } from "./cards.js";

const STR = {
  en: {
    title: "First and Last",
    subtitle: "a patience for two decks",
    new: "New", new_title: "New random deal (N)",
    deal: "Deal…", deal_title: "Play a deal by its number",
    restart: "Restart", restart_title: "Restart this deal",
    undo: "Undo", undo_title: "Undo (U, Ctrl+Z)",
    redo: "Redo", redo_title: "Redo (Ctrl+Y, Shift+Ctrl+Z)",
    hint: "Hint", hint_title: "Show the card that moves next (H)",
    step: "Step", step_title: "Make the forced move (S)",
    auto: "Auto", auto_title: "Play the forced line to the end (A)",
    pause: "Pause",
    stats: "Statistics", stats_title: "Statistics and history",
    rules: "Rules", rules_title: "Rules and help (?)",
    settings: "Settings", settings_title: "Settings",
    lang_switch: "Русский", lang_title: "Переключить на русский",
    deal_n: "Deal {n}",
    pile_needs: "Pile {pile} needs {rank}",
    pile_needs_base: "Pile {pile} takes its base {card}",
    all_done: "All piles complete",
    pass_of: "Pass {pass} of {max}",
    pass_unl: "Pass {pass} (unlimited redeals)",
    redeals_left: "{n} redeals left", redeals_left_1: "1 redeal left", redeals_left_0: "no redeals left",
    score: "Score", on_piles: "{n} of 104 on the piles",
    moves: "{n} moves",
    chance: "Chance to come out",
    chance_short: "Chance",
    privileged: "privileged",
    stock: "Stock", waste: "Waste",
    stock_label: "Stock: {n} cards, click to turn",
    stock_redeal: "Stock empty: click to redeal",
    waste_label: "Waste: {n} cards",
    turn_hint: "turn the stock", redeal_hint: "redeal the waste",
    play_card: "Play {card} from {place}",
    won_title: "It came out!",
    won_text: "All 104 cards are on the piles.",
    lost_title: "It did not come out",
    lost_text: "{n} of 104 cards reached the piles.",
    play_again: "Play again", next_deal: "Next deal", close: "Close",
    passes_used: "Passes used: {n}",
    dlg_deal: "Play a deal by number",
    deal_number: "Deal number (0 … 18446744073709551615)",
    deal_bad: "A deal number is a whole number from 0 to 18446744073709551615.",
    random: "Random",
    daily: "Deal of the day", winnable: "A deal that comes out",
    variant_bad: "This rules variant cannot be chosen.",
    st_lost: "Lost", st_abandoned: "Abandoned",
    unfinished: "Unfinished games", reopen: "Reopen", on_table: "on the table", abandoned: "abandoned",
    changed: "This game was changed elsewhere (another tab or the terminal): showing the saved game.",
    start: "Start", cancel: "Cancel",
    variant: "Rules variant",
    redeals: "Redeals (V1)", unlimited: "unlimited",
    waste_playable: "Waste top card is playable (V2)",
    privileged_last: "Last first-row card is privileged (R8/V3)",
    variant_note: "Variant settings apply to new games.",
    canonical: "Canonical rules",
    speed: "Animation speed", speed_0: "off", speed_1: "slow", speed_2: "normal", speed_3: "fast",
    language: "Language",
    show_chance: "Show the chance to come out",
    variant_more: "Rules variant for new games…",
    st_title: "Statistics", st_played: "Played", st_won: "Won", st_rate: "Win rate",
    st_streak: "Streak", st_best: "Best streak", st_passes: "Average passes",
    st_hist: "Scores of finished games", st_none: "No finished games yet. Play one to the end!",
    history: "History", h_deal: "Deal", h_variant: "Rules", h_result: "Result", h_score: "Score",
    h_date: "Finished", replay: "Replay", export: "Export", import: "Import a record…",
    imported: "Record imported.", import_bad: "The record was not imported: {error}.",
    won: "won", lost: "lost", playing: "playing",
    replay_mode: "Replay of deal {n}", replay_step: "Move {i} of {n}", replay_move: "Move",
    replay_back: "Back", replay_fwd: "Forward", replay_play: "Play", replay_exit: "Leave replay",
    replay_unavailable: "This server cannot replay games yet.",
    help_title: "Rules of First and Last",
    help_tab_rules: "Rules", help_tab_keys: "Keys", help_tab_book: "The book's text (Russian)",
    keys: [
      ["Space / T", "turn the stock (or redeal)"], ["1 … 8", "play the reserve card R1 … R8"],
      ["P", "play the privileged card F8"], ["B", "lay the active pile's base"],
      ["W", "play the waste's top card (variant V2)"], ["S", "step: the forced move"],
      ["F", "advance: turn until a card fits"],
      ["A", "auto: play to the end (again to pause)"], ["H", "hint"],
      ["U, Ctrl+Z", "undo"], ["Ctrl+Y, Shift+Ctrl+Z", "redo"], ["N", "new deal"],
      ["D", "deal by number"], ["L", "switch language"], ["?", "this help"], ["Esc", "close a dialog"],
    ],
    err_network: "The server cannot be reached.",
    err_over: "The game is over.",
    only_active: "Only the active pile {pile} takes cards (R3).",
    loading: "Dealing…",
    rank_names: ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"],
  },
  ru: {
    title: "Первые и последние",
    subtitle: "пасьянс в две колоды",
    new: "Новый", new_title: "Новая случайная раскладка (N)",
    deal: "Номер…", deal_title: "Раскладка по номеру",
    restart: "Заново", restart_title: "Начать эту раскладку заново",
    undo: "Отменить", undo_title: "Отменить ход (U, Ctrl+Z)",
    redo: "Вернуть", redo_title: "Вернуть ход (Ctrl+Y, Shift+Ctrl+Z)",
    hint: "Подсказка", hint_title: "Показать карту, которая идёт следующей (H)",
    step: "Шаг", step_title: "Сделать вынужденный ход (S)",
    auto: "Авто", auto_title: "Доиграть вынужденные ходы до конца (A)",
    pause: "Пауза",
    stats: "Статистика", stats_title: "Статистика и история",
    rules: "Правила", rules_title: "Правила и справка (?)",
    settings: "Настройки", settings_title: "Настройки",
    lang_switch: "English", lang_title: "Switch to English",
    deal_n: "Раскладка № {n}",
    pile_needs: "Кучке {pile} нужна карта {rank}",
    pile_needs_base: "На кучку {pile} ложится её начальная {card}",
    all_done: "Все кучки сложены",
    pass_of: "Проход {pass} из {max}",
    pass_unl: "Проход {pass} (перекладок без ограничения)",
    redeals_left: "перекладок осталось: {n}", redeals_left_1: "осталась 1 перекладка", redeals_left_0: "перекладок не осталось",
    score: "Счёт", on_piles: "в кучках {n} из 104",
    moves: "ходов: {n}",
    chance: "Шанс, что пасьянс выйдет",
    chance_short: "Шанс",
    privileged: "последняя",
    stock: "Колода", waste: "Сборная кучка",
    stock_label: "Колода: {n} карт, нажмите, чтобы открыть карту",
    stock_redeal: "Колода пуста: нажмите, чтобы переложить сборную кучку",
    waste_label: "Сборная кучка: {n} карт",
    turn_hint: "открыть карту из колоды", redeal_hint: "переложить сборную кучку",
    play_card: "Сыграть {card} с места {place}",
    won_title: "Пасьянс вышел!",
    won_text: "Все 104 карты разложены по кучкам.",
    lost_title: "Пасьянс не вышел",
    lost_text: "В кучках {n} карт из 104.",
    play_again: "Сыграть ещё раз", next_deal: "Следующая раскладка", close: "Закрыть",
    passes_used: "Проходов: {n}",
    dlg_deal: "Раскладка по номеру",
    deal_number: "Номер раскладки (0 … 18446744073709551615)",
    deal_bad: "Номер раскладки — целое число от 0 до 18446744073709551615.",
    random: "Случайный",
    daily: "Раскладка дня", winnable: "Раскладка, которая выйдет",
    variant_bad: "Такой вариант правил выбрать нельзя.",
    st_lost: "Не вышло", st_abandoned: "Брошено",
    unfinished: "Неоконченные раскладки", reopen: "Вернуться", on_table: "на столе", abandoned: "брошена",
    changed: "Эту раскладку изменили в другом окне или в терминале: показана сохранённая.",
    start: "Начать", cancel: "Отмена",
    variant: "Вариант правил",
    redeals: "Перекладок (V1)", unlimited: "без ограничения",
    waste_playable: "Верхняя карта сборной кучки идёт в игру (V2)",
    privileged_last: "Последняя карта верхнего ряда идёт на любую кучку (R8/V3)",
    variant_note: "Вариант правил действует для новых раскладок.",
    canonical: "Правила книги",
    speed: "Скорость анимации", speed_0: "без анимации", speed_1: "медленно", speed_2: "обычно", speed_3: "быстро",
    language: "Язык",
    show_chance: "Показывать шанс, что пасьянс выйдет",
    variant_more: "Вариант правил для новых раскладок…",
    st_title: "Статистика", st_played: "Сыграно", st_won: "Вышло", st_rate: "Доля удач",
    st_streak: "Серия", st_best: "Лучшая серия", st_passes: "Проходов в среднем",
    st_hist: "Счёт законченных раскладок", st_none: "Законченных раскладок пока нет. Доиграйте одну до конца!",
    history: "История", h_deal: "Раскладка", h_variant: "Правила", h_result: "Итог", h_score: "Счёт",
    h_date: "Окончена", replay: "Повтор", export: "Скачать", import: "Загрузить запись…",
    imported: "Запись загружена.", import_bad: "Запись не загружена: {error}.",
    won: "вышел", lost: "не вышел", playing: "идёт",
    replay_mode: "Повтор раскладки № {n}", replay_step: "Ход {i} из {n}", replay_move: "Ход",
    replay_back: "Назад", replay_fwd: "Вперёд", replay_play: "Пуск", replay_exit: "Выйти из повтора",
    replay_unavailable: "Этот сервер пока не умеет показывать повтор.",
    help_title: "Правила пасьянса «Первые и последние»",
    help_tab_rules: "Правила", help_tab_keys: "Клавиши", help_tab_book: "Текст книги",
    keys: [
      ["Пробел / T", "открыть карту из колоды (или переложить)"], ["1 … 8", "сыграть карту нижнего ряда R1 … R8"],
      ["P", "сыграть последнюю карту верхнего ряда F8"], ["B", "положить начальную карту на кучку"],
      ["W", "сыграть верхнюю карту сборной кучки (вариант V2)"], ["S", "шаг: вынужденный ход"],
      ["F", "вперёд: открывать колоду, пока не найдётся подходящая карта"],
      ["A", "авто: доиграть до конца (ещё раз — пауза)"], ["H", "подсказка"],
      ["U, Ctrl+Z", "отменить"], ["Ctrl+Y, Shift+Ctrl+Z", "вернуть"], ["N", "новая раскладка"],
      ["D", "раскладка по номеру"], ["L", "сменить язык"], ["?", "эта справка"], ["Esc", "закрыть окно"],
    ],
    err_network: "Сервер недоступен.",
    err_over: "Игра окончена.",
    only_active: "Карты принимает только текущая кучка {pile} (R3).",
    loading: "Раскладываю…",
    rank_names: ["туз", "двойка", "тройка", "четвёрка", "пятёрка", "шестёрка", "семёрка", "восьмёрка", "девятка", "десятка", "валет", "дама", "король"],
  },
};

// Russian sentences for the engine's refusals, by their code (firstlast.engine.errors.
// REFUSALS): the server sends the code and its parameters, so no English is read here.
const RULE_RU = {
  "R4.rank": "{card} не подходит: кучке {pile} нужна карта {rank} (R4).",
  "R5.early": "Начальная карта ложится на свою кучку только тринадцатой, когда в ней 12 карт (R5).",
  "R5.base_only": "В кучке {pile} 12 карт: тринадцатой ложится её начальная карта, другая карта того же достоинства не годится (R5).",
  "R5.done": "Эта карта уже лежит на своей кучке (R5).",
  "R6.empty": "Здесь нет карты (R6).",
  "R6.waste": "Верхняя карта сборной кучки в этих правилах в игру не идёт (R6; вариант V2 это разрешает).",
  "R8.fixed": "Карты верхнего ряда не сходят с места, кроме последней (R8) и начальной карты полной кучки (R5).",
  "R8.first": "Сначала должна пойти последняя карта верхнего ряда F8 (R8).",
  "R9.play_before_turn": "Сначала сыграйте подходящую карту, потом открывайте колоду (R9).",
  "R9.play_before_redeal": "Сначала сыграйте подходящую карту, потом перекладывайте (R9).",
  "R9.stock_empty": "Колода пуста: открывать нечего (R9); переложите сборную кучку (R10).",
  "R10.stock_left": "Перекладывать можно, только когда колода кончилась (R10).",
  "R10.waste_empty": "Перекладывать нечего: сборная кучка пуста (R10).",
  "R10.none_left": "Перекладок больше не осталось (R10, V1).",
  "R11.won": "Игра окончена (R11).",
  "R11.stuck": "Игра окончена (R11).",
  "V3.not_privileged": "В этом варианте последняя карта верхнего ряда не идёт на другие кучки (V3).",
};

let current = "en";

export function detectLang() {
  const stored = localStorage.getItem("fl_lang");
  if (stored === "ru" || stored === "en") return stored;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("ru") ? "ru" : "en";
}

export function getLang() {
  return current;
}

export function setLang(lang) {
  current = lang === "ru" ? "ru" : "en";
  document.documentElement.lang = current;
  localStorage.setItem("fl_lang", current);
}

export function t(key, args = {}) {
  let s = STR[current][key];
  if (s === undefined) s = STR.en[key];
  if (s === undefined) return key;
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : `{${k}}`));
}

export function rankChar(rank) {
  return RANKS[current][rank - 1];
}

export function rankName(rank) {
  return STR[current].rank_names[rank - 1];
}

const SUIT_SYM = { c: "♣", d: "♦", h: "♥", s: "♠" };

export function cardName(card) {
  return rankChar(card.rank) + SUIT_SYM[card.suit];
}

/** The refusal ``err`` (ApiError) in the current language; ``ctx`` gives the card and pile. */
export function refusal(err, ctx = {}) {
  if (current === "en" || !err.rule) {
    // The engine names cards as "6h", "Th": show them as on the cards, 6♥, 10♥.
    return (err.message || "").replace(/\b([A2-9TJQK])([cdhs])\b/g, (_, r, s) => (r === "T" ? "10" : r) + SUIT_SYM[s]);
  }
  const params = err.params || {};
  const code = params.refusal || (err.code === "game.over" ? "R11.won" : null);
  const s = code ? RULE_RU[code] : null;
  if (!s) return err.message || "";
  const args = { ...ctx };
  if (params.pile) args.pile = params.pile;
  if (params.need) args.rank = rankChar(params.need);
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : ""));
}

export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  document.title = t("title");
}

/** A variant (``{redeals, waste_playable, privileged_last}``) in a few words. */
export function variantLabel(v) {
  const lang = current;
  const parts = [];
  const r = v.redeals === null ? "∞" : String(v.redeals);
  parts.push(lang === "ru" ? `перекладок ${r}` : `${r} redeal${v.redeals === 1 ? "" : "s"}`);
  if (v.waste_playable) parts.push("V2");
  if (!v.privileged_last) parts.push(lang === "ru" ? "без R8" : "no R8");
  const canon = v.redeals === 3 && !v.waste_playable && v.privileged_last;
  return canon ? t("canonical") : parts.join(", ");
}

/** The variant of a token as the server writes it ("r3", "ru", "r0wn"), or null. */
export function variantFromToken(token) {
  const m = /^r(\d+|u)(w?)(n?)$/.exec(token || "");
  if (!m) return null;
  return { redeals: m[1] === "u" ? null : Number(m[1]), waste_playable: m[2] === "w", privileged_last: m[3] !== "n" };
}
