import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import { textKey } from '../../../src/lib/i18n/text-key.ts';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import { stepFlow } from '../../../src/lib/booking/steps/flow.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { demo, startTestMock, type Mock } from '../harness.ts';
import { HARBOUR_VIEW, STANDARD_DOUBLE, request } from './fixture.ts';

// "Today" for a stay is the property's (its lodging `timezone`), else the tenant's: a property
// ahead of the tenant does not take yesterday's check-in, one behind takes its own today. The
// clock is fixed in 2030, so the mock (which checks against its real UTC date) takes both dates.
let mock: Mock;
const TOKEN = demo.lodging['harbour-hotels']!.fullToken;
// 05:00 UTC: 2 June in Amsterdam (UTC+2), still 1 June in Los Angeles (UTC-7).
const NOW = new Date('2030-06-02T05:00:00Z');

function service(tenantZone: string) {
  const tenant = buildTenant({
    id: 'harbour-times',
    timeZone: tenantZone,
    features: { booking: true },
    lodging: {
      baseUrl: mock.lodgingUrl,
      tokenEnv: 'TEST_LODGING_TOKEN',
      propertyIds: [HARBOUR_VIEW],
      maxNights: 21,
    },
  });
  return bookingService(tenant, {
    credentials: () => ({ token: TOKEN }),
    upstream: createUpstream({}),
    now: () => NOW,
  });
}

function placeIn(zone: string): void {
  const property = mock.state.lodging.properties.find((p) => p.id === HARBOUR_VIEW);
  if (!property) throw new Error('no Harbour View in the mock');
  property.timezone = zone;
}

const search = (checkIn: string) => ({
  property: HARBOUR_VIEW,
  checkIn,
  checkOut: '2030-06-04',
  adults: 2,
  children: 0,
});

const refusal = (run: Promise<unknown>) =>
  run.then(
    () => undefined,
    (error: unknown) => (error instanceof BookingFailure ? error.error : error),
  );

beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(() => mock?.close());

describe('a stay’s today', () => {
  it('a property ahead of the tenant refuses the day before its today', async () => {
    placeIn('Europe/Amsterdam');
    const site = service('America/Los_Angeles');
    const searched = await refusal(site.availability(search('2030-06-01')));
    expect(searched).toMatchObject({
      code: 'validation',
      fields: { checkIn: [textKey('booking.error.checkInPast')] },
    });
    // A link with that check-in is stale (dropped, with a notice); typed, the field says why.
    const linked = new URLSearchParams(
      Object.entries({ property: HARBOUR_VIEW, checkIn: '2030-06-01', checkOut: '2030-06-04' }),
    );
    const link = await stepFlow(linked, site, HARBOUR_VIEW);
    expect(link.stale).toEqual({ checkIn: '2030-06-01', checkOut: '2030-06-04' });
    linked.set('step', 'guests');
    const typed = await stepFlow(linked, site, HARBOUR_VIEW);
    expect(typed.errors['checkIn']).toEqual([textKey('booking.error.checkInPast')]);
    const booked = await refusal(
      site.book(request({ checkIn: '2030-06-01', checkOut: '2030-06-04' })),
    );
    expect(booked).toMatchObject({
      code: 'validation',
      fields: { checkIn: [textKey('booking.error.checkInPast')] },
    });
  });

  it('a property behind the tenant takes its own today', async () => {
    placeIn('America/Los_Angeles');
    const site = service('Europe/Amsterdam');
    const offers = await site.availability(search('2030-06-01'));
    expect(offers.rooms.some((room) => room.roomTypeId === STANDARD_DOUBLE)).toBe(true);
    const linked = new URLSearchParams(
      Object.entries({ property: HARBOUR_VIEW, checkIn: '2030-06-01', checkOut: '2030-06-04' }),
    );
    linked.set('step', 'rooms');
    const rooms = await stepFlow(linked, site, HARBOUR_VIEW);
    expect([rooms.step, rooms.stale]).toEqual(['rooms', undefined]);
    const booked = await site.book(request({ checkIn: '2030-06-01', checkOut: '2030-06-04' }));
    expect(booked.checkIn).toBe('2030-06-01');
  });

  it('a property without a time zone keeps the tenant’s today', async () => {
    placeIn('');
    const ahead = await refusal(service('Europe/Amsterdam').availability(search('2030-06-01')));
    expect(ahead).toMatchObject({ fields: { checkIn: [textKey('booking.error.checkInPast')] } });
    const behind = await service('America/Los_Angeles').availability(search('2030-06-01'));
    expect(behind.rooms.length).toBeGreaterThan(0);
  });
});
