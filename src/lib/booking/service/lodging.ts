import { lodgingClient } from '../../lodging/client.ts';
import type { LodgingClient } from '../../lodging/client.ts';
import { RETRY_AFTER_SECONDS } from '../../delivery/policy.ts';
import { logError } from '../../log/log.ts';
import { memo } from '../../memo.ts';
import { profileFor } from '../../profiles/for-tenant.ts';
import type { BookingTenant } from '../../tenants/booking.ts';
import type { Upstream } from '../../upstream/runtime.ts';
import { unavailable } from '../domain/failures.ts';
import { textKey } from '../../i18n/text-key.ts';
import { hasLodgingCredentials, type LodgingCredentials } from '../../secrets/tenant.ts';

/**
 * The tenant's lodging client, made on first use from its credentials (a token, or e-mail and
 * password), and made again when they change (a token rotated in SECRETS_FILE). Missing credentials
 * are a configuration problem: logged, and "unavailable" to visitors.
 */
export function lazyLodgingClient(
  tenant: BookingTenant,
  credentials: () => LodgingCredentials,
  upstream: Upstream,
): () => LodgingClient {
  // One client, for the credentials it was made with (the key).
  const client = memo(
    (_key: string, { token, email, password }: LodgingCredentials) =>
      lodgingClient({
        accountKey: `tenant:${tenant.id}`,
        baseUrl: tenant.lodging.baseUrl,
        ...(token ? { token } : { email, password }),
        upstream,
        profile: profileFor(tenant, 'lodging'),
      }),
    { max: 1 },
  );
  return () => {
    const current = credentials();
    if (!hasLodgingCredentials(current)) {
      logError('booking.no_credentials', { tenant: tenant.id });
      throw unavailable(textKey('booking.unavailable'), RETRY_AFTER_SECONDS);
    }
    const { token, email, password } = current;
    return client(JSON.stringify([token, email, password]), current);
  };
}
