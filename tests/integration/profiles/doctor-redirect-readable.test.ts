import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { startServer } from '../../unit/upstream/helpers.ts';
import type { TestServer } from '../../unit/upstream/helpers.ts';
import { startDoctorMock, type Mock } from './doctor-mock.ts';

// An old address that sends every call on to the API (another origin): the site's public reads
// arrive, so everything is readable; what is left is the operator's to fix, the address.
let mock: Mock;
let old: TestServer;
beforeAll(async () => {
  mock = await startDoctorMock();
  old = await startServer((r, res) => {
    res.writeHead(301, { location: `${new URL(mock.publishingUrl).origin}${r.url}` });
    res.end();
  });
});
afterAll(async () => {
  await old.close();
  await mock.close();
});

describe('the doctor and a publishing address that redirects, read without a token', () => {
  it('lists the address under "To fix", not under "Not readable yet"', async () => {
    const moved = new URL(mock.publishingUrl).origin;
    const baseUrl = old.baseUrl.replace('127.0.0.1', 'localhost');
    const report = await runDoctor({
      tenant: buildTenant({ id: 'daily-planet', publishing: { baseUrl } }),
      profiles: new Map(),
      secrets: {},
    });
    const text = doctorLines(report).join('\n');
    expect(text).not.toContain('Not readable yet');
    expect(text).toContain('Every operation and field the site needs is readable.');
    expect(text).toContain(
      `To fix (1):\n  - publishing: ${baseUrl} redirects to ${moved}, where the site sends no token and no write: use ${moved} in tenants.json publishing.baseUrl`,
    );
  });
});
