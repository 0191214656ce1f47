/**
 * The `bookStay` action with Astro's own session against the contract mock: the booking embed's
 * frame on a partner's page keeps no cookie, so a session stored for its booking is never read
 * again and only fills the store (Redis or files) until it expires. Its bookings store none; a
 * retried booking still books once (its idempotency key), and the site's own booking still keeps
 * the browser's id (the same-stay guard of book-again.test.ts).
 */
import { createStorage } from 'unstorage';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
// Astro's own session and cookies (not exported by name): what a booking stores is theirs to keep.
import {
  AstroSession,
  PERSIST_SYMBOL,
} from '../../../node_modules/astro/dist/core/session/runtime.js';
import { AstroCookies } from '../../../node_modules/astro/dist/core/cookies/index.js';
import type { StepState } from '../../../src/lib/booking/steps/flow.ts';
import { day } from '../../fixtures/dates.ts';
import { demo, startTestMock, type Mock } from '../harness.ts';
import { HARBOUR_VIEW, STANDARD_DOUBLE } from './fixture.ts';

type Actions = typeof import('../../../src/actions/booking.ts');
type Registry = typeof import('../../../src/lib/tenants/registry.ts');

let mock: Mock;
let actions: Actions;
let registry: Registry;

beforeAll(async () => {
  mock = await startTestMock({ lodgingPerMinute: 0 });
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('HARBOUR_LODGING_TOKEN', demo.lodging['harbour-hotels']!.fullToken);
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../../src/lib/tenants/registry.ts');
  actions = await import('../../../src/actions/booking.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

const ORIGIN = 'http://harbour-times.localhost';

/** "Book" pressed on `pathname` by a browser that sends no cookie; the store after it. */
async function book(
  storage: ReturnType<typeof createStorage>,
  pathname: '/embed/booking' | '/stay',
  values: Record<string, string>,
): Promise<StepState> {
  const tenant = registry.getTenants().find((t) => t.id === 'harbour-times')!;
  const request = new Request(`${ORIGIN}${pathname}?_action=bookStay`, { method: 'POST' });
  const session = new AstroSession({
    cookies: new AstroCookies(request, console),
    config: { driver: 'memory' },
    runtimeMode: 'production',
    mockStorage: storage,
    logger: console,
  } as never);
  const embed = pathname === '/embed/booking';
  const context = {
    session,
    locals: {
      tenant,
      tenantMatchOrNull: { tenant, pathname, origin: ORIGIN },
      visitor: { address: '203.0.113.9', local: false, origin: ORIGIN },
      // What the middleware sets for a request inside the embed's frame.
      ...(embed && { embedAncestors: "'self' https://partner.example" }),
    },
  };
  const form = new FormData();
  form.set('intent', 'book');
  for (const [name, value] of Object.entries(values)) form.set(name, value);
  const answer: StepState = await actions.bookingActions.bookStay.orThrow.call(context, form);
  await (session as unknown as Record<symbol, () => Promise<void>>)[PERSIST_SYMBOL]!();
  return answer;
}

const stay = (key: string, checkIn: number) => ({
  idempotencyKey: key.padEnd(32, '0'),
  propertyId: HARBOUR_VIEW,
  checkIn: day(checkIn),
  checkOut: day(checkIn + 2),
  adults: '2',
  children: '0',
  roomTypeId: STANDARD_DOUBLE,
  firstName: 'Katherine',
  lastName: 'Johnson',
  email: `katherine.${key}.${Date.now()}@example.com`,
  phone: '',
  nationality: '',
  notes: '',
});

describe("the embed's bookings and the session store", () => {
  it('stores no session for a booking in the frame, and a retried booking books once', async () => {
    const storage = createStorage();
    const review = stay('embedsession', 320);
    const booked = await book(storage, '/embed/booking', review);
    expect(booked.step).toBe('done');
    expect(await storage.getKeys()).toEqual([]);

    // The answer was lost (the frame's connection dropped): Book again sends the same key.
    const retried = await book(storage, '/embed/booking', review);
    expect(retried.step).toBe('done');
    expect(retried.booked?.confirmation.reference).toBe(booked.booked?.confirmation.reference);
    expect(await storage.getKeys()).toEqual([]);
  });

  it("still keeps the site's browser id, which guards its Back after booking", async () => {
    const storage = createStorage();
    expect((await book(storage, '/stay', stay('sitesession', 330))).step).toBe('done');
    expect(await storage.getKeys()).toHaveLength(1);
  });
});
