import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import PostCards from '../../../src/components/posts/PostCards.astro';
import { rssFeed } from '../../../src/lib/reading/feeds.ts';
import { categoryPath, postPath, tagPath } from '../../../src/lib/reading/paths.ts';
import { postSummary } from '../../fixtures/post.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// A slug the publishing API may send (its contract says only "string"): a query, a fragment, a
// percent sign and a space in it must stay part of the post's address.
const SLUG = 'why? #1 at 50% off';

/** The path a browser asks for when it follows `href`, and what is left over as query or fragment. */
const followed = (href: string) => {
  const url = new URL(href, 'https://gazette.example.com/');
  return { path: decodeURIComponent(url.pathname), search: url.search, hash: url.hash };
};

describe('a post’s, category’s and tag’s address', () => {
  it.each([
    [postPath(SLUG), `/posts/${SLUG}`],
    [categoryPath(SLUG), `/categories/${SLUG}`],
    [tagPath({ name: 'x', slug: SLUG }), `/tags/${SLUG}`],
    [tagPath({ name: 'New York' }), '/tags/New York'],
  ])('%s leads to the page of that slug, nothing else', (href, page) => {
    expect(followed(href)).toEqual({ path: page, search: '', hash: '' });
  });

  it('keeps a plain slug as it is', () => {
    expect(postPath('ferry-strike')).toBe('/posts/ferry-strike');
  });
});

describe('links to a post with such a slug', () => {
  it('a post card links to the post', async () => {
    const { experimental_AstroContainer: AstroContainer } = await import('astro/container');
    const container = await AstroContainer.create();
    const tenant = buildTenant();
    const { i18nFor } = await import('../../../src/lib/i18n/index.ts');
    const html = await container.renderToString(PostCards, {
      props: { posts: [postSummary({ slug: SLUG })], variant: 'grid' },
      locals: { tenant, i18n: i18nFor(tenant), href: (path: string) => path } as App.Locals,
    });
    const hrefs = [...html.matchAll(/<h\d[^>]*>\s*<a[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs).toHaveLength(1);
    expect(followed(hrefs[0]!.replaceAll('&amp;', '&'))).toEqual({
      path: `/posts/${SLUG}`,
      search: '',
      hash: '',
    });
  });

  it('the feed links to the post', async () => {
    const tenant = buildTenant();
    const xml = await rssFeed({ tenant, origin: 'https://gazette.example.com' }, [
      postSummary({ slug: SLUG }),
    ]);
    const feed = new XMLParser().parse(xml) as { rss: { channel: { item: { link: string } } } };
    const item = feed.rss.channel.item;
    expect(followed(item.link)).toEqual({ path: `/posts/${SLUG}`, search: '', hash: '' });
  });
});
