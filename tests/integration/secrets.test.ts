/**
 * The site's own wiring (src/lib/services/clients.ts) with every secret in one SECRETS_FILE and no
 * token variable, against the contract mock on free ports: the e-paper list and an anonymous
 * visitor's edition go out with the tenant's read token (its own budget), and harbour-times books
 * with the lodging token from the file.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishingClient } from '../../src/lib/publishing/client.ts';
import { budgetKeys } from '../../src/lib/upstream/budget.ts';
import { createUpstream } from '../../src/lib/upstream/runtime.ts';
import { day } from '../fixtures/dates.ts';
import { ctl, demo, PASSWORD, startTestMock, type Mock } from './harness.ts';

type Clients = typeof import('../../src/lib/services/clients.ts');
type Registry = typeof import('../../src/lib/tenants/registry.ts');

let mock: Mock;
let dir: string;
let clients: Clients;
let registry: Registry;
const harbour = () => registry.getTenants().find((tenant) => tenant.id === 'harbour-times')!;

/** A harbour-times account's token, through a client of its own (not the site's budget). */
async function tokenOf(email: string): Promise<string> {
  const client = publishingClient({
    tenantId: 'harbour-times',
    baseUrl: mock.publishingUrl,
    upstream: createUpstream({}),
  });
  return (await client.login(email, PASSWORD)).token;
}

beforeAll(async () => {
  mock = await startTestMock();
  dir = mkdtempSync(join(tmpdir(), 'masthead-secrets-it-'));
  const file = join(dir, 'secrets.json');
  // The read token of an account that may read every edition: the worst case for a leak.
  writeFileSync(
    file,
    JSON.stringify({
      'harbour-times': {
        publishingReadToken: await tokenOf('admin@masthead.test'),
        lodgingToken: demo.lodging['harbour-hotels']!.fullToken,
      },
    }),
  );
  chmodSync(file, 0o600);
  vi.stubEnv('SECRETS_FILE', file);
  vi.stubEnv('HARBOUR_LODGING_TOKEN', '');
  vi.stubEnv('ALPINE_LODGING_TOKEN', '');
  vi.stubEnv('PURGE_SECRETS', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  // Read after the environment is set: the registry applies the upstream overrides as it loads.
  registry = await import('../../src/lib/tenants/registry.ts');
  clients = await import('../../src/lib/services/clients.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
  await mock.close();
});

describe('the e-paper with a read token in SECRETS_FILE', () => {
  it('lists editions with the token, from its own budget, while anonymous calls are refused', async () => {
    const tenant = harbour();
    const up = clients.siteUpstream();
    const tokenBucket = clients.publishingBudgetKey(tenant);
    const anonymousBucket = budgetKeys.publishingPublic(tenant.publishing.baseUrl);
    expect(tokenBucket.kind).toBe('publishing-token');
    const before = {
      token: (await up.budget.standing(tokenBucket)).remaining,
      anonymous: (await up.budget.standing(anonymousBucket)).remaining,
    };
    // The mock refuses every call without a token: only one that carries it gets an answer.
    await ctl.limits(mock, { publicPerMinute: 0 });
    try {
      const list = await clients.publishingFor(tenant).listEditions({ page: 1, perPage: 12 });
      expect(list.items.length).toBeGreaterThan(0);
      // The admin's token may read every edition; the shared list still says which are paid.
      const paid = list.items.filter((edition) => !edition.is_free);
      expect(paid.length).toBeGreaterThan(0);
      expect(paid.every((edition) => edition.requires_subscription)).toBe(true);

      // An anonymous visitor's paid edition: read with the token too, and without its pages.
      const edition = await clients.publishingFor(tenant).getEdition(paid[0]!.slug);
      expect(edition.requires_subscription).toBe(true);
      expect(edition.pages).toEqual([]);
    } finally {
      await ctl.limits(mock, { publicPerMinute: 60 });
    }
    expect((await up.budget.standing(tokenBucket)).remaining).toBe(before.token - 2);
    expect((await up.budget.standing(anonymousBucket)).remaining).toBe(before.anonymous);
  });

  it("keeps a signed-in subscriber's edition their own: pages for them, none for the shared copy", async () => {
    const tenant = harbour();
    const list = await clients.publishingFor(tenant).listEditions({ page: 1, perPage: 12 });
    const paid = list.items.find((edition) => !edition.is_free)!;
    const subscriber = await tokenOf('subscriber@masthead.test');
    const own = await clients.publishingFor(tenant, subscriber).getEdition(paid.slug);
    expect(own.pages.length).toBeGreaterThan(0);
    expect((await clients.publishingFor(tenant).getEdition(paid.slug)).pages).toEqual([]);
  });
});

describe('booking with the lodging token from SECRETS_FILE only', () => {
  it('books a stay on harbour-times', async () => {
    const before = (await ctl.stats(mock)).lodging.routes['POST /bookings'] ?? 0;
    const service = clients.bookingServiceFor(harbour());
    const property = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
    const stay = { property, checkIn: day(330), checkOut: day(332), adults: 2, children: 0 };
    const offers = await service.availability(stay);
    const room = offers.rooms.find((offer) => offer.available)!;
    const booked = await service.book({
      idempotencyKey: `secrets${Math.random().toString(36).slice(2)}00000000`,
      propertyId: property,
      roomTypeId: room.roomTypeId,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      adults: 2,
      children: 0,
      firstName: 'Sam',
      lastName: 'Secret',
      email: `sam.${Math.random().toString(36).slice(2)}@example.com`,
      phone: '+44 20 7946 0958',
      nationality: 'GB',
      notes: '',
    });
    expect(booked.reference).toMatch(/^BK-/);
    expect((await ctl.stats(mock)).lodging.routes['POST /bookings']).toBe(before + 1);
  });
});
