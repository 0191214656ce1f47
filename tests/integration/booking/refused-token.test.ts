import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { english } from '../../fixtures/english.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { demo, startTestMock, type Mock } from '../harness.ts';
import { HARBOUR_VIEW, request, uniqueEmail } from './fixture.ts';

// The lodging API refuses the site's token (revoked upstream, or a read-only one): "book directly",
// and how: the tenant's contact (tenants.json `lodging.contact`), which the step shows as links.
const contact = { phone: '+44 20 7946 0000', email: 'rooms@harbour.example' };
let mock: Mock;
beforeAll(async () => {
  mock = await startTestMock();
});
afterAll(() => mock.close());

function serviceWith(token: string) {
  const tenant = buildTenant({
    id: 'harbour-times',
    features: { booking: true },
    lodging: { baseUrl: mock.lodgingUrl, tokenEnv: 'X', propertyIds: [HARBOUR_VIEW], contact },
  });
  return bookingService(tenant, { credentials: () => ({ token }), upstream: createUpstream() });
}

async function refusal(attempt: Promise<unknown>) {
  const failure = (await attempt.then(
    () => expect.fail('answered'),
    (e: unknown) => e,
  )) as { error: { code: string; message: string; contact?: unknown; retryAfter?: number } };
  return { ...failure.error, message: english(failure.error.message) };
}

describe('a lodging token the API refuses', () => {
  it('unknown to it (401): the first read says "book directly" with the tenant’s phone and e-mail', async () => {
    const answer = await refusal(serviceWith('9|no-such-token').property(HARBOUR_VIEW));
    expect(answer).toMatchObject({ code: 'not_online', contact });
    expect(answer.message).toMatch(
      /contact us to book: \+44 20 7946 0000 · rooms@harbour\.example/,
    );
    expect(answer.retryAfter).toBeUndefined();
  });

  it('read-only (403): the booking says "book directly" with the tenant’s phone and e-mail', async () => {
    const readOnly = serviceWith(demo.lodging['harbour-hotels']!.readToken);
    const answer = await refusal(readOnly.book(request({ email: uniqueEmail('refused') })));
    expect(answer).toMatchObject({ code: 'not_online', contact });
    expect(answer.message).toMatch(/contact us to book: \+44 20 7946 0000/);
  });
});
