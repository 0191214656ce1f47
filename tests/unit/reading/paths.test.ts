import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import PostCards from '../../../src/components/posts/PostCards.astro';
import { rssFeed } from '../../../src/lib/reading/feeds.ts';
import EditionPromo from '../../../src/components/front/EditionPromo.astro';
import PlanCard from '../../../src/components/plans/PlanCard.astro';
import { editionSchema, planSchema } from '../../../src/lib/publishing/schema.ts';
import {
  categoryPath,
  editionPath,
  planPath,
  postPath,
  streamPath,
  tagPath,
} from '../../../src/lib/reading/paths.ts';
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

describe('a post’s, category’s, tag’s, edition’s, stream’s and plan’s address', () => {
  it.each([
    [postPath(SLUG), `/posts/${SLUG}`],
    [categoryPath(SLUG), `/categories/${SLUG}`],
    [tagPath({ name: 'x', slug: SLUG }), `/tags/${SLUG}`],
    [tagPath({ name: 'New York' }), '/tags/New York'],
    [editionPath(SLUG), `/epaper/${SLUG}`],
    [streamPath(SLUG), `/streams/${SLUG}`],
    [planPath(SLUG), `/plans/${SLUG}`],
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

describe('links to an edition and a plan with such a slug', () => {
  const render = async (
    component: Parameters<typeof Object>[0],
    props: Record<string, unknown>,
  ) => {
    const { experimental_AstroContainer: AstroContainer } = await import('astro/container');
    const container = await AstroContainer.create();
    const tenant = buildTenant();
    const { i18nFor } = await import('../../../src/lib/i18n/index.ts');
    const locals = { tenant, i18n: i18nFor(tenant), href: (path: string) => path };
    return container.renderToString(component as never, { props, locals: locals as App.Locals });
  };
  const hrefsTo = (html: string, section: string) =>
    [...html.matchAll(/href="([^"]+)"/g)]
      .map((m) => followed(m[1]!.replaceAll('&amp;', '&')))
      .filter(({ path }) => path.startsWith(`/${section}/`));

  it('the front page’s edition promo links to the edition', async () => {
    const edition = editionSchema.parse({
      id: 1,
      title: 'Morning edition',
      slug: SLUG,
      published_at: '2026-11-27T05:00:00Z',
      requires_subscription: false,
      page_count: 24,
    });
    const html = await render(EditionPromo, { edition });
    const links = hrefsTo(html, 'epaper');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links)
      expect(link).toEqual({ path: `/epaper/${SLUG}`, search: '', hash: '' });
  });

  it('a plan card links to the plan', async () => {
    const plan = planSchema.parse({
      id: 1,
      name: 'Digital',
      slug: SLUG,
      price: 9.5,
      currency: 'EUR',
      interval: 'month',
    });
    const html = await render(PlanCard, { plan });
    expect(hrefsTo(html, 'plans')).toEqual([{ path: `/plans/${SLUG}`, search: '', hash: '' }]);
  });
});
