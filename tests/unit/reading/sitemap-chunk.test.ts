import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTenant } from '../../fixtures/tenant.ts';

const postSitemapEntries = vi.hoisted(() => vi.fn());
vi.mock('../../../src/lib/reading/feeds.ts', () => ({ postSitemapEntries }));
const { GET } = await import('../../../src/pages/sitemap-posts-[chunk].xml.ts');

const tenant = buildTenant();

/** `/sitemap-posts-<chunk>.xml` as the route sees it. */
async function sitemap(chunk: string): Promise<Response> {
  const locals = {
    tenantMatchOrNull: { tenant, via: 'host', basePath: '', pathname: '/', origin: 'https://x' },
  };
  return GET({ params: { chunk }, locals, cache: { set: () => undefined } } as never);
}

describe('a post sitemap’s number', () => {
  beforeEach(() => {
    postSitemapEntries.mockReset();
    postSitemapEntries.mockResolvedValue([{ loc: 'https://x/posts/a' }]);
  });

  it('reads the posts of a chunk the index lists', async () => {
    const answer = await sitemap('2');
    expect(answer.status).toBe(200);
    expect(postSitemapEntries).toHaveBeenCalledWith(expect.anything(), 2);
  });

  // Number() read these as integers and asked the API for page 1e300 (refused: a 500 page).
  // `01` is not found either: the index lists `1`, and one copy per spelling would fill the caches.
  it.each([
    '1e300',
    '99999999999999999999',
    '9007199254740993',
    '0x1',
    '0',
    '1.5',
    ' ',
    '01',
    '002',
  ])('is not found for %j, without asking the API', async (chunk) => {
    const answer = await sitemap(chunk);
    expect(answer.status).toBe(404);
    expect(postSitemapEntries).not.toHaveBeenCalled();
  });
});
