import { LRUCache } from 'lru-cache';
import { RETRY_AFTER_SECONDS } from '../../delivery/policy.ts';
import { textKey } from '../../i18n/text-key.ts';
import { lodgingClient } from '../../lodging/client.ts';
import { logError } from '../../log/log.ts';
import { memo } from '../../memo.ts';
import { profileFor } from '../../profiles/for-tenant.ts';
import { hasLodgingCredentials, type LodgingCredentials } from '../../secrets/tenant.ts';
import { offersBooking } from '../../tenants/booking.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { apiHash } from '../../upstream/cache.ts';
import { createKeyedLock } from '../../upstream/lock.ts';
import type { Upstream } from '../../upstream/runtime.ts';
import { stayZone, todayIn } from '../domain/dates.ts';
import {
  notOffered,
  notOnline,
  placeNotFound,
  toFailure,
  unavailable,
} from '../domain/failures.ts';
import type { Mailer } from '../mail/mailer.ts';
import { onlineRequestsRecord } from './guests.ts';
import { attemptStore } from './idempotency.ts';
import { propertySummary, type PropertySummary, type Read } from './lodging-shapes.ts';

export interface BookingServiceOptions {
  /** The site's (`siteUpstream()`) or a test's. */
  upstream: Upstream;
  /** The tenant's lodging credentials, asked again on each use (they may change while running). */
  credentials: () => LodgingCredentials;
  /** Shared store for the creation lock and the idempotency memory (several instances). */
  redisUrl?: string | undefined;
  now?: () => Date;
  /** Sends guests' e-mails; none is sent (or promised) without one. */
  mailer?: Mailer | undefined;
  /** The tenant's attempts and creation lock, when kept beyond this service (`bookingMemory`). */
  memory?: BookingMemory | undefined;
}

/**
 * Whose attempts: the tenant's at one lodging API, as the read cache keys it (a tenant moved to
 * another API meets none of the old one's keys, guest records or "booked moments ago").
 */
export const memoryScope = (tenantId: string, lodging: { baseUrl: string }): string =>
  `${tenantId}:${apiHash(lodging.baseUrl)}`;

/**
 * What the service remembers of its tenant's booking attempts (idempotency keys, stays booked
 * moments ago) and its creation lock, per `memoryScope`: in Redis when configured, else here.
 */
export function bookingMemory(scope: string, redisUrl: string | undefined) {
  return {
    attempts: attemptStore({ scope, redisUrl }),
    /** Creating a booking is single-flight per stay (across instances with Redis). */
    lock: createKeyedLock({ redisUrl, prefix: `masthead:lock:booking:${scope}:` }),
  };
}
export type BookingMemory = ReturnType<typeof bookingMemory>;

export type ServiceCore = ReturnType<typeof serviceCore>;

/** What the service's parts share (create.ts, mail/send.ts, manage/find.ts), once per tenant. */
export function serviceCore(tenant: Tenant, options: BookingServiceOptions) {
  if (!offersBooking(tenant)) throw notOffered();
  const lodging = tenant.lodging;
  const now = options.now ?? (() => new Date());
  const context = (operation: string) => ({ tenant: tenant.id, operation });
  // One lodging client, for the credentials it was made with: made again when they change (a token
  // rotated in SECRETS_FILE).
  const client = memo(
    (_key: string, { token, email, password }: LodgingCredentials) =>
      lodgingClient({
        accountKey: `tenant:${tenant.id}`,
        baseUrl: lodging.baseUrl,
        ...(token ? { token } : { email, password }),
        upstream: options.upstream,
        profile: profileFor(tenant, 'lodging'),
      }),
    { max: 1 },
  );
  /** The tenant's lodging client (the only holder of its credentials); none is a configuration problem. */
  const lodgingApi = () => {
    const current = options.credentials();
    if (!hasLodgingCredentials(current)) {
      logError('booking.no_credentials', { tenant: tenant.id });
      throw unavailable(textKey('booking.unavailable'), RETRY_AFTER_SECONDS);
    }
    const { token, email, password } = current;
    return client(JSON.stringify([token, email, password]), current);
  };

  // After a booking, the next search of each range on that property skips the cache once.
  const bookedAt = new Map<string, number>();
  const searchedAt = new LRUCache<string, number>({ max: 5000 });
  let clock = 0;

  /** A stay's limits; its today is the property's (its time zone), else the tenant's. */
  const rules = (place?: Pick<PropertySummary, 'timeZone'>) => ({
    today: todayIn(stayZone(place, tenant), now()),
    minNights: lodging.minNights,
    maxNights: lodging.maxNights,
  });

  /** Missing fields go to the logs (one line per operation and set of fields) and `/_status`. */
  function usable<T>(operation: string, read: Read<T>, effect: string): T {
    if (read.missing.length > 0) {
      options.upstream.metrics.problem({
        service: 'lodging',
        tenant: tenant.id,
        operation,
        field: [...read.missing].sort().join(', '),
        effect: read.value === undefined ? effect : 'shown without it',
      });
    }
    // A step that cannot work without them: refused honestly, with whom to contact instead.
    if (read.value === undefined) throw notOnline(lodging.contact);
    return read.value;
  }

  async function property(id: string): Promise<PropertySummary> {
    if (!lodging.propertyIds.includes(id)) throw placeNotFound();
    try {
      const read = propertySummary(await lodgingApi().getProperty(id));
      return usable('properties.get', read, 'booking not available online');
    } catch (error) {
      throw toFailure(error, context('property'), lodging.contact);
    }
  }

  // The tenant's record for bookings whose e-mail is on file (see guests.ts).
  const onlineRequestsEmail = `online-requests@${tenant.id}.masthead.invalid`;
  return {
    tenant,
    lodging,
    lodgingApi,
    ...(options.memory ?? bookingMemory(memoryScope(tenant.id, lodging), options.redisUrl)),
    rules,
    now,
    mailer: options.mailer,
    context,
    property,
    usable,
    /** A booking changed `propertyId`: its next searches skip the read cache once. */
    booked: (propertyId: string) => void bookedAt.set(propertyId, (clock += 1)),
    /** Whether the property's search `key` must skip the cache (a booking since it last ran). */
    searchFresh(propertyId: string, key: string): boolean {
      const searched = `${propertyId}|${key}`;
      const fresh = (bookedAt.get(propertyId) ?? 0) > (searchedAt.get(searched) ?? 0);
      searchedAt.set(searched, (clock += 1));
      return fresh;
    },
    onlineRequestsEmail,
    onlineRequests: onlineRequestsRecord(tenant, onlineRequestsEmail, lodgingApi),
  };
}
