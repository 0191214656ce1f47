import type { Context, Next } from 'hono';
import { z } from 'zod';
import type { Rng } from './prng.ts';
import { sleep } from './http.ts';
import { tooManyAttempts } from './ratelimit.ts';

export const SERVICES = ['publishing', 'lodging'] as const;
export type Service = (typeof SERVICES)[number];

/** Body of `POST /faults` on the control server; omitted switches keep their value. */
export const FaultPatchSchema = z.object({
  service: z.enum(SERVICES),
  latencyMs: z.number().int().min(0).max(120_000).optional(),
  errorRate: z.number().min(0).max(1).optional(),
  force429: z.boolean().optional(),
  /** `Retry-After` of forced 429s (tests keep it short so the site's budget recovers quickly). */
  retryAfterSeconds: z.number().int().min(1).max(3600).optional(),
  malformed: z.boolean().optional(),
  down: z.boolean().optional(),
});

export type Faults = {
  latencyMs: number;
  errorRate: number;
  force429: boolean;
  retryAfterSeconds: number;
  malformed: boolean;
  down: boolean;
};

/** Applies a patch, skipping switches it leaves out. */
export function mergeDefined<T extends object>(
  base: T,
  patch: { [K in keyof T]?: T[K] | undefined },
): T {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export const noFaults = (): Faults => ({
  latencyMs: 0,
  errorRate: 0,
  force429: false,
  retryAfterSeconds: 60,
  malformed: false,
  down: false,
});

/** Applies a service's current faults before its routes run (`down` is handled by the listener). */
export async function injectFaults(c: Context, next: Next, faults: Faults, rng: Rng) {
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (faults.force429) {
    const resetAt = Date.now() + faults.retryAfterSeconds * 1000;
    return tooManyAttempts(c, { 'X-RateLimit-Limit': '60' }, faults.retryAfterSeconds, resetAt);
  }
  if (faults.errorRate > 0 && rng.next() < faults.errorRate) {
    return c.json({ message: 'Server Error' }, 500);
  }
  if (faults.malformed) {
    // Truncated JSON with a JSON content type: clients must not crash on parse errors.
    return c.body('{"data":[{"id":1,"title":"Truncated', 200, {
      'Content-Type': 'application/json',
    });
  }
  return next();
}
