import { describe, expect, it } from 'vitest';
import { PurgeSchema, purgeSecrets } from '../../../src/lib/freshness/purge.ts';
import { purgedHosts, purgedPaths } from '../../../src/lib/freshness/edge.ts';
import { routeTags } from '../../../src/lib/freshness/invalidation.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

describe('PURGE_SECRETS', () => {
  it('gives each tenant its own secret, and none to a tenant not named', () => {
    const secrets = purgeSecrets('daily-planet=abc=def, harbour-times = xyz ,alpine-post=');
    expect(secrets.get('daily-planet')).toBe('abc=def');
    expect(secrets.get('harbour-times')).toBe('xyz');
    expect(secrets.has('alpine-post')).toBe(false);
    expect(purgeSecrets(undefined).size).toBe(0);
  });
});

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
