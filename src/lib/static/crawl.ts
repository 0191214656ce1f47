import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import PQueue from 'p-queue';
import { headersFile, securityHeaders, withPolicyMeta } from './headers.ts';
import { FILE_PATH } from './mode.ts';

interface CrawlOptions {
  /** The answer for a site path: the rendering server's (`ask`), or a page rendered before. */
  render: (path: string) => Promise<Response>;
  /** Public origin of the copy: absolute links to it (sitemap, feed) are crawled as paths. */
  siteOrigin: string;
  /** Where the pages are written; without it they are only walked (the build's early pages). */
  outDir?: string;
  seeds: readonly string[];
  /** Which of a page's links are walked too (every one by default). */
  follow?: (link: string, from: string) => boolean;
  /** Pages rendered at once. */
  concurrency?: number;
  onPage?: (page: RenderedPage, written: number, queued: number) => void;
  /** Takes the derived pictures (`/_img/…`) the pages name (./pictures.ts makes them). */
  onPicture: (path: string) => void;
}

/** A page the crawl took, as a later crawl can take it again instead of rendering it. */
export interface RenderedPage {
  path: string;
  status: number;
  headers: Headers;
  body: Buffer<ArrayBuffer>;
}

/**
 * A GET to the rendering server, sent once more when the connection it reused was closed as it went
 * out (`fetch failed: other side closed`: the server's idle keep-alive ended while the build's own
 * event loop was busy). A server that has stopped fails the second try too.
 */
export async function askServer(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return fetch(url, init);
  }
}

/** The rendering server's answer for a site path (a redirect is an answer, not followed). */
export const ask = (server: string) => (path: string) =>
  askServer(`${server}${path}`, { redirect: 'manual' });

export interface CrawlResult {
  /** Site paths written, in crawl order. */
  written: string[];
  /** `path (linked from …): status`: links the copy cannot serve. */
  broken: string[];
  /** `path (linked from …)`: a page's link to a page the site does not have (404, as live). */
  dead: string[];
  /** Every derived picture the written pages name. */
  pictures: Set<string>;
}

/** Never part of a static copy: they need a server (forms, sessions, bookings, APIs). */
const SERVER_ONLY =
  /^\/(?:_actions|_server-islands|_status|api|embed|login|logout|register|account)(?:\/|$)/;
/** Copied from the build (`public/`, `_astro/`) or written later (Pagefind), never rendered. */
const ASSETS = /^\/(?:_astro\/|pagefind\/|logos\/|favicon\.svg$)/;

/** A page of the copy the crawl renders (not a picture, an asset or a server-only path). */
export const isPagePath = (path: string): boolean =>
  !path.startsWith('/_img/') && !ASSETS.test(path) && !SERVER_ONLY.test(path);

/**
 * One spelling per page: a link written `/posts/café` and the canonical `…/posts/caf%C3%A9` are the
 * same page (rendered and written once). Escapes already there are kept; dot segments resolved.
 */
export const sitePath = (path: string): string => new URL(path, 'http://site').pathname;

/** The file a static host serves for a site path: its escapes decoded, as hosts decode a request's. */
export function fileForPath(path: string): string {
  if (path === '/') return 'index.html';
  if (path === '/404') return '404.html';
  let named = path;
  try {
    named = decodeURI(path);
  } catch {
    // A malformed escape stays as written.
  }
  const clean = named.replace(/^\/+|\/+$/g, '');
  // Only real file types keep their name (`/epaper/x/zoom/1.5` is a page, not a `.5` file).
  return FILE_PATH.test(clean) ? clean : `${clean}/index.html`;
}

