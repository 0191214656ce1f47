/**
 * Every page type of the site, its ports, and its HTML and JavaScript weight.
 *
 *   node bench/pages.ts     weights of a server already running on BENCH_PORT (4700) against the
 *                           contract mock on BENCH_PORT + 10 (used for docs/benchmarks.md's "before")
 *
 * Ports stay clear of the e2e suite's: the site on BENCH_PORT, the mock's control, publishing and
 * lodging servers on BENCH_PORT + 9, + 10 and + 20 (4709/4710/4720); the site reaches the mock through
 * PUBLISHING_BASE_URL / LODGING_BASE_URL.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { startMock } from '../mock/index.ts';

export const BENCH_PORT = Number(process.env['BENCH_PORT'] ?? 4700);
const MOCK = {
  controlPort: BENCH_PORT + 9,
  publishingPort: BENCH_PORT + 10,
  lodgingPort: BENCH_PORT + 20,
};
const PUBLISHING = `http://127.0.0.1:${MOCK.publishingPort}/api/v1`;
export const MOCK_CONTROL = `http://127.0.0.1:${MOCK.controlPort}`;

/** Env for a site server that talks to the bench's mock. */
export const upstreamEnv = {
  PUBLISHING_BASE_URL: PUBLISHING,
  LODGING_BASE_URL: `http://127.0.0.1:${MOCK.lodgingPort}/api/v1`,
};

/** The contract mock on the bench's ports; one already running there is reused. */
export async function benchMock(): Promise<{ publishingUrl: string; close(): Promise<void> }> {
  const running = await fetch(`${MOCK_CONTROL}/`).then(
    (r) => r.ok,
    () => false,
  );
  if (running) return { publishingUrl: PUBLISHING, close: () => Promise.resolve() };
  return startMock(MOCK);
}

export interface PageType {
  page: string;
  tenant: string;
  path: string;
  expectedStatus: number;
  /** Reading pages ship no JavaScript beyond `allowedJs`; the others are interactive by design. */
  reading: boolean;
  /** Bytes of JavaScript a reading page may ship: only a post page's live comment count (0 elsewhere). */
  allowedJs: number;
}

export interface PageWeight extends PageType {
  status: number;
  htmlBytes: number;
  htmlGzipBytes: number;
  scriptTags: number;
  jsBytes: number;
}

async function api<T>(tenant: string, path: string): Promise<T> {
  const response = await fetch(`${PUBLISHING}${path}`, { headers: { 'X-Tenant': tenant } });
  return ((await response.json()) as { data: T }).data;
}

/** Every page type, with slugs taken from the mock's demo data (its dates follow today's). */
export async function pageTypes(): Promise<PageType[]> {
  const dp = 'daily-planet';
  const tags = await api<{ slug: string }[]>(dp, '/tags');
  const editions = await api<{ slug: string; requires_subscription: boolean }[]>(dp, '/epaper');
  const streams = await api<{ slug: string }[]>(dp, '/streams');
  const free = editions.find((e) => !e.requires_subscription)?.slug ?? 'none';
  const paid = editions.find((e) => e.requires_subscription)?.slug ?? 'none';
  const property = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
  const page = (name: string, tenant: string, path: string, reading = true, status = 200) => ({
    page: name,
    tenant,
    path,
    expectedStatus: status,
    reading,
    allowedJs: 0,
  });
  // One small script: a post's comment field's live character count (about 1.6 KB, 1 KB gzipped),
  // the stream list's clock that moves upcoming badges on at their start (about 2 KB with its imports).
  const withSmallScript = (type: PageType): PageType => ({ ...type, allowedJs: 2048 });
  return [
    page('home', dp, '/'),
    withSmallScript(page('post', dp, '/posts/welcome-to-our-new-website')),
    page('categories', dp, '/categories'),
    page('category', dp, '/categories/news'),
    page('tags', dp, '/tags'),
    page('tag', dp, `/tags/${tags[0]?.slug ?? 'none'}`),
    page('search', dp, '/search?q=city'),
    page('plans', dp, '/plans'),
    page('plan', dp, '/plans/digital'),
    page('epaper', dp, '/epaper'),
    page('edition', dp, `/epaper/${free}`, false),
    page('paywall', dp, `/epaper/${paid}`),
    withSmallScript(page('streams', dp, '/streams')),
    page('stream', dp, `/streams/${streams[0]?.slug ?? 'none'}`, false),
    page('login', dp, '/login'),
    page('register', dp, '/register'),
    page('notFound', dp, '/no-such-page', true, 404),
    page('stay', 'harbour-times', '/stay', false),
    page('embed', 'harbour-times', `/embed/booking?property=${property}`, false),
    page('home-de', 'alpine-post', '/'),
    withSmallScript(page('post-de', 'alpine-post', '/posts/welcome-to-our-new-website')),
    page('stay-de', 'alpine-post', '/stay', false),
  ];
}

/** GET with the tenant's Host header (fetch may not set `Host`, node:http may). */
export function get(
  port: number,
  tenant: string,
  path: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        `http://127.0.0.1:${port}${path}`,
        { headers: { host: `${tenant}.localhost:${port}` } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      )
      .on('error', reject);
  });
}

/** Executable JavaScript a page makes the browser load: inline and external scripts, module preloads. */
async function javascriptBytes(
  port: number,
  tenant: string,
  html: string,
): Promise<{ tags: number; bytes: number }> {
  const fetchLength = async (src: string) =>
    (await get(port, tenant, new URL(src, 'http://x').pathname)).body.length;
  let tags = 0;
  let bytes = 0;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/type=["']?application\/(ld\+)?json/i.test(attributes)) continue;
    tags += 1;
    const src = /\bsrc=["']([^"']+)["']/i.exec(attributes)?.[1];
    bytes += src ? await fetchLength(src) : (match[2] ?? '').length;
  }
  for (const match of html.matchAll(
    /<link\b[^>]*rel=["']modulepreload["'][^>]*href=["']([^"']+)["']/gi,
  )) {
    tags += 1;
    bytes += await fetchLength(match[1] ?? '');
  }
  return { tags, bytes };
}

export async function pageWeights(port: number, pages: PageType[]): Promise<PageWeight[]> {
  const weights: PageWeight[] = [];
  for (const type of pages) {
    const { status, body } = await get(port, type.tenant, type.path);
    const js = await javascriptBytes(port, type.tenant, body);
    weights.push({
      ...type,
      status,
      htmlBytes: Buffer.byteLength(body),
      htmlGzipBytes: gzipSync(body).length,
      scriptTags: js.tags,
      jsBytes: js.bytes,
    });
  }
  return weights;
}

/** Reading pages at 0 JavaScript bytes, every page with its expected status. */
export function weightsOk(weights: PageWeight[]): boolean {
  return weights.every(
    (w) => w.status === w.expectedStatus && (!w.reading || w.jsBytes <= w.allowedJs),
  );
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const weights = await pageWeights(BENCH_PORT, await pageTypes());
  console.table(
    weights.map(({ page, path, status, htmlBytes, htmlGzipBytes, jsBytes }) => ({
      page,
      path,
      status,
      htmlBytes,
      htmlGzipBytes,
      jsBytes,
    })),
  );
}
