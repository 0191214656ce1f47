import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { readDate } from '../lib/i18n/format.ts';
import { latestForFeed } from '../lib/reading/feeds.ts';
import { absoluteUrl, siteOrigin } from '../lib/reading/seo.ts';
import { feedResponse } from '../lib/reading/endpoint.ts';

export const GET: APIRoute = (context) =>
  feedResponse(context, async (match) => {
    const posts = await latestForFeed(match);
    return rss({
      title: match.tenant.name,
      description: match.tenant.description || match.tenant.name,
      site: siteOrigin(match, context.url),
      customData: `<language>${match.tenant.locale}</language>`,
      items: posts.map((post) => ({
        title: post.title,
        link: absoluteUrl(match, context.url, `/posts/${post.slug}`),
        ...(readDate(post.published_at) ? { pubDate: readDate(post.published_at)?.date } : {}),
        description: post.excerpt,
        ...(post.author ? { author: post.author.name } : {}),
        categories: [post.category?.name, ...post.tags.map((tag) => tag.name)].filter(
          (name): name is string => Boolean(name),
        ),
      })),
    });
  });
