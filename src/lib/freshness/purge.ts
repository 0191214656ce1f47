import { z } from 'zod';
import { uncachedJson as json } from '../delivery/policy.ts';
import { warmAfterPurge } from '../images/prewarm.ts';
import { logInfo, logWarn } from '../log/log.ts';
import { settings } from '../settings/settings.ts';
import { retryAfterFromMs } from '../failures/wait.ts';
import { bearerToken, checkSecret } from '../request/secret-attempts.ts';
import { consumeLimit, visitorLimiter } from '../request/visitor-limits.ts';
import type { Tenant } from '../tenants/schema.ts';
import { invalidateEverywhere } from './bus.ts';
import type { Invalidation } from './invalidation.ts';

/**
 * `POST /_purge` (the newsroom's "now"): with `Authorization: Bearer <the tenant's secret>` (its
 * `purgeSecret` in SECRETS_FILE, or `PURGE_SECRETS`), and a JSON body naming a post slug, a tag or everything, every server and the
 * edge drop it (./bus.ts). An API with a bearer secret, not a form: no cookie is read, so there is
 * nothing for a cross-site request to borrow; bodies other than JSON are refused.
 */
export const PurgeSchema = z.union([
  z.strictObject({ slug: z.string().min(1).max(300) }),
  z.strictObject({ tag: z.string().min(1).max(300) }),
  z.strictObject({ everything: z.literal(true) }),
]);

export interface PurgeContext {
  tenant: Tenant;
  request: Request;
  clientIp: string;
  /** The tenant's purge secret (`purgeSecret` in SECRETS_FILE, or its pair in `PURGE_SECRETS`). */
  secret: string | undefined;
}

/**
 * Accepted purges per tenant a minute, and refused attempts per address in ten minutes; wrong
 * secrets from all addresses together are limited per tenant too (../request/secret-attempts.ts).
 */
const PURGES = { points: 30, duration: 60 };
const REFUSALS = { points: 10, duration: 600 };
const REFUSED = 'Too many refused purges.';
const SEND_JSON = 'Send JSON: {"slug"}, {"tag"} or {"everything": true}.';

const tooMany = (message: string, wait: number) =>
  json(429, { message }, { 'Retry-After': String(wait) });

export async function purgeResponse(context: PurgeContext): Promise<Response> {
  const { tenant, request, clientIp, secret } = context;
  const { REDIS_URL: redisUrl, EDGE_PURGE_URL } = settings();
  const refused = visitorLimiter('purge-refused', REFUSALS, redisUrl);
  const refuse = async (status: number, reason: string) => {
    logWarn('purge.refused', { tenant: tenant.id, reason, address: clientIp });
    const counted = await consumeLimit(refused, clientIp);
    if (!counted.ok) return tooMany(REFUSED, counted.retryAfterSeconds);
    return json(status, { message: reason });
  };
  if (request.method !== 'POST') return json(405, { message: 'Use POST.' }, { Allow: 'POST' });
  const blocked = await (await refused).get(clientIp).catch(() => null);
  if (blocked && blocked.remainingPoints <= 0) {
    return tooMany(REFUSED, retryAfterFromMs(blocked.msBeforeNext));
  }
  const given = bearerToken(request.headers.get('authorization'));
  if (!secret) return refuse(403, 'Purging is not set up for this site.');
  if (!given) return refuse(401, 'A valid purge secret is required.');
  const check = await checkSecret({
    given,
    expected: secret,
    scope: `purge:${tenant.id}`,
    redisUrl,
  });
  if (typeof check === 'object') {
    logWarn('purge.refused', { tenant: tenant.id, reason: 'guesses spent', address: clientIp });
    return tooMany(REFUSED, check.retryAfterSeconds);
  }
  if (check === 'wrong') return refuse(401, 'A valid purge secret is required.');
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) {
    return json(415, { message: SEND_JSON });
  }
  const body = PurgeSchema.safeParse(await request.json().catch(() => undefined));
  if (!body.success) return json(422, { message: SEND_JSON });
  const accepted = await consumeLimit(visitorLimiter('purge', PURGES, redisUrl), tenant.id);
  if (!accepted.ok) return tooMany('Too many purges.', accepted.retryAfterSeconds);
  const target = body.data;
  const invalidation: Invalidation = {
    tenant: tenant.id,
    at: Date.now(),
    ...('slug' in target ? { slugs: [target.slug] } : {}),
    // A tag's pages of posts and the pages of the posts that carry it.
    ...('tag' in target ? { topics: [target.tag], postsTagged: [target.tag] } : {}),
    ...('everything' in target ? { everything: true } : {}),
  };
  await invalidateEverywhere(tenant, invalidation);
  warmAfterPurge(tenant, target);
  logInfo('purge', { tenant: tenant.id, ...target, address: clientIp });
  return json(202, { purged: target, edge: Boolean(EDGE_PURGE_URL) });
}
