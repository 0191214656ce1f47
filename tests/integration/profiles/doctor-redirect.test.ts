import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { json, startServer } from '../../unit/upstream/helpers.ts';
import type { TestServer } from '../../unit/upstream/helpers.ts';

// An API whose old address sends every call to its new one (another origin, like `http://` to
// `https://`): reads still arrive, but the site's token and writes would not. At the new address
// it answers only callers with a token, and signs in whoever posts.
let api: TestServer;
beforeAll(async () => {
  api = await startServer((r, res) => {
    const [host, port] = (r.headers.host ?? '').split(':');
    if (host === 'localhost') {
      res.writeHead(r.method === 'POST' ? 307 : 301, {
        location: `http://127.0.0.1:${port}${r.url}`,
      });
      res.end();
      return;
    }
    if (r.method === 'POST') return json(res, 200, { token: 'signed-in' });
    if (!r.headers.authorization) return json(res, 401, { message: 'Unauthenticated.' });
    return json(res, 200, { data: [] });
  });
});
afterAll(() => api.close());

const moved = () => new URL(api.baseUrl).origin;
const oldAddress = (path = '/api/v1') => `${moved().replace('127.0.0.1', 'localhost')}${path}`;

describe('the doctor and an API that redirects to another origin', () => {
  it('says which address to use, and does not pass', async () => {
    const baseUrl = oldAddress();
    const report = await runDoctor({
      tenant: buildTenant({ id: 'moved', publishing: { baseUrl } }),
      profiles: new Map(),
      secrets: { publishingReadToken: 'read-token' },
    });
    const line = `publishing: ${baseUrl} redirects to ${moved()}, where the site sends no token and no write: use ${moved()} in tenants.json publishing.baseUrl`;
    expect(report.toFix).toContain(line);
    const text = doctorLines(report).join('\n');
    expect(text).toContain(line);
    // The token never reached the API: not "refused", and not worked around as a refused one.
    expect(text).not.toContain('was refused');
  });

  const lodgingTenant = () =>
    buildTenant({
      id: 'moved-lodging',
      publishing: { baseUrl: `${moved()}/api/v1` },
      lodging: {
        baseUrl: oldAddress('/lodging'),
        propertyIds: ['00000000-0000-4000-8000-000000000001'],
      },
      features: { booking: true },
    });

  it('gives only the redirect as the reason a token GET was refused, not "the token was refused"', async () => {
    const report = await runDoctor({
      tenant: lodgingTenant(),
      profiles: new Map(),
      secrets: { lodgingToken: 'lodging-token' },
    });
    const text = doctorLines(report).join('\n');
    expect(text).toContain(`use ${moved()} in tenants.json lodging.baseUrl`);
    expect(text).not.toContain('was refused');
  });

  it('does not sign in where the sign-in is redirected, and says so as the site would', async () => {
    const before = api.seen.length;
    const report = await runDoctor({
      tenant: lodgingTenant(),
      profiles: new Map(),
      secrets: { lodgingEmail: 'ops@example.com', lodgingPassword: 'secret-pass' },
    });
    // The password went nowhere but the address configured, and only once.
    const posts = api.seen.slice(before).filter((seen) => seen.method === 'POST');
    expect(posts.map((post) => post.headers.host?.split(':')[0])).toEqual(['localhost']);
    const text = doctorLines(report).join('\n');
    expect(text).toContain(
      `lodging auth.login → ${oldAddress('/lodging')}/auth/login answers 307 to ${moved()}/lodging/auth/login, not followed by a POST: set tenants.json lodging.baseUrl to where the API answers`,
    );
    // Not "check the e-mail and password": they were never tried.
    expect(text).not.toContain('check them');
  });
});
