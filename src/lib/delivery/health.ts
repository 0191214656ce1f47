import { describeProblem, type SettingProblem } from '../settings/validate.ts';
import { namedSecret } from '../settings/settings.ts';
import type { Tenant } from '../tenants/schema.ts';
import { getRedis } from '../upstream/redis.ts';

/** One answer of `/_health`: operators and load balancers see which part failed, no tenant data. */
export interface Health {
  ok: boolean;
  /** What to fix, when a setting is invalid: names and rules, never the values. */
  reason?: string;
  checks: {
    settings: 'ok' | 'invalid';
    config: 'ok' | 'invalid';
    sharedStore: 'ok' | 'unavailable' | 'not configured';
  };
}

export interface HealthInputs {
  /** The environment's invalid settings (`settingsProblems`); none when absent. */
  settings?: () => readonly SettingProblem[];
  /** The tenants; throws when the configuration cannot be used. */
  readConfig: () => readonly Pick<Tenant, 'lodging'>[];
  /** Where the secrets that tenants.json names are looked up (default: the environment). */
  env?: Record<string, string | undefined>;
  redisUrl: string | undefined;
  /** Resolves when the shared store answers; defaults to a Redis PING. */
  pingStore?: (url: string) => Promise<void>;
}

/** Longest the check waits for Redis: a load balancer's probe must not hang. */
const PING_TIMEOUT_MS = 1000;

async function pingRedis(url: string): Promise<void> {
  const redis = await getRedis(url);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('Redis PING timed out')), PING_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A tenant with lodging whose credentials are not in the environment cannot take bookings. */
function lacksLodgingCredentials(
  tenant: Pick<Tenant, 'lodging'>,
  secret: (name: string) => string | undefined,
): boolean {
  const lodging = tenant.lodging;
  if (!lodging) return false;
  const set = (name: string | undefined) => Boolean(name && secret(name));
  return !set(lodging.tokenEnv) && !(set(lodging.emailEnv) && set(lodging.passwordEnv));
}

export async function checkHealth(inputs: HealthInputs): Promise<Health> {
  let config: Health['checks']['config'] = 'ok';
  try {
    const env = inputs.env;
    const secret = env ? (name: string) => env[name] : namedSecret;
    if (inputs.readConfig().some((tenant) => lacksLodgingCredentials(tenant, secret))) {
      config = 'invalid';
    }
  } catch {
    config = 'invalid';
  }
  const problems = inputs.settings?.() ?? [];
  let sharedStore: Health['checks']['sharedStore'] = 'not configured';
  if (inputs.redisUrl) {
    const ping = inputs.pingStore ?? pingRedis;
    sharedStore = await ping(inputs.redisUrl).then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
  }
  const settings = problems.length > 0 ? 'invalid' : 'ok';
  return {
    ok: settings === 'ok' && config === 'ok' && sharedStore !== 'unavailable',
    ...(problems.length > 0 && {
      reason: `Invalid settings: ${problems.map((problem) => describeProblem(problem, false)).join('; ')}`,
    }),
    checks: { settings, config, sharedStore },
  };
}

/** `/_health` as a response: 200 or 503, JSON, never cached anywhere. */
export function healthResponse(health: Health): Response {
  const body = { status: health.ok ? 'ok' : 'failing', reason: health.reason, ...health.checks };
  return new Response(JSON.stringify(body), {
    status: health.ok ? 200 : 503,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}
