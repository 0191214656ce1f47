import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import type { PropertySummary } from '../../../src/lib/booking/service/lodging-shapes.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { ValidationError } from '../../../src/lib/upstream/errors.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// A stay whose check-in day has begun where the property is (or, when the lodging API names no
// time zone, where the tenant is) is no longer cancelled from the manage link: the page offers no
// cancel, and a cancel posted from a tab opened before is refused, the lodging API never asked.
const PLACE = '2f7e65da-5ffa-5e37-b3a8-dd6d533190d1';
const tenant = buildTenant({
  id: 'begun-test',
  hosts: ['begun.example.com'],
  timeZone: 'Pacific/Pago_Pago', // UTC-11
  features: { booking: true },
  lodging: { baseUrl: 'http://lodging.invalid/api/v1', tokenEnv: 'X', propertyIds: [PLACE] },
});
const place = (timeZone?: string): PropertySummary => ({
  id: PLACE,
  name: 'Edelweiss Lodge',
  currency: 'CHF',
  city: 'Bergheim',
  roomTypes: [],
  capacity: { maxAdults: 2, maxChildren: 0, maxOccupancy: 2 },
  ...(timeZone ? { timeZone } : {}),
});
let booking = {
  id: 7,
  reference: 'BK-BEGUN1',
  property_id: PLACE,
  room_type_id: 'r',
  check_in: '2030-06-02',
  check_out: '2030-06-04',
  status: 'confirmed',
  adults: 2,
  children: 0,
};
const cancelBooking = vi.fn((): Promise<unknown> => Promise.resolve(undefined));
let property = place();

vi.mock('../../../src/lib/services/clients.ts', () => ({
  bookingServiceFor: () => ({
    tenant,
    property: () => Promise.resolve(property),
    namedBooking: () => Promise.resolve(booking),
    cancelBooking,
    mailCancellation: () => Promise.resolve(false),
  }),
}));

const { cancelManagedStay, loadManagedStay, managePath } =
  await import('../../../src/lib/booking/manage/stay.ts');
const { manageView } = await import('../../../src/lib/booking/manage/view.ts');

const locals = {
  tenantMatchOrNull: {
    tenant,
    via: 'host',
    basePath: '',
    pathname: '/',
    origin: 'https://begun.example.com',
  },
} as unknown as App.Locals;
const token = managePath(tenant.id, {
  propertyId: PLACE,
  checkIn: booking.check_in,
  reference: booking.reference,
})
  .split('/')
  .at(-1)!;
const english = createI18n('en-GB', 'UTC');

beforeEach(() => {
  // 12:00 UTC: already 2 June on Kiritimati (UTC+14), still 1 June in Pago Pago (UTC-11).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-06-01T12:00:00Z'));
  cancelBooking.mockClear();
});
afterEach(() => vi.useRealTimers());

describe('cancelling a stay that has begun', () => {
  it('is offered until the check-in day begins where the property is', async () => {
    property = place('Pacific/Kiritimati');
    const begun = await loadManagedStay(locals, token);
    expect(manageView(begun as never, english).cancellable).toBe(false);
    expect(manageView(begun as never, english).begun).toBe(true);
    property = place('Pacific/Pago_Pago');
    expect(manageView((await loadManagedStay(locals, token)) as never, english).cancellable).toBe(
      true,
    );
  });

  it('uses the tenant’s time zone when the property names none', async () => {
    property = place();
    expect(manageView((await loadManagedStay(locals, token)) as never, english).cancellable).toBe(
      true,
    );
    vi.setSystemTime(new Date('2030-06-02T11:30:00Z')); // 00:30 on 2 June in Pago Pago
    expect(manageView((await loadManagedStay(locals, token)) as never, english).cancellable).toBe(
      false,
    );
  });

  it('a cancel posted from a stale tab is refused with a clear message, the lodging API never asked', async () => {
    property = place('Pacific/Kiritimati');
    const refused = await cancelManagedStay(locals, token).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BookingFailure);
    expect(english.t('manage.begun')).toMatch(/begun/);
    expect((refused as BookingFailure).message).toContain('manage.begun');
    expect(cancelBooking).not.toHaveBeenCalled();
  });
});

describe('cancelling a stay the lodging API no longer holds open', () => {
  const confirmed = booking;
  afterEach(() => {
    booking = confirmed;
    cancelBooking.mockImplementation(() => Promise.resolve(undefined));
  });

  it('a stay the hotel marked a no-show meanwhile (a stale tab) is refused without asking the API', async () => {
    property = place('Pacific/Pago_Pago');
    booking = {
      ...confirmed,
      check_in: '2030-07-01',
      check_out: '2030-07-03',
      status: 'no_show',
    };
    const refused = await cancelManagedStay(locals, token).catch((error: unknown) => error);
    expect((refused as BookingFailure).message).toContain('manage.cancelRefused');
    expect(cancelBooking).not.toHaveBeenCalled();
  });

  it('the API refusing the cancel (422) says so plainly, not "check your details"', async () => {
    property = place('Pacific/Pago_Pago');
    booking = { ...confirmed, check_in: '2030-07-01', check_out: '2030-07-03' };
    cancelBooking.mockImplementation(() =>
      Promise.reject(
        new ValidationError(
          '422',
          { service: 'lodging', operation: 'bookings.cancel', status: 422 },
          {
            status: ['The status cannot change from confirmed to cancelled.'],
          },
        ),
      ),
    );
    const refused = await cancelManagedStay(locals, token).catch((error: unknown) => error);
    expect((refused as BookingFailure).message).toContain('manage.cancelRefused');
    for (const locale of ['en-GB', 'de-CH', 'fr-CH'])
      expect(createI18n(locale, 'UTC').t('manage.cancelRefused')).not.toContain('manage.');
  });
});
