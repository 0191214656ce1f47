import { PRIVATE, sharedCache } from './policy.ts';
import type { CacheProvider, InvalidateOptions } from 'astro';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { readWhole, streamOver, wholeBody } from './whole-body.ts';
import { memo } from '../memo.ts';
import {
  cleanQuery,
  cleanRedirect,
  MAX_URL_LENGTH,
  shareableParamsOfRequestPath,
} from '../request/clean-url.ts';
import { currentRequest } from '../log/request-context.ts';
import { announcesBody } from '../request/body-limit.ts';
import { logResponse, observedProvider } from '../observability/request.ts';
import { cacheHeaders } from './cache-tags.ts';
import { forwardedHost } from '../request/public-origin.ts';
import { SESSION_COOKIE } from './session-store.ts';
import { cacheHostOf, hostMatches, normalizeHost } from '../tenants/resolution.ts';
import { getTenants } from '../tenants/registry.ts';
import type { Tenant } from '../tenants/schema.ts';

/**
 * The route cache (astro.config.mjs `cache.provider`): Astro's `memoryCache`, bounded. Astro's own
 * provider caps its entries but keeps a map from every URL it ever stored to that URL's `Vary`
 * headers, never trimmed, and keys pages by every query parameter: one entry per made-up query
 * string and memory that grows with the URLs strangers send. Here both maps are LRU caches with a
 * byte budget, a page is keyed only by the query parameters it reads, in a stable order (any other
 * parameter is answered with a redirect to the clean URL by the site: src/lib/request/clean-url.ts),
 * and routes that are not shareable pages are never stored.
 */

export interface RouteCacheOptions {
  /** Most pages (and page variants) kept. */
  max?: number;
  /** Most bytes of bodies, headers and keys kept. */
  maxBytes?: number;
  /** The tenants now, whose hosts decide the host a page is kept under (`cacheHostOf`; none: its own). */
  tenants?: () => readonly Tenant[];
}

interface Entry {
  body: Uint8Array;
  status: number;
  headers: [string, string][];
  storedAt: number;
  maxAge: number;
  swr: number;
  tags: string[];
  path: string;
  /** The host the visitor used (`X-Forwarded-Host` behind a trusted proxy), without its port. */
  host: string;
  /** Who rendered it, for the log line and metrics of a hit served before Astro. */
  tenant: string;
  route: string | undefined;
  /** The headers as Node writes them on a hit, made on the first such hit. */
  nodeHeaders?: OutgoingHttpHeaders;
  /** Dropped by an invalidation: rendered again before it is served, and kept for when that fails. */
  invalidated?: boolean;
}

/** A page the route cache has just stored: what an edge in front may hold a copy of too. */
export interface StoredPage {
  tenant: string;
  /** The address as requested (the edge keys on it as sent, parameters in the visitor's order). */
  url: URL;
  /** Reads one of the request's headers (the edge's `X-Forwarded-Host`, `Accept-Encoding`…). */
  header: (name: string) => string | null;
  tags: readonly string[];
}

const storedListeners = new Set<(page: StoredPage) => void>();

/** Calls `listener` with every page this server's route cache stores (src/lib/freshness/). */
export function onPageStored(listener: (page: StoredPage) => void): void {
  storedListeners.add(listener);
}

/** Reads one request header, whether from a Web `Request` or a Node request. */
type HeaderOf = (name: string) => string | null;

/** The headers Astro takes off a provider's response before it is sent (core/cache/handler.js). */
const INTERNAL_HEADERS = new Set(['cdn-cache-control', 'cache-tag']);

const ASTRO_COOKIES = Symbol.for('astro.cookies');

const MAX_AGE = /(?:^|,)\s*max-age=(\d+)/i;
const SWR = /(?:^|,)\s*stale-while-revalidate=(\d+)/i;

