import { send } from './http.ts';
import { startSite, type Mock } from './stack.ts';
import { sequentialRoundTrips, startLoggingProxy } from '../fixtures/upstream-log.ts';

/** The tenant whose pages are measured; it has every feature (e-paper, comments, streams). */
export const TENANT_HOST = 'daily-planet.localhost';

export interface ColdPage {
  type: string;
  path: string;
}

/** Page types and an address of each from the mock's seed (a paid edition shows the paywall). */
export async function coldPages(mock: Mock): Promise<ColdPage[]> {
  const read = async (path: string) =>
    (await (
      await fetch(`${mock.publishingUrl}${path}`, { headers: { 'x-tenant': 'daily-planet' } })
    ).json()) as { data: { slug: string; requires_subscription?: boolean; tags?: unknown[] }[] };
  const posts = (await read('/posts?per_page=20')).data;
  const editions = (await read('/epaper?per_page=20')).data;
  const post = posts.find((item) => (item.tags ?? []).length > 0) ?? posts[0];
  const free = editions.find((edition) => !edition.requires_subscription);
  const paid = editions.find((edition) => edition.requires_subscription);
  if (!post || !free || !paid)
    throw new Error('The seed lacks a post or a free and a paid edition');
  return [
    { type: 'home', path: '/' },
    { type: 'post', path: `/posts/${post.slug}` },
    { type: 'category', path: '/categories/news' },
    { type: 'tag', path: `/tags/${(await read('/tags')).data[0]?.slug ?? ''}` },
    { type: 'e-paper list', path: '/epaper' },
    { type: 'e-paper edition', path: `/epaper/${free.slug}` },
    { type: 'paywall', path: `/epaper/${paid.slug}` },
    { type: 'plans', path: '/plans' },
    { type: 'streams', path: '/streams' },
    { type: 'search', path: '/search?q=city' },
  ];
}

export interface ColdResult extends ColdPage {
  status: number;
  calls: number;
  roundTrips: number;
  /** The response's status line and headers as sent (keep-alive off). */
  headerBytes: number;
}

/** Bytes of a response's head: status line, `name: value` lines and the blank line. */
export function headBytes(headers: Record<string, string | string[] | undefined>): number {
  const lines = Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value ?? '']).map((one) => `${name}: ${one}\r\n`),
  );
  return Buffer.byteLength(`HTTP/1.1 200 OK\r\n${lines.join('')}\r\n`);
}

/**
 * Each page on a server started fresh (empty data and route caches), its publishing API behind a
 * logging proxy: the calls the first view makes, and how many of them ran one after the other.
 * Set a latency on the mock first, so calls made together overlap beyond doubt.
 */
export async function measureColdPages(
  mock: Mock,
  pages: ColdPage[],
  env: Record<string, string> = {},
): Promise<ColdResult[]> {
  const proxy = await startLoggingProxy(mock.publishingUrl);
  const results: ColdResult[] = [];
  try {
    for (const page of pages) {
      const site = await startSite({ mock, env: { ...env, PUBLISHING_BASE_URL: proxy.url } });
      try {
        proxy.log.length = 0;
        const reply = await send(`http://127.0.0.1:${site.port}${page.path}`, {
          host: TENANT_HOST,
        });
        const calls = proxy.log.filter((call) => !call.path.startsWith('/media/'));
        results.push({
          ...page,
          status: reply.status,
          calls: calls.length,
          roundTrips: sequentialRoundTrips(calls),
          headerBytes: headBytes(reply.headers),
        });
      } finally {
        await site.stop();
      }
    }
  } finally {
    await proxy.close();
  }
  return results;
}
