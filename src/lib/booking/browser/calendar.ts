// Not cally 0.9.2 (issue 36): <calendar-range> adds 9.7 KB gzipped (atomico inside) to this 5.5 KB
// element, past the embed's 10 KB budget (bench/booking.ts); air-datepicker, vanilla-calendar-pro weigh more.
import {
  addDays,
  isIsoDate,
  latestCheckIn,
  nightsBetween,
  type StayRules,
} from '../domain/dates.ts';

/** A date-range calendar beside the date inputs (the source of truth), with the ARIA date-picker keys. */

/** The dates in the inputs (either may be empty). */
export interface CalendarState {
  checkIn: string;
  checkOut: string;
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function addMonths(month: string, count: number): string {
  const d = new Date(`${month}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + count, 1);
  return d.toISOString().slice(0, 10);
}

/** A day after a check-in that has no check-out yet: a click makes it the check-out. */
const isCheckOut = (day: string, { checkIn, checkOut }: CalendarState): boolean =>
  isIsoDate(checkIn) && !isIsoDate(checkOut) && day > checkIn;

/** Whether a day can be picked now: never in the past; a check-out only within the stay rules. */
export function selectable(day: string, state: CalendarState, rules: StayRules): boolean {
  if (day < rules.today) return false;
  if (!isCheckOut(day, state)) return day <= latestCheckIn(rules.today);
  const nights = nightsBetween(state.checkIn, day);
  return nights >= rules.minNights && nights <= rules.maxNights;
}

/** A click on `day`: the first pick (or a day before check-in) is the check-in, the next the check-out. */
export function pick(day: string, state: CalendarState, rules: StayRules): CalendarState | null {
  if (!selectable(day, state, rules)) return null;
  const { checkIn } = state;
  return isCheckOut(day, state) ? { checkIn, checkOut: day } : { checkIn: day, checkOut: '' };
}

/** Days an arrow key moves the focused day. */
const ARROWS = new Map(Object.entries({ ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }));

/** Where a key moves the focused day (null: not a calendar key). */
export function moveFocus(day: string, key: string): string | null {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const by = key === 'Home' ? -weekday : key === 'End' ? 6 - weekday : ARROWS.get(key);
  if (by !== undefined) return addDays(day, by);
  if (key !== 'PageUp' && key !== 'PageDown') return null;
  const target = addMonths(monthStart(day), key === 'PageUp' ? -1 : 1);
  const last = addDays(addMonths(target, 1), -1);
  const wanted = `${target.slice(0, 8)}${day.slice(8)}`;
  return wanted > last ? last : wanted;
}

/** The weeks of a month (Monday first), `''` for days outside it. */
export function monthWeeks(month: string): string[][] {
  const first = new Date(`${month}T00:00:00Z`);
  const offset = (first.getUTCDay() + 6) % 7;
  const end = addMonths(month, 1);
  const weeks: string[][] = [];
  let week: string[] = Array.from({ length: offset }, () => '');
  for (let day = month; day < end; day = addDays(day, 1)) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => '')]);
  return weeks;
}
