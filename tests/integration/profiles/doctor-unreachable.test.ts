import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { doctorLines } from '../../../src/lib/profiles/doctor/lines.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { startServer } from '../../unit/upstream/helpers.ts';
import type { Handler } from '../../unit/upstream/helpers.ts';

/** The doctor's lines for a tenant whose publishing API is `baseUrl`, each call given `timeoutMs`. */
async function doctorText(baseUrl: string, timeoutMs = 8000): Promise<string> {
  const report = await runDoctor({
    tenant: buildTenant({ id: 'gazette', publishing: { baseUrl } }),
    profiles: new Map(),
    secrets: {},
    timeoutMs,
  });
  return doctorLines(report).join('\n');
}

async function withApi(handler: Handler, use: (baseUrl: string) => Promise<void>) {
  const api = await startServer(handler);
  try {
    await use(api.baseUrl);
  } finally {
    await api.close();
  }
}

// "Not reachable" alone does not say whether the address, the firewall or the API is wrong.
describe('the doctor and an API that does not answer', () => {
  it('says why: the connection was refused', async () => {
    const api = await startServer(() => undefined);
    await api.close();
    const text = await doctorText(api.baseUrl);
    const reason = `connect ECONNREFUSED ${new URL(api.baseUrl).host}`;
    expect(text).toContain(`✗ publishing posts.list: GET /posts · not reachable\n`);
    // Why, once for every list that got no answer.
    expect(text).toContain(
      `- publishing posts.list, categories.list, tags.list, plans.list, epaper.list, streams.list → ${api.baseUrl} answers nothing: ${reason}`,
    );
    // What was not read for want of its list still says which path it is (not "GET ?").
    expect(text).toContain(
      '- publishing posts.get: GET /posts/{slug} · skipped: no item to read it with',
    );
  });

  it('says why: no answer within the timeout, headers or body', async () => {
    // One answer never starts; the other starts and never ends (a byte now and then).
    await withApi(
      (r, res) => {
        if (!r.url.includes('/posts')) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data": [');
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 50);
      },
      async (baseUrl) => {
        const text = await doctorText(baseUrl, 100);
        expect(text).toContain(`✗ publishing posts.list: GET /posts · not reachable`);
        expect(text).toContain(`✗ publishing tags.list: GET /tags · not reachable`);
        expect(text).toMatch(
          /- publishing posts\.list, [^\n]*tags\.list[^\n]* answers nothing: no answer within 100 ms \(UPSTREAM_TIMEOUT_MS\)/,
        );
      },
    );
  });
});