/** `max-age` and `stale-while-revalidate` of the `CDN-Cache-Control` header Astro's cache writes. */
function cdnRule(response: Response): { maxAge: number; swr: number } {
  const rule = response.headers.get('CDN-Cache-Control') ?? '';
  const seconds = (directive: RegExp) => Number(directive.exec(rule)?.[1] ?? 0);
  return { maxAge: seconds(MAX_AGE), swr: seconds(SWR) };
}

function setsCookie(response: Response): boolean {
  if (response.headers.has('set-cookie')) return true;
  const cookies = Reflect.get(response, ASTRO_COOKIES) as
    { headers(): Iterator<string> } | undefined;
  return cookies ? !cookies.headers().next().done : false;
}

/** The request headers a response varies on; `null` when it varies on the visitor (never stored). */
function varyOf(response: Response): string[] | null {
  const names = (response.headers.get('Vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name && name !== 'set-cookie');
  if (names.includes('cookie') || names.includes('*')) return null;
  return names;
}

/**
 * A visitor who sends the session cookie may be signed in (the edge treats them as personal too:
 * deploy/nginx/masthead.conf). Their browser gets the shared page as `PRIVATE`: no back/forward
 * cache shows it again once a logout changed the cookie. The copy kept here stays shared.
 */
const sessionCookie = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);
const personal = (header: HeaderOf) => sessionCookie.test(header('cookie') ?? '');

/**
 * The `Vary` part of a key. The forwarded host (the site varies on it behind a trusted proxy) as the
 * page's host is keyed (`cacheHostOf`), with its port (links to `localhost` names carry it:
 * ../tenants/origin.ts).
 */
function varySuffix(header: HeaderOf, names: readonly string[], host: (host: string) => string) {
  const valueOf = (name: string, value: string) =>
    name === 'x-forwarded-host' && value ? host(value) + (/:\d+$/.exec(value)?.[0] ?? '') : value;
  return names.map((name) => `\0${name}=${valueOf(name, header(name) ?? '')}`).join('');
}

/**
 * The query parameters a request path's page reads, or `false` when it is no shareable page:
 * remembered per path (a few regular expressions each, asked twice per miss: before Astro and in it).
 */
const allowedParams = memo(
  (pathname: string): ReadonlySet<string> | null => shareableParamsOfRequestPath(pathname) ?? null,
  { max: 4096 },
);

/**
 * The page's key without its `Vary` suffix, or `null` for a request the cache never answers: not a
 * GET, a body, not a shareable page, or parameters the page does not read (the site redirects to the
 * clean URL; answering from here would let the edge store the page under the made-up URL).
 */
function primaryKey(
  method: string,
  url: URL,
  header: HeaderOf,
  host: (host: string) => string,
): string | null {
  // A GET that says it carries a body is left to the site, which refuses it.
  if (method !== 'GET' || announcesBody(header)) return null;
  if (url.pathname.length + url.search.length > MAX_URL_LENGTH) return null;
  const allowed = allowedParams(url.pathname);
  if (!allowed) return null;
  // One copy per host, whatever its spelling (case, port, trailing dot): not one per variant sent,
  // nor one per made-up subdomain of a wildcard or host no tenant names (`cacheHostOf`).
  const page = `${url.protocol}//${host(url.host)}${url.pathname}`;
  if (!url.search && !url.pathname.includes('%')) return page;
  if (cleanRedirect(url, allowed) !== null) return null;
  return `${page}${cleanQuery(url.searchParams, allowed)}`;
}

/** The URL Astro's Node adapter gives this request (`createRequestFromNodeRequest`), if it can tell. */
const nodeRequestUrl = ({ headers, url }: IncomingMessage): URL | null =>
  headers.host && url?.startsWith('/') ? URL.parse(`http://${headers.host}${url}`) : null;

/**
 * Seconds an edge may keep a copy served past its time (while it renders again, or because that
 * failed): long enough to spare us, short enough that the edge soon takes the new page (or 404).
 */
const STALE_COPY_SECONDS = 10;

/**
 * A page kept for a wildcard's subdomains or for hosts no tenant names (`cacheHostOf`): the edge
 * keeps no copy of it (the site's middleware makes it `unshared`, ./policy.ts), so its address is in
 * no purge's book (src/lib/freshness/edge.ts). This server answers them all from its one copy.
 */
const notAtEdge = (key: string) => key.includes('//*');

/**
 * A held page as Astro's answer; `STALE`: past its time (or invalidated), served while or because
 * rendering it again failed.
 */
function toResponse(entry: Entry, state: 'HIT' | 'STALE', key: string): Response {
  const response = new Response(streamOver(entry.body), {
    status: entry.status,
    headers: entry.headers,
  });
  response.headers.set('X-Astro-Cache', state);
  if (state === 'STALE' && !notAtEdge(key))
    response.headers.set('Cache-Control', sharedCache(STALE_COPY_SECONDS));
  return response;
}

/** What an entry counts against the byte budget: body, key and headers. */
function entrySize(entry: Entry, key: string): number {
  let size = entry.body.byteLength + key.length;
  for (const [name, value] of entry.headers) size += name.length + value.length;
  return Math.max(1, size);
}

/** The pages held, keyed by primary key plus `Vary` suffix, and each page key's `Vary` list. */
function createStore(options: RouteCacheOptions) {
  const max = options.max ?? 2000;
  const { tenants } = options;
  return {
    host: tenants ? (host: string) => cacheHostOf(host, tenants()) : normalizeHost,
    entries: new LRUCache<string, Entry>({
      max,
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: entrySize,
    }),
    /** One `Vary` list per page key, as bounded as the pages themselves. */
    varyByKey: new LRUCache<string, string[]>({ max }),
    /** Keys whose stale copy is being rendered again in the background. */
    revalidating: new Set<string>(),
  };
}
type Store = ReturnType<typeof createStore>;

/** One request's view of the cache: its keys, how it reads its headers, its address. */
interface Lookup {
  key: string;
  primary: string;
  url: URL;
  header: HeaderOf;
}

/**
 * The request's keys and what is held under them: `fresh` within its `maxAge`, `stale` within its
 * `stale-while-revalidate`, else `expired` (or invalidated); null for a request never answered here.
 */
function find(store: Store, method: string, url: URL, header: HeaderOf) {
  const primary = primaryKey(method, url, header, store.host);
  if (!primary) return null;
  const vary = store.varyByKey.get(primary);
  const lookup: Lookup = {
    key: vary ? primary + varySuffix(header, vary, store.host) : primary,
    primary,
    url,
    header,
  };
  const cached = store.entries.get(lookup.key);
  const age = cached ? (Date.now() - cached.storedAt) / 1000 : 0;
  let state: 'fresh' | 'stale' | 'expired' = 'expired';
  if (cached && !cached.invalidated && age <= cached.maxAge) state = 'fresh';
  else if (cached && !cached.invalidated && age <= cached.maxAge + cached.swr) state = 'stale';
  return { lookup, cached, state };
}

/** Keeps `response` (whose body is `body`) when it may be shared; says whether it did. */
function storePage(store: Store, lookup: Lookup, response: Response, body: Uint8Array): boolean {
  const { maxAge, swr } = cdnRule(response);
  if (maxAge <= 0 || setsCookie(response)) return false;
  const vary = varyOf(response);
  if (vary === null) {
    store.entries.delete(lookup.key);
    return false;
  }
  const request = currentRequest();
  const entry: Entry = {
    body,
    status: response.status,
    headers: [...response.headers].filter(([name]) => name !== 'set-cookie'),
    storedAt: Date.now(),
    maxAge,
    swr,
    tags: (response.headers.get('Cache-Tag') ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
    path: lookup.url.pathname,
    host: normalizeHost(forwardedHost({ get: lookup.header }) ?? lookup.url.host),
    tenant: request?.tenant ?? 'none',
    route: request?.route,
  };
  if (vary.length > 0) store.varyByKey.set(lookup.primary, vary);
  else store.varyByKey.delete(lookup.primary);
  store.entries.set(lookup.primary + varySuffix(lookup.header, vary, store.host), entry);
  if (entry.tenant !== 'none' && !notAtEdge(lookup.primary)) {
    const { url, header } = lookup;
    const page = { tenant: entry.tenant, url, header, tags: entry.tags };
    for (const listener of storedListeners) listener(page);
  }
  return true;
}

/** A fresh hit written straight on Node's response, before Astro; `false` when it cannot. */
function answerOnNode(store: Store, req: IncomingMessage, res: ServerResponse): boolean {
  const started = performance.now();
  const url = nodeRequestUrl(req);
  const header: HeaderOf = (name) => {
    const value = req.headers[name];
    return value === undefined ? null : String(value);
  };
  const found = url && find(store, req.method ?? 'GET', url, header);
  if (!found?.cached || found.state !== 'fresh') return false;
  const { cached } = found;
  cached.nodeHeaders ??= {
    ...Object.fromEntries(cached.headers.filter(([name]) => !INTERNAL_HEADERS.has(name))),
    'x-astro-cache': 'HIT',
  };
  const headers = personal(header) ? { ...cached.nodeHeaders, 'cache-control': PRIVATE } : null;
  res.writeHead(cached.status, headers ?? cached.nodeHeaders);
  res.end(Buffer.from(cached.body.buffer, cached.body.byteOffset, cached.body.byteLength));
  logResponse({
    url: found.lookup.url,
    method: 'GET',
    tenant: cached.tenant,
    route: cached.route,
    status: cached.status,
    cache: 'hit',
    upstreamCalls: 0,
    started,
  });
  return true;
}

type Next = () => Promise<Response>;
type RequestContext = Parameters<NonNullable<CacheProvider['onRequest']>>[0];

/** Renders a stale entry's page again in the background (once at a time per key). */
function revalidate(
  store: Store,
  lookup: Lookup,
  next: Next,
  logger: { warn: (message: string) => void },
) {
  if (store.revalidating.has(lookup.key)) return;
  store.revalidating.add(lookup.key);
  next()
    .then(async (fresh) => {
      // A failed render keeps the copy; a page gone or no longer shareable must not be served again.
      if (fresh.status < 500 && !storePage(store, lookup, fresh, await readWhole(fresh))) {
        store.entries.delete(lookup.key);
      }
    })
    .catch((error: unknown) => {
      logger.warn(`Background revalidation of ${lookup.url.pathname} failed: ${String(error)}`);
    })
    .finally(() => store.revalidating.delete(lookup.key));
}

/** A miss: renders the page, keeps it when it may be shared, and answers it. */
async function renderAndStore(
  store: Store,
  lookup: Lookup,
  cached: Entry | undefined,
  next: Next,
): Promise<Response> {
  const response = await next();
  // The render failed (the budget is spent, the upstream is down): any copy beats a 503.
  if (cached && response.status >= 500) return toResponse(cached, 'STALE', lookup.key);
  const { maxAge } = cdnRule(response);
  if (maxAge <= 0) {
    // Gone (a takedown's 404) or no longer shareable: the old copy must not come back later.
    store.entries.delete(lookup.key);
    return response;
  }
  // The compression middleware's bytes when it buffered the page (./whole-body.ts), else the
  // body read once for the entry and the answer: a clone would tee the stream and copy both.
  const whole = wholeBody(response);
  const body = whole ?? (await readWhole(response));
  let answer = response;
  if (!whole) {
    answer = new Response(streamOver(body), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // What Astro keeps on the response itself (its cookies, above all) goes along; a fetch
    // implementation's own state (a body already read) must not.
    for (const symbol of Object.getOwnPropertySymbols(response)) {
      if (Symbol.keyFor(symbol)?.startsWith('astro'))
        Reflect.set(answer, symbol, Reflect.get(response, symbol));
    }
  }
  if (storePage(store, lookup, answer, body)) answer.headers.set('X-Astro-Cache', 'MISS');
  return answer;
}

/** Astro's side of the cache: a hit, a stale copy while it renders again, or a render kept. */
async function answerInAstro(store: Store, context: RequestContext, next: Next): Promise<Response> {
  const { request, url } = context;
  const found = find(store, request.method, url, (name) => request.headers.get(name));
  if (!found) return next();
  const { lookup, cached, state } = found;
  let answer: Response;
  if (cached && state === 'fresh') answer = toResponse(cached, 'HIT', lookup.key);
  else if (cached && state === 'stale') {
    revalidate(store, lookup, next, context.logger);
    answer = toResponse(cached, 'STALE', lookup.key);
  } else answer = await renderAndStore(store, lookup, cached, next);
  if (personal(lookup.header) && answer.headers.get('Cache-Control')?.startsWith('public'))
    answer.headers.set('Cache-Control', PRIVATE);
  return answer;
}

/** Whether an entry carries any of `tags`. */
function taggedWith(tags: Iterable<string>): (entry: Entry) => boolean {
  const wanted = new Set(tags);
  return (entry) => entry.tags.some((tag) => wanted.has(tag));
}

export function createRouteCache(options: RouteCacheOptions = {}) {
  const store = createStore(options);
  return {
    name: 'masthead-route-cache',
    setHeaders: cacheHeaders,
    /** Answers a fresh hit straight on Node's response, before Astro; `false` when it cannot. */
    nodeHit: (req: IncomingMessage, res: ServerResponse) => answerOnNode(store, req, res),
    onRequest: (context: RequestContext, next: Next) => answerInAstro(store, context, next),
    /** Marks (not deletes) the entries of a path or tags: rendered again, this copy kept for failures. */
    invalidate: (invalidation: InvalidateOptions) => {
      const tagged = taggedWith([invalidation.tags ?? []].flat());
      for (const entry of store.entries.values()) {
        if (entry.path === invalidation.path || tagged(entry)) entry.invalidated = true;
      }
      return Promise.resolve();
    },
    /** Deletes the pages of these tags (a tenant removed or changed: its old pages never come back). */
    drop: (tags: readonly string[]) => {
      const tagged = taggedWith(tags);
      for (const [key, entry] of store.entries.entries()) {
        if (tagged(entry)) store.entries.delete(key);
      }
    },
    /** The tags of the pages held on hosts these names or `*.` wildcards take (now another tenant's). */
    tagsAt: (patterns: readonly string[]) =>
      new Set(
        [...store.entries.values()]
          .filter((entry) => patterns.some((pattern) => hostMatches(pattern, entry.host)))
          .flatMap((entry) => entry.tags),
      ),
  };
}

/** Where `npm start` (scripts/start.mjs) finds `nodeHit`: Astro bundles this module, the script cannot import it. */
const NODE_HIT = Symbol.for('masthead.route-cache.node-hit');

/** The provider Astro loaded (none before): the change watcher and purges reach it without a request. */
let loaded: ReturnType<typeof createRouteCache> | undefined;

export const invalidateRoutes = async (tags: readonly string[]) =>
  loaded?.invalidate({ tags: [...tags] });

export const dropRoutes = (tags: readonly string[]) => loaded?.drop(tags);

export const routeTagsAt = (patterns: readonly string[]): ReadonlySet<string> =>
  loaded?.tagsAt(patterns) ?? new Set();

/** Astro loads the provider as this module's default export, with `cache.provider.config`. */
export default function routeCache(config: RouteCacheOptions | undefined): CacheProvider {
  // Observed in place (the same object): its invalidations are the ones requests see.
  loaded = observedProvider(createRouteCache({ ...config, tenants: getTenants }));
  Reflect.set(globalThis, NODE_HIT, loaded.nodeHit);
  return loaded;
}
