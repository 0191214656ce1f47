import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { english } from '../../fixtures/english.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { demo, startTestMock, type Mock } from '../harness.ts';
import { day, HARBOUR_VIEW, request, uniqueEmail } from './fixture.ts';

// A manage link opened while the lodging API refuses the site's token (revoked upstream): the
// guest reads "book directly" with the tenant's contact, as the booking steps say it, not the 503
// "try again" page (waiting does not help).
const contact = { phone: '+44 20 7946 0000', email: 'rooms@harbour.example' };
let mock: Mock;
let token = demo.lodging['harbour-hotels']!.fullToken;
let upstream = createUpstream();
const tenant = () =>
  buildTenant({
    id: 'harbour-times',
    features: { booking: true },
    lodging: { baseUrl: mock.lodgingUrl, tokenEnv: 'X', propertyIds: [HARBOUR_VIEW], contact },
  });
let current: ReturnType<typeof tenant>;

vi.mock('../../../src/lib/services/clients.ts', () => ({
  bookingServiceFor: () => bookingService(current, { credentials: () => ({ token }), upstream }),
}));
const { cancelManagedStay, loadManagedStay, managePath } =
  await import('../../../src/lib/booking/manage/stay.ts');

beforeAll(async () => {
  mock = await startTestMock();
  current = tenant();
});
afterAll(() => mock.close());

const manageToken = () =>
  managePath(current.id, { propertyId: HARBOUR_VIEW, checkIn: day(30), reference: 'BK-ANY' })
    .split('/')
    .at(-1)!;
const locals = () => ({ tenantMatchOrNull: { tenant: current } }) as unknown as App.Locals;

async function notice() {
  const loaded = await loadManagedStay(locals(), manageToken());
  expect(loaded).toMatchObject({ kind: 'not-online', contact });
  return english((loaded as { message: string }).message);
}

describe('the manage page when the lodging API refuses the site’s token', () => {
  it('the place still read from the cache (401 on the booking only): "book directly" with the contact', async () => {
    await bookingService(current, { credentials: () => ({ token }), upstream }).property(
      HARBOUR_VIEW,
    );
    token = '9|no-such-token';
    expect(await notice()).toMatch(
      /contact us to book: \+44 20 7946 0000 · rooms@harbour\.example/,
    );
  });

  it('both reads refused (a fresh process): the same notice', async () => {
    upstream = createUpstream(); // nothing cached
    token = '9|no-such-token';
    expect(await notice()).toMatch(/contact us to book: \+44 20 7946 0000/);
  });
});

describe('a cancel the lodging API refuses for the site’s token (read-only: 403)', () => {
  it('says how to cancel, with the contact (not "to book")', async () => {
    token = demo.lodging['harbour-hotels']!.fullToken;
    upstream = createUpstream();
    const service = bookingService(current, { credentials: () => ({ token }), upstream });
    const booked = await service.book(request({ email: uniqueEmail('cancel-refused') }));
    const link = managePath(current.id, booked).split('/').at(-1)!;
    token = demo.lodging['harbour-hotels']!.readToken;
    const refused = await cancelManagedStay(locals(), link).then(
      () => expect.fail('cancelled'),
      (error: unknown) => error as { error: { code: string; message: string } },
    );
    const message = english(refused.error.message);
    expect(message).toMatch(/contact us to cancel: \+44 20 7946 0000 · rooms@harbour\.example/);
    expect(message).not.toMatch(/to book/);
  });
});
