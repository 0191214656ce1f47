import { describe, expect, it } from 'vitest';
import { createBooking, restoredStep } from '../../../src/lib/booking/browser/booking.store.ts';
import type { BookingStorage, SavedState } from '../../../src/lib/booking/browser/booking.store.ts';
import { config, fakeApi, offers, toReview } from '../../fixtures/booking-store.ts';

function memory(): BookingStorage {
  let saved: SavedState | null = null;
  return { load: () => saved, save: (state) => (saved = state) };
}

describe('steps and the browser history', () => {
  it('Back (goTo an earlier step) returns to any earlier step and keeps what was typed', async () => {
    const booking = createBooking(config, fakeApi());
    await toReview(booking);
    expect(booking.$booking.get().step).toBe('review');
    await booking.goTo('details');
    expect(booking.$booking.get().step).toBe('details');
    await booking.goTo('dates');
    expect(booking.$booking.get()).toMatchObject({
      step: 'dates',
      draft: { checkIn: '2099-03-28', firstName: 'Ada', roomTypeId: 'double' },
    });
  });

  it('Forward goes to the next step only through its checks', async () => {
    const booking = createBooking(config, fakeApi());
    await booking.goTo('guests');
    expect(booking.$booking.get().step).toBe('dates');
    expect(booking.$booking.get().errors['checkIn']).toBeDefined();
    booking.update('checkIn', '2099-03-28');
    booking.update('checkOut', '2099-03-30');
    await booking.goTo('rooms');
    expect(booking.$booking.get().step).toBe('dates');
    await booking.goTo('guests');
    expect(booking.$booking.get().step).toBe('guests');
  });

  it('Back from the done step shows the review, and booking again sends the same key', async () => {
    const api = fakeApi();
    const booking = createBooking(config, api);
    await toReview(booking);
    await booking.next();
    expect(booking.$booking.get().step).toBe('done');
    await booking.goTo('review');
    expect(booking.$booking.get().step).toBe('review');
    await booking.next();
    const keys = api.book.mock.calls.map(([request]) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it.each(['guests', 'rooms', 'details', 'review'] as const)(
    'a reload on the %s step returns to it with the typed values',
    async (step) => {
      const storage = memory();
      const booking = createBooking(config, fakeApi(), storage);
      await toReview(booking);
      await booking.goTo(step);
      booking.update('notes', 'Late arrival');
      const reloaded = createBooking(config, fakeApi(), storage);
      expect(reloaded.$booking.get()).toMatchObject({
        step,
        draft: { notes: 'Late arrival', firstName: 'Ada' },
      });
    },
  );

  it('a reload returns to the guests step when the rooms shown were not kept', () => {
    const draft = createBooking(config, fakeApi()).$booking.get().draft;
    const saved = { draft, offers: null, confirmation: null, idempotencyKey: 'k'.repeat(16) };
    expect(restoredStep({ ...saved, step: 'details' })).toBe('guests');
    expect(restoredStep({ ...saved, step: 'done' })).toBe('guests');
    expect(restoredStep({ ...saved, step: 'guests' })).toBe('guests');
    expect(restoredStep({ ...saved, step: 'nonsense' as 'dates' })).toBe('dates');
    expect(restoredStep({ ...saved, offers, step: 'done' })).toBe('review');
  });
});
