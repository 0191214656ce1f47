import type { SecretKey } from '../../secrets/schema.ts';
import type { Tenant } from '../../tenants/schema.ts';

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

export interface Getter {
  /** GET `path` below the base with `query`; undefined once the call budget is spent. */
  get: (path: string, query?: Record<string, string>) => Promise<Answer | undefined>;
  /** Calls made so far. */
  calls: () => number;
  /** Counts a call made outside `get` (the lodging sign-in). */
  count: (n: number) => void;
}

export interface GetterOptions {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  maxCalls: number;
  timeoutMs: number;
  /** Waits out a 429 (injectable for tests). */
  sleep?: (ms: number) => Promise<void>;
}

async function readAnswer(response: Response, rateLimit: Record<string, string>): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, rateLimit };
}

/** GETs within a call budget; a 429 is waited out once (what the API asks, a minute at most). */
export function createGetter(options: GetterOptions): Getter {
  let calls = 0;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const get: Getter['get'] = async (path, query = {}) => {
    if (calls >= options.maxCalls) return undefined;
    calls += 1;
    const url = new URL(`${options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const response = await options.fetch(url, {
          headers: options.headers,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const rateLimit: Record<string, string> = {};
        for (const name of RATE_HEADERS) {
          const value = response.headers.get(name);
          if (value !== null) rateLimit[name] = value;
        }
        if (response.status === 429 && attempt === 0) {
          const wait = Math.min(65, Number(response.headers.get('retry-after') ?? 60) || 60);
          await response.body?.cancel();
          await sleep(wait * 1000);
          continue;
        }
        return await readAnswer(response, rateLimit);
      } catch {
        return { status: 0, body: undefined, rateLimit: {} };
      }
    }
    return undefined;
  };
  return { get, calls: () => calls, count: (n) => (calls += n) };
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
  try {
    const response = await doFetch(`${lodging.baseUrl}/auth/login`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const body = (await response.json()) as { token?: string; data?: { token?: string } };
    return { value: body.token ?? body.data?.token, calls: 1 };
  } catch {
    return { calls: 1 };
  }
}
