// The deal of the day, remembered: the calendar (a month of deals of the day, which were
// played and won, today marked, earlier days playable, the daily streaks: all from the
// server's GET /api/calendar, which knows today: the page reads no clock for it) and the
// wish made before a deal ("on a wish", a setting: wish.js). docs/page.md.

import { api } from "./api.js";
import { startGame } from "./controller.js";
import { confirmLeave, showModal } from "./dialogs.js";
import { dateLocale, firstWeekday, t } from "./i18n.js";
import { enqueue } from "./queue.js";
import { $, $dialog, announce } from "./store.js";
import { setupWish } from "./wish.js";

/** @typedef {import("./api-types").Calendar} Calendar */
/** @typedef {import("./api-types").CalendarDay} CalendarDay */

/** The month shown and the day that has (or gets) the focus. @type {Calendar | null} */
let shown = null;
/** @type {string | null} */
let focusDate = null;

/** A date of the calendar in words, in the page's language with the browser's region
 * (``dateLocale``: "November 30, 2026" in an en-US browser, "30 November 2026" in en-GB).
 * @param {string} iso YYYY-MM-DD */
export function dateWords(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  try {
    return new Intl.DateTimeFormat(dateLocale(), { dateStyle: "long", timeZone: "UTC" })
      .format(new Date(Date.UTC(y, m - 1, d)));
  } catch {
    return iso;
  }
}

/** ``iso``'s place in the week as the grid shows it: 0 in the first column (the week
 * starts on the locale's first day, ``firstWeekday``) … 6 in the last. @param {string} iso */
function column(iso) {
  const day = new Date(`${iso}T00:00:00Z`).getUTCDay() || 7; // ISO: 1 Monday … 7 Sunday
  return (day - firstWeekday() + 7) % 7;
}

/** ``iso`` moved by ``days`` (calendar arithmetic in UTC: no time zone moves a date).
 * @param {string} iso @param {number} days */
function shift(iso, days) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The label a screen reader hears for a day: its date, what was done, today, late.
 * @param {CalendarDay} day */
function dayLabel(day) {
  const parts = [t(`daily.day.${day.state}`, { date: dateWords(day.date) })];
  if (day.today) parts.push(t("daily.day.today"));
  if (day.state !== "none" && !day.on_day) parts.push(t("daily.day.late"));
  if (day.future) parts.push(t("daily.day.future"));
  return parts.join(", ");
}

/** Draw ``cal``: the month's title, the grid (its weeks start on the locale's first day:
 * Sunday in en-US, Monday in ru), the streaks. @param {Calendar} cal */
function render(cal) {
  shown = cal;
  const [year, month] = cal.month.split("-").map(Number);
  $("#cal-month").textContent = t(`daily.month.${month}`, { year });
  /** @type {HTMLButtonElement} */ ($("#cal-prev")).disabled = !cal.previous;
  /** @type {HTMLButtonElement} */ ($("#cal-next")).disabled = !cal.next;
  const grid = $("#cal-grid");
  const start = firstWeekday();
  const days = [0, 1, 2, 3, 4, 5, 6].map((i) => ((start - 1 + i) % 7) + 1);
  const head = `<thead><tr>${days.map((w) => `<th scope="col">${t(`daily.weekday.${w}`)}</th>`).join("")}</tr></thead>`;
  const cells = [];
  for (let i = 0; i < column(cal.days[0].date); i++) cells.push('<td role="gridcell"></td>');
  if (!focusDate || !cal.days.some((d) => d.date === focusDate)) {
    focusDate = (cal.days.find((d) => d.today) || cal.days.filter((d) => !d.future).pop() || cal.days[0]).date;
  }
  for (const day of cal.days) {
    const n = Number(day.date.slice(8));
    const attrs = [
      `data-date="${day.date}"`, `data-state="${day.state}"`, `tabindex="${day.date === focusDate ? 0 : -1}"`,
      `aria-label="${dayLabel(day).replace(/"/g, "&quot;")}"`,
      day.today ? 'aria-current="date"' : "", day.future ? 'aria-disabled="true"' : "",
      day.on_day ? 'data-on-day="true"' : "",
    ].filter(Boolean).join(" ");
    cells.push(`<td role="gridcell"><button type="button" class="cal-day" ${attrs}>${n}</button></td>`);
  }
  while (cells.length % 7) cells.push('<td role="gridcell"></td>');
  const rows = [];
  for (let i = 0; i < cells.length; i += 7) rows.push(`<tr>${cells.slice(i, i + 7).join("")}</tr>`);
  grid.innerHTML = `${head}<tbody>${rows.join("")}</tbody>`;
  const s = cal.streaks;
  $("#cal-streak").textContent = t("daily.streak", { ...s });
  $("#cal-totals").textContent = t("daily.totals", { played: s.days_played, won: s.days_won });
}

