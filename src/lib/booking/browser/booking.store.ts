import { atom, map } from 'nanostores';
import { isIsoDate } from '../domain/dates.ts';
import { addMonths, monthStart } from './calendar.ts';

/** The element's state besides the server's markup, and the actions that change it. */
export function bookingStore() {
  /** The step's request under way, named by its busy text; null when none. */
  const $busy = atom<'searching' | 'sending' | null>(null);
  /** The calendar's first month and the day with its tab stop ('' until drawn from the inputs). */
  const $calendar = map({ month: '', focusDay: '' });
  /** Partner events already sent (a search, a booking): Back and Forward repeat none. */
  const told = new Set<string>();
  const show = (month: string, focusDay: string) => $calendar.set({ month, focusDay });

  return {
    $busy,
    $calendar,
    /** True the first time `key` is told. */
    once(key: string): boolean {
      if (told.has(key)) return false;
      told.add(key);
      return true;
    },
    /** A new step: its calendar opens from its own inputs. */
    newStep: () => show('', ''),
    /** The calendar drawn for the first time on a step: the month of `start`, focused there. */
    open(start: string): void {
      const { month, focusDay } = $calendar.get();
      show(month || monthStart(start), focusDay || start);
    },
    /** A check-in typed in its field brings its month into view. */
    typed(checkIn: string): void {
      const { month } = $calendar.get();
      if (isIsoDate(checkIn) && checkIn.slice(0, 7) !== month.slice(0, 7))
        show(monthStart(checkIn), checkIn);
    },
    /** The previous or next month (its first day takes the tab stop). */
    shift(count: number): void {
      const month = addMonths($calendar.get().month, count);
      show(month, month);
    },
    /** A day picked with the mouse or the keyboard. */
    focus: (day: string) => $calendar.setKey('focusDay', day),
    /** The keyboard moved the focus to `day`: the months shown (`shown` of them) follow it. */
    moveTo(day: string, shown: number): void {
      const { month } = $calendar.get();
      if (day < month) show(monthStart(day), day);
      else if (day >= addMonths(month, shown)) show(addMonths(monthStart(day), 1 - shown), day);
      else show(month, day);
    },
  };
}
