import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { startMock, type MockHandle, type MockOptions } from '../../mock/index.ts';
import type { Limits } from '../../mock/lib/ratelimit.ts';
import demo from '../../mock/demo-accounts.json' with { type: 'json' };
import { ErrorSchema } from './schemas.ts';

export { demo };

export type Res = { status: number; headers: Headers; body: unknown; text: string };

export type Call = {
  method?: string;
  token?: string;
  /** Publishing tenant sent as `X-Tenant`; `null` sends none. */
  tenant?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
};

/** Rate limits off: most suites send far more than 60 requests a minute from one IP. */
export const NO_LIMITS: Limits = {
  publicPerMinute: 0,
  tokenPerMinute: 0,
  lodgingPerMinute: 0,
  window: 'fixed',
  windowSeconds: 60,
};

export async function http(url: string, init: Call = {}): Promise<Res> {
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  if (init.token !== undefined) headers['Authorization'] = `Bearer ${init.token}`;
  if (init.tenant) headers['X-Tenant'] = init.tenant;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Starts a mock on free ports for one test file. */
export function useMock(options: MockOptions = {}) {
  let mock: MockHandle | undefined;
  beforeAll(async () => {
    mock = await startMock({
      publishingPort: 0,
      lodgingPort: 0,
      controlPort: 0,
      limits: NO_LIMITS,
      ...options,
    });
  });
  afterAll(async () => {
    await mock?.close();
  });
  const m = (): MockHandle => {
    if (!mock) throw new Error('mock not started');
    return mock;
  };
  return {
    get mock() {
      return m();
    },
    pub: (path: string, init: Call = {}) =>
      http(`${m().publishingUrl}${path}`, {
        ...init,
        tenant: init.tenant === undefined ? 'daily-planet' : init.tenant,
      }),
    lodge: (path: string, init: Call = {}) => http(`${m().lodgingUrl}${path}`, init),
    control: (path: string, init: Call = {}) => http(`${m().controlUrl}${path}`, init),
    /** Logs a publishing demo user in and returns the token. */
    async login(role: 'admin' | 'editor' | 'subscriber' | 'reader', tenant = 'daily-planet') {
      const res = await http(`${m().publishingUrl}/auth/login`, {
        method: 'POST',
        tenant,
        body: { email: `${role}@masthead.test`, password: demo.password },
      });
      expect(res.status).toBe(200);
      return (res.body as { data: { token: string } }).data.token;
    },
  };
}

/** Asserts status and parses the body with a schema. */
export function expectBody<T extends z.ZodType>(res: Res, status: number, schema: T): z.output<T> {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) throw new Error(`${parsed.error.message}\n${res.text.slice(0, 500)}`);
  return parsed.data;
}

/** Asserts an error status and message; for 422 also the field messages given. */
export function expectError(
  res: Res,
  status: number,
  message: string,
  errors?: Record<string, string[]>,
) {
  const body = expectBody(res, status, ErrorSchema);
  expect(body.message).toBe(message);
  if (errors) expect(body.errors).toMatchObject(errors);
  return body;
}

export const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