/** Show ``month`` (YYYY-MM; today's by default), the focus on ``date`` when given.
 * @param {string} [month] @param {string} [date] @param {boolean} [focus] */
async function load(month, date, focus = false) {
  if (date) focusDate = date;
  render(await api.calendar(month));
  if (focus) focusDay();
}

function focusDay() {
  const el = /** @type {HTMLElement | null} */ ($("#cal-grid").querySelector(`[data-date="${focusDate}"]`));
  if (el) el.focus();
}

/** Open the calendar (the deal dialog's and the statistics' Calendar, the key C). */
export async function openCalendar() {
  focusDate = null;
  try {
    await load();
  } catch (err) {
    announce(String(err instanceof Error ? err.message : err));
    return;
  }
  showModal($dialog("#dlg-calendar"));
  focusDay();
}

/** Move the focus by ``days`` (another month is fetched when the day is in it; never
 * past today). @param {number} days */
async function moveFocus(days) {
  if (!shown || !focusDate) return;
  let next = shift(focusDate, days);
  if (next > shown.today) next = shown.today;
  if (next < "1900-01-01") next = "1900-01-01";
  if (next.slice(0, 7) !== shown.month) await load(next.slice(0, 7), next, true);
  else {
    focusDate = next;
    for (const b of $("#cal-grid").querySelectorAll("button")) b.setAttribute("tabindex", b.getAttribute("data-date") === next ? "0" : "-1");
    focusDay();
  }
}

/** Play the deal of ``date`` (an earlier day, or today's). @param {string} date */
function playDay(date) {
  const day = shown && shown.days.find((d) => d.date === date);
  if (!day || day.future) return;
  $dialog("#dlg-calendar").close();
  const deal = $dialog("#dlg-deal");
  if (deal.open) deal.close();
  enqueue(async () => {
    if (await confirmLeave()) await startGame(undefined, undefined, "daily", undefined, false, day.today ? {} : { date }).catch(() => {});
  });
}

export function setupDaily() {
  $("#cal-prev").addEventListener("click", () => { if (shown && shown.previous) load(shown.previous); });
  $("#cal-next").addEventListener("click", () => { if (shown && shown.next) load(shown.next); });
  const grid = $("#cal-grid");
  grid.addEventListener("click", (e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest("button");
    if (b && b.dataset.date) playDay(b.dataset.date);
  });
  grid.addEventListener("keydown", (e) => {
    /** @type {Record<string, () => unknown>} */
    const moves = {
      ArrowLeft: () => moveFocus(-1), ArrowRight: () => moveFocus(1), ArrowUp: () => moveFocus(-7),
      ArrowDown: () => moveFocus(7),
      Home: () => focusDate && moveFocus(-column(focusDate)),
      End: () => focusDate && moveFocus(6 - column(focusDate)),
      PageUp: () => shown && shown.previous && load(shown.previous, focusDate ? `${shown.previous}-01` : undefined, true),
      PageDown: () => shown && shown.next && load(shown.next, `${shown.next}-01`, true),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    move();
  });
  $("#deal-calendar").addEventListener("click", () => openCalendar());
  $("#st-calendar").addEventListener("click", () => openCalendar());
  setupWish();
}
