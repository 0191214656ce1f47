/**
 * The booking page's drafts (src/lib/booking/steps/page.ts) with the site's own wiring against the
 * contract mock: one visitor, two tabs, two stays. What each tab posted is shown again by its own
 * address, never the other tab's details and dates.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StepState } from '../../../src/lib/booking/steps/flow.ts';
import { textKey } from '../../../src/lib/i18n/text-key.ts';
import { STEP_HEADER } from '../../../src/lib/booking/steps/address.ts';
import { stepQuery } from '../../../src/lib/booking/steps/flow.ts';
import { day } from '../../fixtures/dates.ts';
import { confirmation } from '../../fixtures/booking.ts';
import { demo, startTestMock, type Mock } from '../harness.ts';
import { HARBOUR_VIEW, STANDARD_DOUBLE } from './fixture.ts';

const SEA_VIEW_SUITE = '7a59e438-e83e-5135-aaac-e0df7c6f00a8';

type Page = typeof import('../../../src/lib/booking/steps/page.ts');
type Registry = typeof import('../../../src/lib/tenants/registry.ts');

let mock: Mock;
let page: Page;
let registry: Registry;
const harbour = () => registry.getTenants().find((tenant) => tenant.id === 'harbour-times')!;

beforeAll(async () => {
  mock = await startTestMock({ lodgingPerMinute: 0 });
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('HARBOUR_LODGING_TOKEN', demo.lodging['harbour-hotels']!.fullToken);
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  // Read after the environment is set: the registry applies the upstream overrides as it loads.
  registry = await import('../../../src/lib/tenants/registry.ts');
  page = await import('../../../src/lib/booking/steps/page.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

/** One visitor's session (what Astro keeps between requests), shared by the visitor's tabs. */
function visitor() {
  const stored = new Map<string, unknown>();
  return {
    get: (key: string) => Promise.resolve(structuredClone(stored.get(key))),
    set: (key: string, value: unknown) => void stored.set(key, structuredClone(value)),
    has: (key: string) => Promise.resolve(stored.has(key)),
    delete: (key: string) => void stored.delete(key),
  };
}

/** A request to /stay as the page hands it to `stepRequest`. */
function request(
  session: ReturnType<typeof visitor>,
  method: string,
  address = '/stay',
  headers: Record<string, string> = {},
) {
  const tenant = harbour();
  const url = new URL(address, 'http://harbour-times.localhost');
  return {
    locals: { tenant, tenantMatchOrNull: { tenant }, href: (path: string) => path },
    url,
    request: new Request(url, { method, headers }),
    session,
    // A browser that keeps cookies: it sends back the check the details step set.
    cookies: { has: () => true, set: () => undefined },
    redirect: (to: string, status: number) =>
      new Response(null, { status, headers: { Location: to } }),
  } as unknown as Parameters<Page['stepRequest']>[0];
}

/** What the action answers for "Review" with these details (kept for the review's GET). */
function reviewed(firstName: string, checkIn: string, checkOut: string): StepState {
  return {
    step: 'review',
    values: {
      idempotencyKey: `${firstName.toLowerCase()}${'0'.repeat(30)}`,
      propertyId: HARBOUR_VIEW,
      checkIn,
      checkOut,
      adults: '2',
      children: '0',
      roomTypeId: STANDARD_DOUBLE,
      firstName,
      lastName: 'Traveller',
      email: `${firstName.toLowerCase()}@example.com`,
      phone: '',
      nationality: '',
      notes: '',
    },
    errors: {},
    offers: null,
    message: '',
    retry: false,
  };
}