/** A value as a browser or feed reader reads it: `'` is `&#39;` in a page, `&apos;` in XML. */
const decode = (value: string): string =>
  value.replace(
    /&(amp|apos|#(\d+)|#x([0-9a-f]+));/gi,
    (entity: string, name: string, dec?: string, hex?: string) => {
      if (!dec && !hex) return name.toLowerCase() === 'amp' ? '&' : "'";
      const code = dec ? Number(dec) : parseInt(hex ?? '', 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    },
  );

/**
 * Derived images of the image route wherever a page names them: `srcset`, the reader's `data-webp`,
 * `og:image`, JSON-LD. Their paths carry no characters that need escaping.
 */
const IMAGE_PATH = /\/_img\/[\w/-]+\.(?:avif|webp|jpg)/g;

/** Root-relative or same-origin links in an HTML or XML body, as site paths without query or hash. */
export function linksIn(body: string, siteOrigin: string): string[] {
  const found = new Set<string>();
  for (const [image] of body.matchAll(IMAGE_PATH)) found.add(image);
  const pattern = /(?:href|src)="([^"]*)"|<loc>([^<]*)<\/loc>/g;
  for (const match of body.matchAll(pattern)) {
    const raw = decode((match[1] ?? match[2] ?? '').trim());
    let path: string | undefined;
    if (raw.startsWith('/') && !raw.startsWith('//')) path = raw;
    else if (raw.startsWith(`${siteOrigin}/`) || raw === siteOrigin)
      path = raw.slice(siteOrigin.length) || '/';
    if (!path) continue;
    const bare = path.split('#')[0]?.split('?')[0] ?? '';
    if (bare) found.add(sitePath(bare.length > 1 ? bare.replace(/\/$/, '') : bare));
  }
  return [...found];
}

/** Who links a seed: a seed the site does not have fails the build. */
const SEED = 'the build';

/**
 * Asks the rendering server for every page reachable from the seeds (links and sitemap entries)
 * and writes each where a static host looks for it (`/posts/x` → `posts/x/index.html`).
 */
export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const { siteOrigin, outDir, follow = () => true } = options;
  const seen = new Set<string>();
  const queue = new PQueue({ concurrency: options.concurrency ?? 4 });
  const referrer = new Map<string, string>();
  const written: string[] = [];
  const broken: string[] = [];
  const dead: string[] = [];
  const headers: { path: string; headers: [string, string][] }[] = [];

  const pictures = new Set<string>();
  const enqueue = (path: string, from: string) => {
    if (seen.has(path) || ASSETS.test(path)) return;
    seen.add(path);
    if (path.startsWith('/_img/')) {
      pictures.add(path);
      return options.onPicture(path);
    }
    if (SERVER_ONLY.test(path)) {
      broken.push(`${path} (linked from ${from}): needs a server`);
      return;
    }
    referrer.set(path, from);
    // A failed page fails the crawl (below); its own promise needs no handler.
    queue.add(() => visit(path)).catch(() => undefined);
  };

  const visit = async (path: string) => {
    const response = await options.render(path);
    if (response.status !== (path === '/404' ? 404 : 200)) {
      const from = referrer.get(path) ?? '?';
      const where = `${path} (linked from ${from})`;
      // A story linking a page the site does not have: the copy's 404 page answers it, as live.
      if (response.status === 404 && from !== SEED) return void dead.push(where);
      const location = response.headers.get('location');
      // The server's one-line reason (its refusals are short plain text) tells the operator why.
      const reason = location ? `→ ${location}` : (await response.text()).slice(0, 120).trim();
      broken.push(`${where}: ${response.status}${reason ? ` ${reason}` : ''}`);
      return;
    }
    const type = response.headers.get('content-type') ?? '';
    const page: RenderedPage = {
      path,
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
    written.push(path);
    if (outDir) {
      // The live site's policy travels with the page (no server sends the header for a copy).
      const policy = response.headers.get('content-security-policy');
      const body = /html/.test(type)
        ? Buffer.from(withPolicyMeta(page.body.toString('utf8'), policy))
        : page.body;
      headers.push({ path, headers: securityHeaders(response.headers) });
      const file = join(outDir, fileForPath(path));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, body);
    }
    if (/html|xml/.test(type)) {
      for (const link of linksIn(page.body.toString('utf8'), siteOrigin)) {
        if (follow(link, path)) enqueue(link, path);
      }
    }
    options.onPage?.(page, written.length, queue.size);
  };

  for (const seed of options.seeds) enqueue(seed, SEED);
  try {
    await Promise.race([queue.onError(), queue.onIdle()]);
  } finally {
    queue.clear();
  }
  // Every host gets the policy from the pages' <meta>; hosts that read `_headers` get all of them.
  headers.sort((a, b) => a.path.localeCompare(b.path));
  if (outDir) writeFileSync(join(outDir, '_headers'), headersFile(headers));
  return { written, broken, dead, pictures };
}
