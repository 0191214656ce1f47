import type { Settings } from '../settings/schema.ts';
import { settings } from '../settings/settings.ts';

/**
 * The upstream settings of a static build. `npm run build:static` runs outside Astro, so it reads the
 * same settings module as the server: the same variables, defaults and refusals.
 */
export function staticBuildSettings(from: Settings = settings()) {
  return {
    limits: {
      publishingPublicPerMinute: from.PUBLISHING_PUBLIC_PER_MINUTE,
      publishingTokenPerMinute: from.PUBLISHING_TOKEN_PER_MINUTE,
    },
    http: { timeoutMs: from.UPSTREAM_TIMEOUT_MS, maxBodyBytes: from.UPSTREAM_BODY_MAX_BYTES },
  };
}
