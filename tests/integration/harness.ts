import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { createMetrics } from '../../src/lib/upstream/metrics.ts';
import { createUpstream } from '../../src/lib/upstream/runtime.ts';
import type { UpstreamOptions } from '../../src/lib/upstream/runtime.ts';

export type Mock = Awaited<ReturnType<typeof startMock>>;

export interface DemoAccounts {
  password: string;
  lodging: Record<
    string,
    { email: string; password: string; readToken: string; fullToken: string; propertyIds: string[] }
  >;
}

export const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as DemoAccounts;

export const PASSWORD = demo.password;

export function startTestMock(limits?: {
  publicPerMinute?: number;
  tokenPerMinute?: number;
  lodgingPerMinute?: number;
}): Promise<Mock> {
  return startMock({
    publishingPort: 0,
    lodgingPort: 0,
    controlPort: 0,
    ...(limits ? { limits } : {}),
  });
}

/**
 * The mock for one suite: started before its tests, closed after them and, with `reset`, back to
 * its seed data before each test. Use it inside tests and hooks (it starts in `beforeAll`).
 */
export function useMock(
  options: { limits?: Parameters<typeof startTestMock>[0]; reset?: boolean } = {},
): Mock {
  let started: Mock | undefined;
  const current = (): Mock => {
    if (!started) throw new Error('The mock starts in beforeAll: use it inside tests and hooks.');
    return started;
  };
  beforeAll(async () => {
    started = await startTestMock(options.limits);
  });
  afterAll(async () => {
    await started?.close();
  });
  if (options.reset) beforeEach(() => ctl.reset(current()));
  return {
    get publishingUrl() {
      return current().publishingUrl;
    },
    get lodgingUrl() {
      return current().lodgingUrl;
    },
    get controlUrl() {
      return current().controlUrl;
    },
    get state() {
      return current().state;
    },
    close: () => current().close(),
  };
}

async function control(mock: Mock, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${mock.controlUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status}`);
  return res.json();
}

export interface Faults {
  service: 'publishing' | 'lodging';
  latencyMs?: number;
  errorRate?: number;
  force429?: boolean;
  /** `Retry-After` of the forced 429s (the mock's default: 60). */
  retryAfterSeconds?: number;
  malformed?: boolean;
  down?: boolean;
  /** A write is stored, then answered 500 (the ambiguous failure a client must not call "not sent"). */
  savedThen500?: boolean;
  /** Lists without `total` and `last_page`, as Laravel's `simplePaginate` answers them. */
  simplePaginate?: boolean;
}

export const ctl = {
  faults: (mock: Mock, faults: Faults) => control(mock, 'POST', '/faults', faults),
  clearFaults: (mock: Mock) => control(mock, 'DELETE', '/faults'),
  limits: (
    mock: Mock,
    limits: { publicPerMinute?: number; tokenPerMinute?: number; lodgingPerMinute?: number },
  ) => control(mock, 'POST', '/limits', limits),
  reset: (mock: Mock) => control(mock, 'POST', '/reset'),
  /** Switches the mock's dialect (and reseeds its data). */
  dialect: (mock: Mock, dialect: 'default' | 'alt') =>
    control(mock, 'POST', '/dialect', { dialect }),
  async stats(mock: Mock) {
    return (await control(mock, 'GET', '/stats')) as Record<
      'publishing' | 'lodging',
      { total: number; routes: Record<string, number> }
    >;
  },
};

/** A fresh upstream (budget, cache, metrics) per test, logs captured. */
export function freshUpstream(options: UpstreamOptions = {}) {
  const lines: string[] = [];
  const up = createUpstream({
    metrics: createMetrics({ log: (line) => lines.push(line) }),
    ...options,
    http: { backoffBaseMs: 10, backoffMaxMs: 50, ...options.http },
  });
  return { up, lines };
}
