import { isRecord } from '../content/records.ts';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { logWarn } from '../log/log.ts';
import { settings } from '../settings/settings.ts';
import { getRedis } from '../upstream/redis.ts';
import type { Tenant } from '../tenants/schema.ts';
import { purgeEdge } from './edge.ts';
import { invalidateRoutes } from '../delivery/route-cache.ts';
import { siteUpstream } from '../services/clients.ts';
import { changedTags, dataTarget, InvalidationSchema, type Invalidation } from './invalidation.ts';

/**
 * Invalidations reach every server: applied here at once, and sent on the Redis channel every
 * server of the same `REDIS_URL` listens to (without Redis there is one server).
 */
const CHANNEL = 'masthead:invalidate';
/** This process, so it does not apply its own message twice. */
const SELF = randomUUID();

let listening: Promise<void> | undefined;

/** The message that asks every other server to read its tenants file again (./tenants.ts). */
const TENANTS_RELOAD = 'tenants.reload';
/** `announced`: another server's message; `subscribed`: the subscription (re)started. */
type Heard = 'announced' | 'subscribed';
const tenantsListeners = new Set<(heard: Heard) => void>();

/** Calls `listener` when another server announces that it reloaded its tenants file. */
export function onTenantsAnnounced(listener: (heard: Heard) => void): void {
  tenantsListeners.add(listener);
}

/** Sends `message` to every other server on `REDIS_URL`; a failure is logged as `event`. */
async function send(message: { kind?: string; tenant?: string }, event: string): Promise<void> {
  const { REDIS_URL } = settings();
  if (!REDIS_URL) return;
  try {
    const redis = await getRedis(REDIS_URL);
    await redis.publish(CHANNEL, JSON.stringify({ ...message, origin: SELF }));
  } catch (error) {
    logWarn(event, { tenant: message.tenant, message: String(error) });
  }
}

/** Tells every other server to read its tenants file again. */
export const announceTenantsReload = () =>
  send({ kind: TENANTS_RELOAD }, 'tenants.announce.failed');

/** What the channel carries: a tenants announcement, or an invalidation. */
const BusMessage = z.union([z.object({ kind: z.literal(TENANTS_RELOAD) }), InvalidationSchema]);

/** Another server's message, or undefined (this process's own, or not one of ours). */
function received(text: string): z.output<typeof BusMessage> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && value['origin'] === SELF
      ? undefined
      : BusMessage.safeParse(value).data;
  } catch {
    return undefined;
  }
}

/** Subscribes once per process (a connection of its own: a subscribed client sends nothing else). */
export function listenForInvalidations(): Promise<void> {
  const { REDIS_URL } = settings();
  if (!REDIS_URL) return Promise.resolve();
  listening ??= getRedis(REDIS_URL).then((shared) => {
    const subscriber = shared.duplicate();
    const announced = (heard: Heard) => tenantsListeners.forEach((listener) => listener(heard));
    // An announcement made while this server was not subscribed (starting, Redis away) reached no
    // one: the file is read once more at every subscription.
    const subscribe = () =>
      subscriber.subscribe(CHANNEL).then(
        () => announced('subscribed'),
        (error: unknown) => {
          logWarn('freshness.subscribe.failed', { message: String(error) });
        },
      );
    subscriber.on('error', () => undefined); // the shared client already reports Redis away
    subscriber.on('ready', () => void subscribe());
    subscriber.on('message', (_channel: string, text: string) => {
      const message = received(text);
      if (message && 'kind' in message) announced('announced');
      else if (message) void applyLocally(message);
    });
  });
  return listening;
}

/** How long the other servers get to drop their copies before the edge is purged (else it refetches an old one). */
const EDGE_AFTER_MS = 1000;

/** Runs `purge` on the edge (`EDGE_PURGE_URL`) once the other servers have dropped their copies. */
export function purgeEdgeSoon(purge: () => Promise<number>): void {
  if (settings().EDGE_PURGE_URL) setTimeout(() => void purge(), EDGE_AFTER_MS).unref();
}

/** Marks it stale in this server's data cache and route cache (./edge.ts reads only ./invalidation.ts: no services). */
export async function applyLocally(invalidation: Invalidation): Promise<void> {
  siteUpstream().cache.invalidate(dataTarget(invalidation), invalidation.at);
  await invalidateRoutes(changedTags(invalidation));
}

/** Applies `invalidation` here, sends it to every other server, then purges the edge's copies. */
export async function invalidateEverywhere(tenant: Tenant, invalidation: Invalidation) {
  await applyLocally(invalidation);
  purgeEdgeSoon(() => purgeEdge(tenant, invalidation));
  await send(invalidation, 'freshness.publish.failed');
}

/**
 * After a comment is posted or moderated: the post's cached thread (every page of it) and the
 * post's page, on every server and at the edge; the post and the lists stay.
 */
export const invalidatePostComments = (tenant: Tenant, postSlug: string) =>
  invalidateEverywhere(tenant, { tenant: tenant.id, comments: [postSlug], at: Date.now() });

// Renews the lease only while it is still ours.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * Whether this process watches `name` now: a Redis lease (SET NX with a TTL, renewed by its holder)
 * so one server watches each tenant; another takes over once a holder stops renewing. Without
 * Redis, or while it is away, this process watches (a second watcher costs calls, not correctness).
 */
export async function holdLease(name: string, ttlMs: number): Promise<boolean> {
  const { REDIS_URL } = settings();
  if (!REDIS_URL) return true;
  try {
    const redis = await getRedis(REDIS_URL);
    const key = `masthead:watch:${name}`;
    if ((await redis.set(key, SELF, 'PX', ttlMs, 'NX')) === 'OK') return true;
    return (await redis.eval(RENEW, 1, key, SELF, String(ttlMs))) === 1;
  } catch {
    return true;
  }
}

/** How long servers remember that a change of the tenants file was purged at the edge. */
const PURGED_KEPT_MS = 10 * 60_000;

/**
 * Whether this process is to purge the edge for `change` (of the tenants file), having dropped its
 * own copies at `droppedAt`: every server reloads the same change, and a purge another server made
 * after that serves this one too (the edge can only have fetched the new pages here since). One
 * that reloads later (its copy of the file came late) purges again. Without Redis, or while it is
 * away, every server purges.
 */
export async function purgeIsOurs(change: string, droppedAt: number): Promise<boolean> {
  const { REDIS_URL } = settings();
  if (!REDIS_URL) return true;
  try {
    const redis = await getRedis(REDIS_URL);
    const key = `masthead:purged:${change}`;
    const now = String(Date.now());
    if ((await redis.set(key, now, 'PX', PURGED_KEPT_MS, 'NX')) === 'OK') return true;
    if (Number(await redis.get(key)) > droppedAt) return false;
    await redis.set(key, now, 'PX', PURGED_KEPT_MS);
    return true;
  } catch {
    return true;
  }
}

/** The last look of the watcher of `name`, shared so a server taking over the lease compares with it. */
export async function sharedMemory() {
  const { REDIS_URL } = settings();
  if (!REDIS_URL) return undefined;
  const redis = await getRedis(REDIS_URL);
  const key = (name: string) => `masthead:watch:${name}:seen`;
  return {
    get: (name: string) => redis.get(key(name)).catch(() => null),
    set: async (name: string, value: string) => {
      await redis.set(key(name), value, 'EX', 3600).catch(() => undefined);
    },
  };
}
