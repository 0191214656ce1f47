import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor-text.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { json, startServer } from '../../unit/upstream/helpers.ts';
import type { TestServer } from '../../unit/upstream/helpers.ts';

// An API whose old address sends every call to its new one (another origin, like `http://` to
// `https://`): reads still arrive, but the site's token and writes would not.
let api: TestServer;
beforeAll(async () => {
  api = await startServer((r, res) => {
    const [host, port] = (r.headers.host ?? '').split(':');
    if (host !== 'localhost') return json(res, 200, { data: [] });
    res.writeHead(301, { location: `http://127.0.0.1:${port}${r.url}` });
    res.end();
  });
});
afterAll(() => api.close());

describe('the doctor and an API that redirects to another origin', () => {
  it('says which address to use, and does not pass', async () => {
    const moved = new URL(api.baseUrl).origin;
    const baseUrl = api.baseUrl.replace('127.0.0.1', 'localhost');
    const report = await runDoctor({
      tenant: buildTenant({ id: 'moved', publishing: { baseUrl } }),
      profiles: new Map(),
      secrets: { publishingReadToken: 'read-token' },
    });
    const line = `publishing: ${baseUrl} redirects to ${moved}, where the site sends no token and no write: use ${moved} in tenants.json publishing.baseUrl`;
    expect(report.unmapped).toContain(line);
    expect(doctorLines(report).join('\n')).toContain(line);
  });
});
