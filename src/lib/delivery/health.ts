import { getRedis } from '../upstream/redis.ts';

/** One answer of `/_health`: operators and load balancers see which part failed, no tenant data. */
export interface Health {
  ok: boolean;
  checks: {
    config: 'ok' | 'invalid';
    sharedStore: 'ok' | 'unavailable' | 'not configured';
  };
}

export interface HealthInputs {
  /** Throws when the tenants configuration cannot be used. */
  readConfig: () => unknown;
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

export async function checkHealth(inputs: HealthInputs): Promise<Health> {
  let config: Health['checks']['config'] = 'ok';
  try {
    inputs.readConfig();
  } catch {
    config = 'invalid';
  }
  let sharedStore: Health['checks']['sharedStore'] = 'not configured';
  if (inputs.redisUrl) {
    const ping = inputs.pingStore ?? pingRedis;
    sharedStore = await ping(inputs.redisUrl).then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
  }
  return {
    ok: config === 'ok' && sharedStore !== 'unavailable',
    checks: { config, sharedStore },
  };
}

/** `/_health` as a response: 200 or 503, JSON, never cached anywhere. */
export function healthResponse(health: Health): Response {
  return new Response(JSON.stringify({ status: health.ok ? 'ok' : 'failing', ...health.checks }), {
    status: health.ok ? 200 : 503,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}
