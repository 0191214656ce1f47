import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { json, startServer } from '../../unit/upstream/helpers.ts';
import type { TestServer } from '../../unit/upstream/helpers.ts';

// A lodging API whose sign-in answers by the password it is sent; every read wants a token.
let api: TestServer;
beforeAll(async () => {
  api = await startServer((r, res) => {
    if (r.method !== 'POST') return json(res, 401, { message: 'Unauthenticated.' });
    const { password } = JSON.parse(r.body) as { password: string };
    if (password === 'wrong')
      return json(res, 422, { message: 'These credentials do not match our records.' });
    if (password === 'other-shape') return json(res, 200, { access_token: 'abc' });
    return json(res, 503, { message: 'Down for maintenance.' });
  });
});
afterAll(() => api.close());

const doctorText = async (password: string) => {
  const tenant = buildTenant({
    id: 'inn',
    publishing: { baseUrl: api.baseUrl },
    lodging: { baseUrl: api.baseUrl, propertyIds: ['00000000-0000-4000-8000-000000000001'] },
    features: { booking: true },
  });
  const secrets = { lodgingEmail: 'ops@example.com', lodgingPassword: password };
  const report = await runDoctor({ tenant, profiles: new Map(), secrets });
  return doctorLines(report).join('\n');
};

// "Check them" sends the operator to rotate credentials that may be fine.
describe('the doctor when its lodging sign-in gives no token', () => {
  it('blames the e-mail and password only when the API refused them', async () => {
    expect(await doctorText('wrong')).toContain('gave no token: check them');
  });

  it.each([
    ['down-for-a-moment', 'answers 503'],
    ['other-shape', 'answers 200 without a token (at token or data.token)'],
  ])('says what the sign-in answered otherwise (%s)', async (password, answered) => {
    const text = await doctorText(password);
    expect(text).toContain('✗ lodging properties.list: GET /properties → 401\n');
    expect(text).toContain(
      ` answers 401: no token: the sign-in (POST ${api.baseUrl}/auth/login) ${answered}`,
    );
    expect(text).not.toContain('check them');
  });
});
