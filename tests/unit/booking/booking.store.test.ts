import { describe, expect, it, vi } from 'vitest';
import { createBooking } from '../../../src/lib/booking/browser/booking.store.ts';
import type {
  BookingApi,
  BookingConfig,
  BookingStorage,
  SavedState,
} from '../../../src/lib/booking/browser/booking.store.ts';
import type { ApiResult, Confirmation } from '../../../src/lib/booking/types.ts';
import { config, confirmation, fakeApi, PROPERTY, toReview } from '../../fixtures/booking-store.ts';
import { english } from '../../fixtures/english.ts';

describe('the booking store', () => {
  it("holds the details step to the lodging API's field rules from tenants.json", async () => {
    const strict: BookingConfig = {
      ...config,
      fields: { phone: { required: true }, notes: { maxLength: 500 } },
    };
    const booking = createBooking(strict, fakeApi());
    await toReview(booking);
    expect(english(booking.$booking.get())).toMatchObject({
      step: 'details',
      errors: { phone: ['Enter a phone number.'] },
    });
    booking.update('phone', '+44 20 7946 0958');
    booking.update('notes', 'x'.repeat(501));
    await booking.next();
    expect(english(booking.$booking.get().errors['notes'])).toEqual([
      'Keep the notes under 500 characters.',
    ]);
    booking.update('notes', 'Late arrival.');
    await booking.next();
    expect(english(booking.$booking.get().step)).toBe('review');
  });

  it('walks dates → guests → rooms → details → review → done', async () => {
    const api = fakeApi();
    const booking = createBooking(config, api);
    const steps: string[] = [];
    booking.$booking.subscribe((s) => {
      if (steps.at(-1) !== s.step) steps.push(s.step);
    });
    await toReview(booking);
    await booking.next();
    expect(steps).toEqual(['dates', 'guests', 'rooms', 'details', 'review', 'done']);
    expect(api.availability).toHaveBeenCalledWith({
      property: PROPERTY,
      checkIn: '2099-03-28',
      checkOut: '2099-03-30',
      adults: 2,
      children: 0,
    });
    expect(english(booking.$booking.get().confirmation?.reference)).toBe('BK-ABC123');
  });

  it('stops each step on invalid input with field messages', async () => {
    const booking = createBooking(config, fakeApi());
    await booking.next();
    expect(english(booking.$booking.get())).toMatchObject({
      step: 'dates',
      errors: { checkIn: ['Choose a check-in date.'], checkOut: ['Choose a check-out date.'] },
    });
    booking.update('checkIn', '2026-02-01');
    booking.update('checkOut', '2026-02-03');
    await booking.next();
    expect(english(booking.$booking.get().errors['checkIn'])).toEqual([
      'Check-in cannot be in the past.',
    ]);
    booking.update('checkIn', '2099-03-28');
    booking.update('checkOut', '2099-03-30');
    await booking.next();
    booking.update('adults', '');
    await booking.next();
    expect(english(booking.$booking.get())).toMatchObject({
      step: 'guests',
      errors: { adults: [expect.any(String)] },
    });
    booking.update('adults', '2');
    booking.update('children', '2');
    await booking.next();
    expect(english(booking.$booking.get().errors['children'])).toEqual([
      'Our rooms take at most 1 child.',
    ]);
    booking.update('children', '0');
    await booking.next();
    booking.update('roomTypeId', 'suite');
    await booking.next();
    expect(english(booking.$booking.get().errors['roomTypeId'])).toEqual([
      'This room is not available. Please choose another.',
    ]);
  });

  it('clears a field message as soon as the field changes', async () => {
    const booking = createBooking(config, fakeApi());
    await booking.next();
    booking.update('checkIn', '2099-03-28');
    expect(Object.keys(booking.$booking.get().errors)).toEqual(['checkOut']);
  });

  it('moves check-out when check-in passes it', () => {
    const booking = createBooking(config, fakeApi());
    booking.update('checkIn', '2099-03-28');
    booking.update('checkOut', '2099-03-30');
    booking.update('checkIn', '2099-04-02');
    expect(english(booking.$booking.get().draft.checkOut)).toBe('2099-04-03');
  });

  it('sends one booking for a double click, with the same idempotency key on retry', async () => {
    let resolve: (value: ApiResult<Confirmation>) => void = () => {};
    const api = fakeApi({
      book: vi.fn<BookingApi['book']>(
        () => new Promise<ApiResult<Confirmation>>((r) => (resolve = r)),
      ),
    });
    const booking = createBooking(config, api);
    await toReview(booking);
    const first = booking.next();
    const second = booking.next();
    expect(english(booking.$booking.get().pending)).toBe(true);
    resolve({ ok: true, data: confirmation });
    await Promise.all([first, second]);
    expect(api.book).toHaveBeenCalledTimes(1);
  });

  it('keeps every field after an outage, and retries with the same key', async () => {
    const api = fakeApi({
      book: vi
        .fn<BookingApi['book']>()
        .mockResolvedValueOnce({
          ok: false,
          error: {
            code: 'unavailable',
            message: 'Booking is temporarily unavailable.',
            retryAfter: 10,
          },
        })
        .mockRejectedValueOnce(new TypeError('Failed to fetch'))
        .mockResolvedValueOnce({ ok: true, data: confirmation }),
    });
    const booking = createBooking(config, api);
    await toReview(booking);
    const draft = booking.$booking.get().draft;
    await booking.next();
    expect(english(booking.$booking.get())).toMatchObject({
      step: 'review',
      draft,
      message: 'Booking is temporarily unavailable.',
      retryable: true,
      pending: false,
    });
    await booking.retry();
    expect(english(booking.$booking.get().message)).toMatch(/could not reach/);
    await booking.retry();
    expect(english(booking.$booking.get().step)).toBe('done');
    const keys = api.book.mock.calls.map(([request]) => request.idempotencyKey);
    expect(new Set(keys).size).toBe(1);
  });

  it('uses a new key once the visitor changes the booking', async () => {
    const api = fakeApi({
      book: vi.fn<BookingApi['book']>().mockResolvedValue({
        ok: false,
        error: { code: 'busy', message: 'Busy, try again in 5 s.', retryAfter: 5 },
      }),
    });
    const booking = createBooking(config, api);
    await toReview(booking);
    await booking.next();
    booking.back();
    booking.update('notes', 'Late arrival');
    await booking.next();
    await booking.next();
    const [first, second] = api.book.mock.calls.map(([request]) => request.idempotencyKey);
    expect(first).not.toBe(second);
  });

  it('maps server field messages to their step (a taken room reloads the rooms)', async () => {
    const api = fakeApi({
      book: vi.fn<BookingApi['book']>().mockResolvedValue({
        ok: false,
        error: {
          code: 'validation',
          message: 'Please check the highlighted fields.',
          fields: {
            roomTypeId: ['This room is no longer free for these dates. Please choose another.'],
          },
        },
      }),
    });
    const booking = createBooking(config, api);
    await toReview(booking);
    await booking.next();
    expect(english(booking.$booking.get())).toMatchObject({
      step: 'rooms',
      errors: { roomTypeId: [expect.stringContaining('no longer free')] },
    });
    expect(api.availability).toHaveBeenCalledTimes(2);

    api.book.mockResolvedValue({
      ok: false,
      error: { code: 'validation', message: 'x', fields: { email: ['The email is invalid.'] } },
    });
    booking.update('roomTypeId', 'double');
    await booking.next();
    await booking.next();
    await booking.next();
    expect(english(booking.$booking.get())).toMatchObject({
      step: 'details',
      errors: { email: ['The email is invalid.'] },
    });
  });

  it('restores a confirmation after a reload without sending anything', async () => {
    let saved: SavedState | null = null;
    const storage: BookingStorage = { load: () => saved, save: (state) => (saved = state) };
    const api = fakeApi();
    const booking = createBooking(config, api, storage);
    await toReview(booking);
    await booking.next();
    const reloaded = createBooking(config, fakeApi(), storage);
    expect(reloaded.$booking.get()).toMatchObject({ step: 'done', confirmation });
    reloaded.restart();
    expect(reloaded.$booking.get()).toMatchObject({ step: 'dates', confirmation: null });
    expect(reloaded.$booking.get().draft.propertyId).toBe(PROPERTY);
  });

  it('a link to another stay starts afresh; the same link reloaded keeps the progress', async () => {
    let saved: SavedState | null = null;
    const storage: BookingStorage = { load: () => saved, save: (state) => (saved = state) };
    const link = { ...config, initial: { checkIn: '2099-03-28', checkOut: '2099-03-30' } };
    const booking = createBooking(link, fakeApi(), storage);
    await toReview(booking);
    expect(createBooking(link, fakeApi(), storage).$booking.get().step).toBe('review');

    const campaign = {
      ...config,
      initial: { checkIn: '2099-05-01', checkOut: '2099-05-04', adults: 3 },
    };
    const fresh = createBooking(campaign, fakeApi(), storage).$booking.get();
    expect(fresh.step).toBe('dates');
    expect(fresh.draft).toMatchObject({ checkIn: '2099-05-01', checkOut: '2099-05-04', adults: 3 });
  });
});
