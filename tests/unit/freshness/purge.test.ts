import { describe, expect, it } from 'vitest';
import { PurgeSchema } from '../../../src/lib/freshness/purge.ts';
import { purgedHosts, purgedPaths } from '../../../src/lib/freshness/edge.ts';
import { routeTags } from '../../../src/lib/freshness/invalidation.ts';
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
    expect(routeTags(change)).toEqual([
      'daily-planet:posts',
      'daily-planet:post:a-b',
      'daily-planet:category:city',
      'daily-planet:tag:port',
    ]);
    expect(routeTags({ tenant: 'daily-planet', everything: true, at: 1 })).toEqual([
      'daily-planet',
    ]);
    const paths = purgedPaths(change);
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/rss.xml', '/posts/a-b', '/tags/port', '/categories/city']),
    );
  });

  it('drops only the post’s page for a comment published on it, no list of posts', () => {
    const comment = { tenant: 'daily-planet', comments: ['a-b'], at: 1 };
    expect(routeTags(comment)).toEqual(['daily-planet:post:a-b']);
    expect(purgedPaths(comment)).toEqual(['/posts/a-b']);
    // With a post change besides, the lists go too.
    expect(routeTags({ ...comment, slugs: ['c'] })).toEqual([
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
