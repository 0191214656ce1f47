import { describe, expect, it } from 'vitest';
import { PurgeSchema, purgeResponse } from '../../../src/lib/freshness/purge.ts';
import { GUESSES_PER_WINDOW } from '../../../src/lib/request/secret-attempts.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { purgedHosts, purgedPaths } from '../../../src/lib/freshness/edge.ts';
import { changedTags } from '../../../src/lib/freshness/invalidation.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

describe('a purge request', () => {
  it.each([
    [{ slug: 'wrong-name' }, true],
    [{ tag: 'harbour' }, true],
    [{ everything: true }, true],
    [{ everything: false }, false],
    [{ slug: 'a', tag: 'b' }, false],
    [{}, false],
  ])('%j is accepted: %s', (body, ok) => {
    expect(PurgeSchema.safeParse(body).success).toBe(ok);
  });
});

describe('what a post change drops', () => {
  it('names the lists and the post in the route cache, and their addresses at the edge', () => {
    const change = {
      tenant: 'daily-planet',
      slugs: ['a-b'],
      topics: ['port'],
      categories: ['city'],
      at: 1,
    };
    expect(changedTags(change)).toEqual([
      'daily-planet:posts',
      'daily-planet:post:a-b',
      'daily-planet:category:city',
      'daily-planet:tag:port',
    ]);
    expect(changedTags({ tenant: 'daily-planet', everything: true })).toEqual(['daily-planet']);
    const paths = purgedPaths(change);
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/rss.xml', '/posts/a-b', '/tags/port', '/categories/city']),
    );
  });

  it('drops only the post’s page for a comment published on it, no list of posts', () => {
    const comment = { tenant: 'daily-planet', comments: ['a-b'], at: 1 };
    expect(changedTags(comment)).toEqual(['daily-planet:post:a-b']);
    expect(purgedPaths(comment)).toEqual(['/posts/a-b']);
    // With a post change besides, the lists go too.
    expect(changedTags({ ...comment, slugs: ['c'] })).toEqual([
      'daily-planet:posts',
      'daily-planet:post:c',
      'daily-planet:post:a-b',
    ]);
  });

  it('purges the hosts visitors use, with the edge’s own port', () => {
    const tenant = buildTenant({ hosts: ['news.example.com', '*.news.example.com'] });
    expect(purgedHosts(tenant, new URL('http://127.0.0.1/_edge_purge'))).toEqual([
      'news.example.com',
    ]);
    expect(purgedHosts(tenant, new URL('http://127.0.0.1:8080/_edge_purge'))).toEqual([
      'news.example.com:8080',
    ]);
  });
});

describe('guessing the purge secret', () => {
  const SECRET = 'purge-secret-of-the-unit-tests-0123456789';
  const attempt = (tenant: Tenant, clientIp: string, secret: string) =>
    purgeResponse({
      tenant,
      clientIp,
      secret: SECRET,
      request: new Request('http://site.test/_purge', {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'text/plain' },
      }),
    });

  it('is limited per tenant across addresses, and the right secret waits too', async () => {
    const tenant = buildTenant({ id: 'guessed-gazette' });
    for (let i = 0; i < GUESSES_PER_WINDOW; i += 1) {
      // One guess per address: the per-address limit never trips.
      expect((await attempt(tenant, `198.51.100.${i + 1}`, `guess-${i}`)).status).toBe(401);
    }
    const late = await attempt(tenant, '192.0.2.1', 'one-more');
    expect(late.status).toBe(429);
    expect(Number(late.headers.get('retry-after'))).toBeGreaterThan(60);
    expect((await attempt(tenant, '192.0.2.2', SECRET)).status).toBe(429);
    // Another tenant's secret is not affected (415: the right secret, then a body that is not JSON).
    expect((await attempt(buildTenant({ id: 'other-gazette' }), '192.0.2.1', SECRET)).status).toBe(
      415,
    );
  });
});
