import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishingClient } from '../../src/lib/publishing/client.ts';
import { freshUpstream } from './harness.ts';
import { json, startServer } from '../unit/upstream/helpers.ts';
import type { TestServer } from '../unit/upstream/helpers.ts';

// Two publishing APIs on one host: the old one no longer knows the tenant's read token, the new
// one does. A tenant whose publishing.baseUrl moves to the new one reads there with its token.
let host: TestServer;
beforeAll(async () => {
  host = await startServer((r, res) => {
    const api = r.url.split('/')[1];
    if (api === 'old' && r.headers.authorization)
      return json(res, 401, { message: 'Unauthenticated.' });
    json(res, 200, { data: [{ id: 1, name: 'News', slug: 'news' }] });
  });
});
afterAll(() => host.close());

describe('a publishing read token one API refused', () => {
  it('is still sent to the API the tenant moved to', async () => {
    const { up } = freshUpstream();
    const origin = new URL(host.baseUrl).origin;
    const read = (api: string) =>
      publishingClient({
        tenantId: 'daily-planet',
        baseUrl: `${origin}/${api}/api/v1`,
        upstream: up,
        serviceToken: 'moved-read-token',
      }).listCategories();
    expect((await read('old')).length).toBe(1); // refused, read on anonymously
    expect((await read('new')).length).toBe(1);
    const sentToNew = host.seen.filter((r) => r.url.startsWith('/new/'));
    // Not the anonymous budget all tenants share: the new API got the token.
    expect(sentToNew.map((r) => r.headers.authorization)).toEqual(['Bearer moved-read-token']);
  });
});
