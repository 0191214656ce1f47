import { settings } from '../settings/settings.ts';
import type { Tenant } from '../tenants/schema.ts';
import { tenantSecret } from '../tenants/secrets.ts';
import { siteUpstream } from '../upstream/site.ts';
import { bookingService } from './service.ts';
import type { BookingService } from './service.ts';

const { REDIS_URL } = settings();

const services = new Map<string, BookingService>();

/** The credentials the tenant's lodging section names, read from the environment. */
export function lodgingSecrets(tenant: Tenant): Record<string, string | undefined> {
  const { tokenEnv, emailEnv, passwordEnv } = tenant.lodging ?? {};
  const names = [tokenEnv, emailEnv, passwordEnv].filter((name) => name !== undefined);
  return Object.fromEntries(names.map((name) => [name, tenantSecret(name)]));
}

/**
 * The process-wide booking service of a tenant (its idempotency and freshness memory live here),
 * wired to the site's upstream and the tenant's credentials. Pages and endpoints use this one.
 */
export function bookingServiceFor(tenant: Tenant): BookingService {
  let service = services.get(tenant.id);
  if (!service || service.tenant !== tenant) {
    service = bookingService(tenant, {
      upstream: siteUpstream(),
      env: lodgingSecrets(tenant),
      redisUrl: REDIS_URL,
    });
    services.set(tenant.id, service);
  }
  return service;
}