describe('two tabs of one visitor booking two stays', () => {
  it('each review address shows its own details and dates after the other tab posted', async () => {
    const { bookingServiceFor } = await import('../../../src/lib/services/clients.ts');
    const properties = await bookingServiceFor(harbour()).properties();
    const session = visitor();
    const post = async (state: StepState) => {
      const answer = await page.stepRequest(request(session, 'POST'), properties, state);
      expect(answer).toBeInstanceOf(Response);
      return (answer as Response).headers.get('Location') ?? '';
    };
    const first = await post(reviewed('Alice', day(240), day(242)));
    const second = await post(reviewed('Bob', day(250), day(253)));
    expect(first).not.toBe(second);

    // The first tab reloads its review (or presses Back to it): Alice's stay, not Bob's.
    for (const [address, name, checkIn] of [
      [first, 'Alice', day(240)],
      [second, 'Bob', day(250)],
      [first, 'Alice', day(240)],
    ] as const) {
      const shown = (await page.stepRequest(
        request(session, 'GET', address),
        properties,
        undefined,
      )) as StepState;
      expect(shown.step).toBe('review');
      expect(shown.values).toMatchObject({ firstName: name, checkIn });
    }

    // The second tab books: Back to its review shows the booking, the first tab's draft stays.
    const booked: StepState = {
      ...reviewed('Bob', day(250), day(253)),
      step: 'done',
      values: {},
      booked: {
        manage: '/stay/manage/token.sig',
        mailed: true,
        email: 'bob@example.com',
        confirmation: {
          ...confirmation,
          propertyId: HARBOUR_VIEW,
          roomTypeId: STANDARD_DOUBLE,
          checkIn: day(250),
          checkOut: day(253),
        },
      },
    };
    await page.stepRequest(request(session, 'POST'), properties, booked);
    const shown = async (address: string) =>
      (await page.stepRequest(
        request(session, 'GET', address),
        properties,
        undefined,
      )) as StepState;
    const again = (await page.stepRequest(
      request(session, 'GET', second),
      properties,
      undefined,
    )) as Response;
    expect(again.status).toBe(303);
    expect(again.headers.get('Location')).toBe('/stay/manage/token.sig?mailed=1');
    // Its details step is a new booking's: empty.
    const details = second.replace('step=review', 'step=details');
    expect((await shown(details)).values['firstName']).toBeUndefined();
    expect((await shown(first)).values).toMatchObject({ firstName: 'Alice', checkIn: day(240) });
  });
});

describe('a room taken between the rooms step and Book', () => {
  it('the room chosen instead gets the details as typed, under a new key', async () => {
    const { bookingServiceFor } = await import('../../../src/lib/services/clients.ts');
    const properties = await bookingServiceFor(harbour()).properties();
    const session = visitor();
    // What the action answers when the lodging API refuses the room (booking.error.roomGone).
    const gone: StepState = {
      ...reviewed('Carol', day(260), day(262)),
      step: 'details',
      errors: { roomTypeId: [textKey('booking.error.roomGone')] },
    };
    gone.values['roomTypeId'] = SEA_VIEW_SUITE;
    await page.stepRequest(request(session, 'POST'), properties, gone);

    const query = new URLSearchParams({
      step: 'details',
      property: HARBOUR_VIEW,
      checkIn: day(260),
      checkOut: day(262),
      adults: '2',
      children: '0',
      roomTypeId: STANDARD_DOUBLE,
    });
    const shown = (await page.stepRequest(
      request(session, 'GET', `/stay?${query}`),
      properties,
      undefined,
    )) as StepState;
    expect(shown.step).toBe('details');
    expect(shown.errors).toEqual({});
    expect(shown.values).toMatchObject({
      firstName: 'Carol',
      email: 'carol@example.com',
      roomTypeId: STANDARD_DOUBLE,
      idempotencyKey: '',
    });
  });
});

describe('a refusal of the lodging API on a field the details step does not show', () => {
  it('is said as the step’s message, not dropped', async () => {
    const { bookingServiceFor } = await import('../../../src/lib/services/clients.ts');
    const properties = await bookingServiceFor(harbour()).properties();
    const session = visitor();
    // What the action answers for a 422 on a field it cannot map (booking.error.details).
    const refused: StepState = {
      ...reviewed('Dan', day(280), day(282)),
      step: 'details',
      errors: { form: [textKey('booking.error.details')] },
    };
    const post = await page.stepRequest(request(session, 'POST'), properties, refused);
    const address = (post as Response).headers.get('Location') ?? '';
    const shown = (await page.stepRequest(
      request(session, 'GET', address),
      properties,
      undefined,
    )) as StepState;
    expect(shown.step).toBe('details');
    expect(shown.values).toMatchObject({ firstName: 'Dan' });
    expect(shown.message).toBe('Please check your details.');
  });
});

describe('a booking that failed in the widget, then Back to the details and a reload', () => {
  it('shows the details as typed, without the review’s "try again" (a button the details cannot send)', async () => {
    const { bookingServiceFor } = await import('../../../src/lib/services/clients.ts');
    const properties = await bookingServiceFor(harbour()).properties();
    const session = visitor();
    // What the action answers when Book meets the lodging API down, sent by the widget's fetch.
    const failed: StepState = {
      ...reviewed('Erin', day(290), day(292)),
      message: textKey('booking.error.unavailable'),
      retry: true,
    };
    await page.stepRequest(
      request(session, 'POST', '/stay', { [STEP_HEADER]: '1' }),
      properties,
      failed,
    );
    const search = { ...failed.values, property: HARBOUR_VIEW };
    const shown = (await page.stepRequest(
      request(session, 'GET', `/stay${stepQuery(search, 'details')}`),
      properties,
      undefined,
    )) as StepState;
    expect(shown.step).toBe('details');
    expect(shown.values).toMatchObject({ firstName: 'Erin', email: 'erin@example.com' });
    expect(shown).toMatchObject({ retry: false, message: '' });
  });
});
