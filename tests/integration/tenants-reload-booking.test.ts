/**
 * A reload of the tenants file during a booking, with the site's own wiring (services/clients.ts)
 * against the contract mock and without Redis: the tenant changed (a new tenant object, so a new
 * booking service), the guest's second tab or second press of "Book" comes after it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Tenant } from '../../src/lib/tenants/schema.ts';
import { demo, startTestMock, type Mock } from './harness.ts';
import { bookingsIn, day, request } from './booking/fixture.ts';

type Clients = typeof import('../../src/lib/services/clients.ts');

let mock: Mock;
/** Another lodging API (the same seed, so the same token and property), for a tenant that moves. */
let other: Mock;
let clients: Clients;
let harbour: Tenant;

beforeAll(async () => {
  mock = await startTestMock({ lodgingPerMinute: 0 });
  other = await startTestMock({ lodgingPerMinute: 0 });
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('HARBOUR_LODGING_TOKEN', demo.lodging['harbour-hotels']!.fullToken);
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  // Read after the environment is set: the registry applies the upstream overrides as it loads.
  const registry = await import('../../src/lib/tenants/registry.ts');
  harbour = registry.getTenants().find((tenant) => tenant.id === 'harbour-times')!;
  clients = await import('../../src/lib/services/clients.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
  await other.close();
});

/** The tenant as a reload that changed it hands it out: a new object with the same id. */
const reloaded = (tenant: Tenant): Tenant => ({
  ...structuredClone(tenant),
  name: 'Harbour Times',
});

describe('a reload of the tenants file during a booking', () => {
  it('turns away the same stay from a second tab after the reload, as it would before', async () => {
    const input = request({ checkIn: day(300), checkOut: day(302) });
    await clients.bookingServiceFor(harbour).book(input);
    const after = clients.bookingServiceFor(reloaded(harbour));
    const secondTab = { ...input, idempotencyKey: 'secondtabafterreload0000' };
    await expect(after.book(secondTab)).rejects.toMatchObject({ error: { code: 'same_stay' } });
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
  });

  it('books once when "Book" is pressed twice around the reload', async () => {
    const input = request({ checkIn: day(310), checkOut: day(312) });
    const [first, second] = await Promise.all([
      clients.bookingServiceFor(harbour).book(input),
      clients.bookingServiceFor(reloaded(harbour)).book(input),
    ]);
    expect(second.reference).toBe(first.reference);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
  });

  it('after the tenant moves to another lodging API, a stay booked at the old one does not turn it away there', async () => {
    const input = request({ checkIn: day(320), checkOut: day(322) });
    await clients.bookingServiceFor(harbour).book(input);
    const moved = reloaded(harbour);
    moved.lodging = { ...moved.lodging!, baseUrl: other.lodgingUrl };
    // The guest's second tab, now on the new API: nothing is booked there yet.
    const secondTab = { ...input, idempotencyKey: 'secondtabaftermove000000' };
    const booked = await clients.bookingServiceFor(moved).book(secondTab);
    expect(bookingsIn(other, input.email, input.checkIn, input.checkOut)).toEqual([
      expect.objectContaining({ reference: booked.reference }),
    ]);
  });

  it('the same API under a new address books once for "Book" pressed again across the move', async () => {
    const input = request({ checkIn: day(330), checkOut: day(332) });
    const first = await clients.bookingServiceFor(harbour).book(input);
    const renamed = reloaded(harbour);
    renamed.lodging = {
      ...renamed.lodging!,
      baseUrl: mock.lodgingUrl.replace('127.0.0.1', 'localhost'),
    };
    // Found again by its key's mark in the bookings, not booked a second time.
    const again = await clients.bookingServiceFor(renamed).book(input);
    expect(again.reference).toBe(first.reference);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
  });
});
