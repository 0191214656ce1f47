import { describe, expect, it } from 'vitest';
import { bookingStore } from '../../../src/lib/booking/browser/booking.store.ts';

describe('the booking element’s store', () => {
  it('tells each partner event once (Back and Forward repeat none)', () => {
    const store = bookingStore();
    expect(store.once('search{"a":1}')).toBe(true);
    expect(store.once('search{"a":1}')).toBe(false);
    expect(store.once('search{"a":2}')).toBe(true);
  });

  it('opens the calendar at its start, and a new step opens it again from its inputs', () => {
    const store = bookingStore();
    store.open('2099-03-28');
    expect(store.$calendar.get()).toEqual({ month: '2099-03-01', focusDay: '2099-03-28' });
    store.open('2099-05-02');
    expect(store.$calendar.get()).toEqual({ month: '2099-03-01', focusDay: '2099-03-28' });
    store.newStep();
    store.open('2099-05-02');
    expect(store.$calendar.get()).toEqual({ month: '2099-05-01', focusDay: '2099-05-02' });
  });

  it('brings a typed check-in’s month into view, and only a new month', () => {
    const store = bookingStore();
    store.open('2099-03-28');
    store.typed('2099-03-30');
    expect(store.$calendar.get().focusDay).toBe('2099-03-28');
    store.typed('2099-07-04');
    expect(store.$calendar.get()).toEqual({ month: '2099-07-01', focusDay: '2099-07-04' });
    store.typed('2099-13-99');
    expect(store.$calendar.get().month).toBe('2099-07-01');
  });

  it('shifts a month at a time, the first day taking the tab stop', () => {
    const store = bookingStore();
    store.open('2099-03-28');
    store.shift(1);
    expect(store.$calendar.get()).toEqual({ month: '2099-04-01', focusDay: '2099-04-01' });
    store.shift(-2);
    expect(store.$calendar.get().month).toBe('2099-02-01');
  });

  it('keeps the keyboard’s focus day in the months shown', () => {
    const store = bookingStore();
    store.open('2099-03-28');
    store.moveTo('2099-04-04', 2);
    expect(store.$calendar.get()).toEqual({ month: '2099-03-01', focusDay: '2099-04-04' });
    store.moveTo('2099-05-01', 2);
    expect(store.$calendar.get()).toEqual({ month: '2099-04-01', focusDay: '2099-05-01' });
    store.moveTo('2099-03-31', 1);
    expect(store.$calendar.get()).toEqual({ month: '2099-03-01', focusDay: '2099-03-31' });
  });
});
