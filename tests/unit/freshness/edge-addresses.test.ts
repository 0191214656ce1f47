import { describe, expect, it } from 'vitest';
import type { StoredPage } from '../../../src/lib/delivery/route-cache.ts';
import {
  edgeAddressOf,
  edgeAddresses,
  recordEdgeAddress,
} from '../../../src/lib/freshness/edge.ts';

function stored(path: string, headers: Record<string, string>, tags: string[]): StoredPage {
  return {
    tenant: 'gazette',
    url: new URL(`http://origin.internal${path}`),
    header: (name) => headers[name] ?? null,
    tags,
  };
}

describe("the edge's address book", () => {
  it('notes the address as the edge keys it: forwarded host only behind a trusted proxy', () => {
    const page = stored(
      '/search?q=ferry&tenant=gazette',
      { host: 'origin.internal', 'x-forwarded-host': 'news.example:8080', 'accept-encoding': 'br' },
      ['gazette'],
    );
    expect(edgeAddressOf(page, true)).toEqual({
      host: 'news.example',
      path: '/search?q=ferry&tenant=gazette',
      encoding: 'br',
      tags: ['gazette'],
    });
    expect(edgeAddressOf(page, false).host).toBe('origin.internal');
    expect(edgeAddressOf(stored('/', {}, []), false)).toMatchObject({ encoding: 'identity' });
  });

  it('finds the addresses of a tag, or of everything by the tenant tag, each once', async () => {
    const post = (slug: string, tag: string) =>
      edgeAddressOf(
        stored(`/posts/${slug}`, { host: 'gazette.example' }, [
          'gazette',
          'gazette:posts',
          `gazette:post:${slug}`,
          `gazette:tag:${tag}`,
        ]),
        false,
      );
    recordEdgeAddress('gazette', post('ferry', 'harbour'), undefined);
    recordEdgeAddress('gazette', post('ferry', 'harbour'), undefined);
    recordEdgeAddress('gazette', post('budget', 'city-hall'), undefined);
    recordEdgeAddress('herald', { ...post('other', 'harbour'), tags: ['herald'] }, undefined);

    const paths = async (tags: string[]) =>
      (
        await edgeAddresses(
          'gazette',
          (page) => page.tags.some((tag) => tags.includes(tag)),
          undefined,
        )
      )
        .map((address) => address.path)
        .sort();
    expect(await paths(['gazette:tag:harbour'])).toEqual(['/posts/ferry']);
    expect(await paths(['gazette'])).toEqual(['/posts/budget', '/posts/ferry']);
    expect(await paths(['gazette:tag:unknown'])).toEqual([]);
  });

  it('notes a page once however its host is spelled, so spellings cannot push a post out', async () => {
    const at = (host: string, slug: string) =>
      edgeAddressOf(stored(`/posts/${slug}`, { host }, ['courier', `courier:post:${slug}`]), false);
    recordEdgeAddress('courier', at('courier.example', 'ferry'), undefined);
    for (let port = 1; port <= 5000; port += 1) {
      const spelling = port % 2 ? `COURIER.example:${port}` : `courier.example.:${port}`;
      recordEdgeAddress('courier', at(spelling, 'junk'), undefined);
    }
    const ferry = await edgeAddresses(
      'courier',
      ({ tags }) => tags.includes('courier:post:ferry'),
      undefined,
    );
    expect(ferry.map(({ host, path }) => `${host}${path}`)).toEqual([
      'courier.example/posts/ferry',
    ]);
    const all = await edgeAddresses('courier', () => true, undefined);
    expect(all).toHaveLength(2);
  });
});
