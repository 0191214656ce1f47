import { runDoctorCli } from './doctor-cli.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock } from '../../../mock/index.ts';
import { tenantInput } from '../../fixtures/tenant.ts';

type Mock = Awaited<ReturnType<typeof startMock>>;

// `npm run doctor -- <tenant> --writes` against the contract mock: the subscriber's account
// journey is tried only when asked, and through the site's own client and profile.
let mock: Mock;
let dir: string;

const doctor = (...args: string[]) => runDoctorCli({ tenant: 'harbour-times', dir }, ...args);

const posts = (path: string) => mock.state.stats.publishing.routes[`POST ${path}`] ?? 0;

beforeAll(async () => {
  mock = await startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    limits: { publicPerMinute: 0, lodgingPerMinute: 0 },
  });
  dir = mkdtempSync(join(tmpdir(), 'masthead-doctor-writes-'));
  const tenant = tenantInput({ id: 'harbour-times', publishing: { baseUrl: mock.publishingUrl } });
  writeFileSync(join(dir, 'tenants.json'), JSON.stringify({ tenants: [tenant] }));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  mock.state.stats.publishing.routes = {};
});

describe('npm run doctor -- <tenant> --writes', () => {
  it('writes nothing by default', async () => {
    const { code, out } = await doctor();
    expect(code).toBe(0);
    expect(out).not.toContain('Writes');
    expect(
      Object.keys(mock.state.stats.publishing.routes).filter((r) => !r.startsWith('GET')),
    ).toEqual([]);
  });

  it('registers a throwaway account, signs in with it, reads it back and signs out', async () => {
    const users = mock.state.publishing.sites.get('harbour-times')!.users.length;
    const { code, out } = await doctor('--writes');
    expect(out).toMatch(
      /✓ publishing auth\.register: POST \/auth\/register · account masthead-doctor-\d+@example\.com made/,
    );
    expect(out).toContain('✓ publishing auth.login: POST /auth/login · signed in with it');
    expect(out).toMatch(/✓ publishing auth\.me: GET \/auth\/me · id \S+, name Masthead Doctor/);
    expect(out).toContain('✓ publishing auth.logout: POST /auth/logout · signed out');
    expect(code).toBe(0);
    expect(posts('/auth/register')).toBe(1);
    expect(posts('/auth/login')).toBe(1);
    expect(mock.state.publishing.sites.get('harbour-times')!.users.length).toBe(users + 1);
    // No token in what it printed or kept.
    const kept = readFileSync(join(dir, 'findings', 'harbour-times.json'), 'utf8');
    for (const text of [out, kept]) expect(text).not.toMatch(/"token"|Bearer/);
    expect(JSON.parse(kept)).toMatchObject({ writes: [{ ok: true }, { ok: true }, {}, {}] });
  });

  it('exits non-zero and says why when the API refuses a write', async () => {
    // A profile that sends registration to a path the API does not have.
    const tenants = join(dir, 'tenants.json');
    const broken = JSON.parse(readFileSync(tenants, 'utf8')) as {
      tenants: { publishing: Record<string, unknown> }[];
    };
    broken.tenants[0]!.publishing['profile'] = {
      extends: 'publishing-default',
      operations: { 'auth.register': { path: '/auth/sign-up' } },
    };
    writeFileSync(tenants, JSON.stringify(broken));
    const { code, out } = await doctor('--writes');
    expect(out).toMatch(/✗ publishing auth\.register: POST \/auth\/sign-up · not-found/);
    expect(code).toBe(1);
  });
});
