import type { BudgetLimits } from '../upstream/budget.ts';
import type { HttpSettings } from '../upstream/http.ts';

function positive(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number (got "${raw}").`);
  }
  return value;
}

/**
 * The upstream settings of a static build. `npm run build:static` runs outside Astro (no
 * `astro:env`), so it reads the same variables the server declares in astro.config.mjs itself.
 */
export function staticBuildSettings(env: Record<string, string | undefined> = process.env): {
  limits: Partial<BudgetLimits>;
  http: Partial<HttpSettings>;
} {
  const limits: Partial<BudgetLimits> = {};
  const publicPerMinute = positive(env, 'PUBLISHING_PUBLIC_PER_MINUTE');
  const tokenPerMinute = positive(env, 'PUBLISHING_TOKEN_PER_MINUTE');
  if (publicPerMinute) limits.publishingPublicPerMinute = publicPerMinute;
  if (tokenPerMinute) limits.publishingTokenPerMinute = tokenPerMinute;
  const timeoutMs = positive(env, 'UPSTREAM_TIMEOUT_MS');
  return { limits, http: timeoutMs ? { timeoutMs } : {} };
}
