import { lodgingClient } from '../lodging/client.ts';
import type { LodgingClient } from '../lodging/client.ts';
import { logError } from '../log/log.ts';
import { profileFor } from '../profiles/site.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Upstream } from '../upstream/runtime.ts';
import { unavailable } from './failures.ts';
import { textKey } from '../i18n/text-key.ts';

type Lodging = NonNullable<Tenant['lodging']>;

/**
 * The tenant's lodging client, made on first use from its credentials (a token, or e-mail and
 * password). Missing credentials are a configuration problem: logged, and "unavailable" to visitors.
 */
export function lazyLodgingClient(
  tenant: Tenant,
  lodging: Lodging,
  env: Record<string, string | undefined>,
  upstream: Upstream,
): () => LodgingClient {
  let client: LodgingClient | undefined;
  return () => {
    if (client) return client;
    const token = lodging.tokenEnv ? env[lodging.tokenEnv] : undefined;
    const email = lodging.emailEnv ? env[lodging.emailEnv] : undefined;
    const password = lodging.passwordEnv ? env[lodging.passwordEnv] : undefined;
    if (!token && !(email && password)) {
      logError('booking.no_credentials', { tenant: tenant.id });
      throw unavailable(textKey('booking.unavailable'), 60);
    }
    client = lodgingClient({
      accountKey: `tenant:${tenant.id}`,
      baseUrl: lodging.baseUrl,
      ...(token ? { token } : { email, password }),
      upstream,
      profile: profileFor(tenant, 'lodging'),
    });
    return client;
  };
}
