import { lodgingClient } from '../../lodging/client.ts';
import type { LodgingClient } from '../../lodging/client.ts';
import { RETRY_AFTER_SECONDS } from '../../delivery/policy.ts';
import { logError } from '../../log/log.ts';
import { profileFor } from '../../profiles/for-tenant.ts';
import type { Tenant } from '../../tenants/schema.ts';
import type { Upstream } from '../../upstream/runtime.ts';
import { unavailable } from '../domain/failures.ts';
import { textKey } from '../../i18n/text-key.ts';
import { hasLodgingCredentials, type LodgingCredentials } from '../../secrets/tenant.ts';

type Lodging = NonNullable<Tenant['lodging']>;

/**
 * The tenant's lodging client, made on first use from its credentials (a token, or e-mail and
 * password), and made again when they change (a token rotated in SECRETS_FILE). Missing credentials
 * are a configuration problem: logged, and "unavailable" to visitors.
 */
export function lazyLodgingClient(
  tenant: Tenant,
  lodging: Lodging,
  credentials: () => LodgingCredentials,
  upstream: Upstream,
): () => LodgingClient {
  let client: LodgingClient | undefined;
  let madeWith = '';
  return () => {
    const current = credentials();
    const { token, email, password } = current;
    const key = JSON.stringify([token, email, password]);
    if (client && key === madeWith) return client;
    if (!hasLodgingCredentials(current)) {
      logError('booking.no_credentials', { tenant: tenant.id });
      throw unavailable(textKey('booking.unavailable'), RETRY_AFTER_SECONDS);
    }
    client = lodgingClient({
      accountKey: `tenant:${tenant.id}`,
      baseUrl: lodging.baseUrl,
      ...(token ? { token } : { email, password }),
      upstream,
      profile: profileFor(tenant, 'lodging'),
    });
    madeWith = key;
    return client;
  };
}
