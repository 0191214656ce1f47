import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a page render is for, and by when it must be done. Set once per request by the middleware and
 * read deep in the upstream layer (cache misses charge `visitor`; calls stop at `deadline`), so no
 * page or loader has to pass it along.
 */
export interface VisitorContext {
  /**
   * Who cache misses are charged to: `ip:<address>` (loopback and private addresses too: behind a
   * proxy, TRUST_PROXY makes each visitor their forwarded address), or `crawler:<name>` for a known
   * crawler; `undefined` only where no address exists (prerendering), which is not charged.
   */
  visitor: string | undefined;
  /** An obvious crawler (by user agent): a smaller claim on the shared budget than humans. */
  crawler: boolean;
  /** Epoch ms: no upstream call starts after it, and running ones are cut off at it. */
  deadline?: number | undefined;
  /** Inside a booking (after a room was chosen): lodging calls may use the reserve searches leave. */
  bookingStep?: boolean | undefined;
  /** Work the process does for itself (the change watchers): spends the budget last. */
  background?: boolean | undefined;
  /**
   * Reads the page can do without for now (see `asSpare`): spend the budget last, like the
   * watchers, so a page with no copy at all gets the calls first.
   */
  spare?: boolean | undefined;
}

const storage = new AsyncLocalStorage<VisitorContext>();

export function runAsVisitor<T>(context: VisitorContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentVisitor(): VisitorContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with the current visitor changed by `patch` (outside any visitor, just `fn`). */
function patched<T>(patch: Partial<VisitorContext>, fn: () => T): T {
  const context = storage.getStore();
  return context ? storage.run({ ...context, ...patch }, fn) : fn();
}

/** Runs `fn` for the same visitor with no page deadline (background refreshes outlive the page). */
export const withoutDeadline = <T>(fn: () => T): T => patched({ deadline: undefined }, fn);

/**
 * Runs `fn`'s reads as spare ones: a refresh of a value the cache can still serve, or a part of a
 * page it renders without (a post's comments and related posts). They spend the budget at
 * `background` priority, only what readers leave; refused, the old copy is served or the part left
 * out. While the budget is short, the calls go to the pages that have no copy at all (a 503).
 */
export function asSpare<T>(fn: () => T): T {
  const anonymous = { visitor: undefined, crawler: false };
  return storage.run({ ...anonymous, ...storage.getStore(), spare: true }, fn);
}

/** Runs `fn` as the booking step of the current visitor (see `VisitorContext.bookingStep`). */
export const asBookingStep = <T>(fn: () => T): T => patched({ bookingStep: true }, fn);

/** Crawlers, preview fetchers and HTTP libraries that say what they are. */
const CRAWLER =
  /([a-z0-9-]*(?:bot|crawler|spider|slurp|scraper|fetcher|preview|archiver))\b|\b(curl|wget|python-requests|python-urllib|aiohttp|go-http-client|java|okhttp|axios|node-fetch|undici|libwww-perl|scrapy|httpclient|headlesschrome|phantomjs)\b/i;

/** `googlebot`, `curl`, … for an obvious crawler's user agent; `undefined` for a browser (or none). */
export function crawlerName(userAgent: string | null | undefined): string | undefined {
  if (!userAgent) return undefined;
  const match = CRAWLER.exec(userAgent);
  return (match?.[1] ?? match?.[2])?.toLowerCase();
}

/**
 * The visitor a request is charged as. A crawler is one visitor whatever its address (they spread
 * over many), everyone else is their address, loopback included (see `VisitorContext`).
 */
export function visitorFor(
  clientIp: string,
  userAgent: string | null | undefined,
  deadline?: number,
): VisitorContext {
  const name = crawlerName(userAgent);
  return {
    visitor: name ? `crawler:${name}` : clientIp === 'unknown' ? undefined : `ip:${clientIp}`,
    crawler: name !== undefined,
    deadline,
  };
}

/**
 * Runs `fn` as the process' background work (the change watchers): charged to no visitor, and its
 * upstream calls spend the budget at `background` priority, only what readers leave.
 */
export function asBackground<T>(fn: () => T): T {
  return storage.run({ visitor: undefined, crawler: false, background: true }, fn);
}
