import { describe, expect, it } from 'vitest';
import {
  addMonths,
  monthWeeks,
  moveFocus,
  pick,
  selectable,
} from '../../../src/lib/booking/browser/calendar.ts';

const rules = { today: '2099-03-10', minNights: 2, maxNights: 5 };
const empty = { checkIn: '', checkOut: '', month: '2099-03-01', focus: '2099-03-10' };

describe('the date-range calendar', () => {
  it('picks check-in first, then a check-out within the stay rules', () => {
    expect(pick('2099-03-12', empty, rules)).toEqual({ checkIn: '2099-03-12', checkOut: '' });
    const chosen = { ...empty, checkIn: '2099-03-12' };
    expect(pick('2099-03-13', chosen, rules)).toBeNull();
    expect(pick('2099-03-14', chosen, rules)).toEqual({
      checkIn: '2099-03-12',
      checkOut: '2099-03-14',
    });
    expect(pick('2099-03-18', chosen, rules)).toBeNull();
    expect(pick('2099-03-11', chosen, rules)).toEqual({ checkIn: '2099-03-11', checkOut: '' });
  });

  it('never offers a day in the past', () => {
    expect(selectable('2099-03-09', empty, rules)).toBe(false);
    expect(selectable('2099-03-10', empty, rules)).toBe(true);
  });

  it('offers no check-in more than two years ahead (a check-out after it, yes)', () => {
    expect(selectable('2101-03-10', empty, rules)).toBe(true);
    expect(selectable('2101-03-11', empty, rules)).toBe(false);
    expect(selectable('2101-03-12', { ...empty, checkIn: '2101-03-10' }, rules)).toBe(true);
  });

  it.each([
    ['ArrowRight', '2099-03-11'],
    ['ArrowLeft', '2099-03-09'],
    ['ArrowDown', '2099-03-17'],
    ['ArrowUp', '2099-03-03'],
    ['Home', '2099-03-09'],
    ['End', '2099-03-15'],
    ['PageDown', '2099-04-10'],
    ['PageUp', '2099-02-10'],
    ['a', null],
  ])('%s from Tuesday 10 March 2099 goes to %s', (key, day) => {
    expect(moveFocus('2099-03-10', key)).toBe(day);
  });

  it('Page Down from the 31st lands on the last day of a shorter month', () => {
    expect(moveFocus('2099-01-31', 'PageDown')).toBe('2099-02-28');
  });

  it('lays a month out in Monday-first weeks', () => {
    const weeks = monthWeeks('2099-03-01');
    expect(weeks[0]).toEqual(['', '', '', '', '', '', '2099-03-01']);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
    expect(addMonths('2099-12-01', 1)).toBe('2100-01-01');
  });
});
