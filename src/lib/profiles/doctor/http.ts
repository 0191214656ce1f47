import { FetchError, ofetch } from 'ofetch';
import type { SecretKey } from '../../secrets/schema.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { LODGING_OPERATIONS } from '../../lodging/operations.ts';
import { valueAt } from '../../upstream/profile.ts';

/** One answer as the doctor keeps it: status, parsed JSON body (undefined when not JSON), rate headers. */
export interface Answer {
  status: number;
  body: unknown;
  rateLimit: Record<string, string>;
}

const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
];

export type Getter = ReturnType<typeof createGetter>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GETs within a call budget; a 429 is waited out once (what the API asks, a minute at most). */
export function createGetter(options: {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  maxCalls: number;
  timeoutMs: number;
}) {
  let calls = 0;
  /** The first other origin an answer came from (a redirect, e.g. `http://` to `https://`). */
  let movedTo: string | undefined;
  const $fetch = ofetch.create(
    {
      headers: options.headers,
      timeout: options.timeoutMs,
      parseResponse: parseJson,
      retry: 1,
      retryStatusCodes: [429],
      retryDelay: ({ response }) =>
        Math.min(65, Number(response?.headers.get('retry-after') ?? 60) || 60) * 1000,
    },
    { fetch: options.fetch },
  );
  /** GET `path` below the base with `query`; undefined once the call budget is spent. */
  const get = async (
    path: string,
    query: Record<string, string> = {},
  ): Promise<Answer | undefined> => {
    if (calls >= options.maxCalls) return undefined;
    calls += 1;
    const url = new URL(`${options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    // A refusal is an answer too; no answer at all (refused connection, timeout) is status 0.
    const response = await $fetch
      .raw(url.href)
      .catch((error: unknown) => (error instanceof FetchError ? error.response : undefined));
    if (!response) return { status: 0, body: undefined, rateLimit: {} };
    const reached = response.url ? new URL(response.url).origin : url.origin;
    if (reached !== url.origin) movedTo ??= reached;
    const rateLimit: Record<string, string> = {};
    for (const name of RATE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) rateLimit[name] = value;
    }
    return { status: response.status, body: response._data, rateLimit };
  };
  return { get, calls: () => calls, count: (n: number) => (calls += n), movedTo: () => movedTo };
}

/** The tenant's lodging token, or a sign-in with its e-mail and password (never printed). */
export async function lodgingToken(
  tenant: Tenant,
  secrets: Partial<Record<SecretKey, string>>,
  doFetch: typeof fetch,
): Promise<{ value?: string | undefined; calls: number }> {
  const lodging = tenant.lodging;
  if (!lodging) return { calls: 0 };
  const { lodgingToken: token, lodgingEmail: email, lodgingPassword: password } = secrets;
  if (token) return { value: token, calls: 0 };
  if (!email || !password) return { calls: 0 };
  const login = ofetch.create({}, { fetch: doFetch });
  const { path, method } = LODGING_OPERATIONS['auth.login'];
  const body: unknown = await login(`${lodging.baseUrl}${path}`, {
    method,
    body: { email, password },
  }).catch(() => undefined);
  const value = valueAt(body, 'token') ?? valueAt(body, 'data.token');
  return { value: typeof value === 'string' ? value : undefined, calls: 1 };
}
