import type { APIContext } from 'astro';
import { getSignedIn } from '../auth/session.ts';
import { loadReader } from '../epaper/load.ts';
import { logError } from '../log/log.ts';
import type { Tenant } from '../tenants/schema.ts';
import { parseImagePath, type ImageTarget } from './address.ts';
import { ImageError, queryRefused, spellingRefused } from './errors.ts';
import { requestPriority } from './queue.ts';
import { imageOk, imageRefused } from './respond.ts';
import { failedLoad, IMMUTABLE, PRIVATE, STAND_IN } from '../delivery/policy.ts';
import { imagePipeline, imageSecret } from './shared-pipeline.ts';
import { sourceAllowed } from './sources.ts';
import { UpstreamError } from '../upstream/errors.ts';

/** `GET /_img/…` (injected by astro.config.mjs): one signed, cached, size-limited derived image. */
export async function imageRoute(context: APIContext): Promise<Response> {
  const tenant = context.locals.tenantMatchOrNull?.tenant;
  try {
    if (!tenant) throw new ImageError(404, 'No site is served at this address.');
    if (!queryAllowed(context)) throw queryRefused();
    if (!spelledAsWritten(context)) throw spellingRefused();
    const parsed = parseImagePath(imageSecret(), context.url.pathname);
    if (!parsed.ok) throw new ImageError(parsed.status, parsed.reason);
    const { target, width, format, crop } = parsed.request;
    const priority = requestPriority(width, context.request.headers.get('priority'));
    const source =
      target.kind === 'source' ? target.source : await subscriberPage(context, tenant, target);
    const allowed = (url: string) => sourceAllowed(tenant, url);
    if (!allowed(source)) {
      throw new ImageError(403, 'The image source is not on a host this site takes pictures from.');
    }
    // While it waits long in the queue, another width already made stands in (`answer`).
    const wanted = { source, width, format, crop, allowed, priority };
    const { bytes, exact } = await imagePipeline().answer(wanted);
    const cache = target.kind === 'edition-page' ? PRIVATE : exact ? IMMUTABLE : STAND_IN;
    return imageOk(bytes, format, cache);
  } catch (error) {
    if (error instanceof ImageError) return imageRefused(error);
    logError('images.failed', { tenant: tenant?.id, path: context.url.pathname }, error);
    // An upstream's refusal is the gateway's 502; anything else is a bug of ours: a 500.
    const status = error instanceof UpstreamError ? 502 : 500;
    return imageRefused(new ImageError(status, 'The image could not be made.'));
  }
}

/**
 * The route reads nothing from the query, and an edge cache keys on it: a query (even a bare `?`)
 * would make a second cached copy of the same picture. Only a preview's own `?tenant=<id>` (what
 * `tenantHref` writes when the tenant came from the query) is this picture's address.
 */
function queryAllowed(context: APIContext): boolean {
  const site = context.locals.tenantMatchOrNull;
  const expected =
    site?.via === 'query' ? `?${new URLSearchParams({ tenant: site.tenant.id })}` : '';
  const raw = context.request.url;
  const asked = raw.includes('?') ? raw.slice(raw.indexOf('?')) : '';
  return asked === expected && context.url.search === expected;
}

/**
 * The site writes no escape in an image address (nor in a tenant id, its `/<id>/` prefix), while
 * the router decodes one (`/%5Fimg/u/…` reaches this route): each escaped spelling would be one
 * more copy of the picture in an edge cache keyed on the address as sent.
 */
function spelledAsWritten(context: APIContext): boolean {
  const raw = context.request.url;
  return !raw.slice(0, raw.includes('?') ? raw.indexOf('?') : undefined).includes('%');
}

/** The upstream URL of a page the signed-in visitor may read, checked on every request. */
async function subscriberPage(
  context: APIContext,
  tenant: Tenant,
  { edition, page }: Extract<ImageTarget, { kind: 'edition-page' }>,
): Promise<string> {
  const signedIn = await getSignedIn(context.session, tenant);
  if (!signedIn) throw new ImageError(401, 'Log in as a subscriber to see this page.');
  // An outage says "try again" with its wait; anything else (a bug, a 403) is logged by the route.
  const session = () => Promise.resolve(signedIn);
  const reader = await loadReader(tenant, edition, session, { plans: false }).catch(
    (error: unknown) => {
      const answer = failedLoad(error);
      if (answer.status === 404) throw new ImageError(404, 'There is no such edition.');
      const message = 'The edition cannot be checked right now; try again shortly.';
      throw new ImageError(503, message, answer.retryAfter);
    },
  );
  if (reader.kind !== 'reader')
    throw new ImageError(403, 'Your subscription does not include this edition.');
  const found = reader.pages.find((p) => p.page_number === page);
  if (!found) throw new ImageError(404, 'This edition has no such page.');
  return found.image_url;
}
