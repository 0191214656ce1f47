import { RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { uncachedJson } from '../delivery/policy.ts';
import { warmAfterPurge } from '../images/prewarm.ts';
import { logInfo, logWarn } from '../log/log.ts';
import { bearerToken, checkSecret } from '../request/secret-attempts.ts';
import type { Tenant } from '../tenants/schema.ts';
import { sharedLimiter } from '../upstream/redis.ts';
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

const json = uncachedJson;

export interface PurgeContext {
  tenant: Tenant;
  request: Request;
  clientIp: string;
  /** The tenant's purge secret (`purgeSecret` in SECRETS_FILE, or its pair in `PURGE_SECRETS`). */
  secret: string | undefined;
  redisUrl: string | undefined;
  edgePurgeUrl: string | undefined;
}

/**
 * Accepted purges per tenant a minute, and refused attempts per address in ten minutes; wrong
 * secrets from all addresses together are limited per tenant too (../request/secret-attempts.ts).
 */
const PURGES_PER_MINUTE = 30;
const REFUSALS_PER_10_MIN = 10;

let limiters:
  | Promise<[Awaited<ReturnType<typeof sharedLimiter>>, Awaited<ReturnType<typeof sharedLimiter>>]>
  | undefined;

function purgeLimiters(redisUrl: string | undefined) {
  limiters ??= Promise.all([
    sharedLimiter(
      { points: PURGES_PER_MINUTE, duration: 60, keyPrefix: 'masthead:purge' },
      redisUrl,
    ),
    sharedLimiter(
      { points: REFUSALS_PER_10_MIN, duration: 600, keyPrefix: 'masthead:purge-refused' },
      redisUrl,
    ),
  ]);
  return limiters;
}

/** Seconds to wait when `key` has spent `limiter`, else `undefined` (one point taken). */
async function spent(
  limiter: Awaited<ReturnType<typeof sharedLimiter>>,
  key: string,
): Promise<number | undefined> {
  try {
    await limiter.consume(key, 1);
    return undefined;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) return undefined;
    return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
  }
}

export async function purgeResponse(context: PurgeContext): Promise<Response> {
  const { tenant, request, clientIp } = context;
  const [accepted, refused] = await purgeLimiters(context.redisUrl);
  const refuse = async (status: number, reason: string) => {
    logWarn('purge.refused', { tenant: tenant.id, reason, address: clientIp });
    const wait = await spent(refused, clientIp);
    if (wait !== undefined) {
      return json(429, { message: 'Too many refused purges.' }, { 'Retry-After': String(wait) });
    }
    return json(status, { message: reason });
  };
  if (request.method !== 'POST') return json(405, { message: 'Use POST.' }, { Allow: 'POST' });
  const blocked = await refused.get(clientIp).catch(() => null);
  if (blocked && blocked.remainingPoints <= 0) {
    const wait = Math.max(1, Math.ceil(blocked.msBeforeNext / 1000));
    return json(429, { message: 'Too many refused purges.' }, { 'Retry-After': String(wait) });
  }
  const { secret } = context;
  const given = bearerToken(request.headers.get('authorization'));
  if (!secret) return refuse(403, 'Purging is not set up for this site.');
  if (!given) return refuse(401, 'A valid purge secret is required.');
  const check = await checkSecret({
    given,
    expected: secret,
    scope: `purge:${tenant.id}`,
    redisUrl: context.redisUrl,
  });
  if (typeof check === 'object') {
    logWarn('purge.refused', { tenant: tenant.id, reason: 'guesses spent', address: clientIp });
    return json(
      429,
      { message: 'Too many refused purges.' },
      { 'Retry-After': String(check.retryAfterSeconds) },
    );
  }
  if (check === 'wrong') return refuse(401, 'A valid purge secret is required.');
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) {
    return json(415, { message: 'Send JSON: {"slug"}, {"tag"} or {"everything": true}.' });
  }
  const body = PurgeSchema.safeParse(await request.json().catch(() => undefined));
  if (!body.success) {
    return json(422, { message: 'Send JSON: {"slug"}, {"tag"} or {"everything": true}.' });
  }
  const wait = await spent(accepted, tenant.id);
  if (wait !== undefined) {
    return json(429, { message: 'Too many purges.' }, { 'Retry-After': String(wait) });
  }
  const target = body.data;
  const invalidation: Invalidation = {
    tenant: tenant.id,
    at: Date.now(),
    ...('slug' in target ? { slugs: [target.slug] } : {}),
    // A tag's pages of posts and the pages of the posts that carry it.
    ...('tag' in target ? { topics: [target.tag], postsTagged: [target.tag] } : {}),
    ...('everything' in target ? { everything: true } : {}),
  };
  await invalidateEverywhere(tenant, invalidation, context);
  warmAfterPurge(tenant, target);
  logInfo('purge', { tenant: tenant.id, ...target, address: clientIp });
  return json(202, { purged: target, edge: Boolean(context.edgePurgeUrl) });
}
