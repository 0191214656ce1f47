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
let clients: Clients;
let harbour: Tenant;

beforeAll(async () => {
  mock = await startTestMock({ lodgingPerMinute: 0 });
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
});
