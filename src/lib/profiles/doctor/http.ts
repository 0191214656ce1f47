import { FetchError, ofetch } from 'ofetch';
import type { FetchResponse } from 'ofetch';
import type { SecretKey } from '../../secrets/schema.ts';
import type { Tenant } from '../../tenants/schema.ts';
import { LODGING_OPERATIONS } from '../../lodging/operations.ts';
import { networkReason } from '../../upstream/errors.ts';
import { readLimited, timedOut } from '../../upstream/http.ts';
import { valueAt } from '../../upstream/parse.ts';

/** One answer as the doctor keeps it: status, parsed JSON body (undefined when not JSON), rate headers. */
export interface Answer {
  status: number;
  body: unknown;
  rateLimit: Record<string, string>;
  /** Why the site cannot use it (then no body): none came, or its client refuses it (upstream/http.ts). */
  problem?: string;
}

const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
];

export type Getter = ReturnType<typeof createGetter>;

/** Thrown, and kept as the body, for an answer over the site's cap. */
const TOO_LARGE = new Error('too large');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** How the doctor calls an API: as the site, with its timeout per call and its body cap. */
interface CallSettings {
  fetch: typeof fetch;
  timeoutMs: number;
  maxBodyBytes: number;
}

function doctorFetch(settings: CallSettings) {
  return ofetch.create(
    {
      retry: 1,
      retryStatusCodes: [429],
      retryDelay: ({ response }) => {
        // Seconds, `0` included; a date or nothing: a minute.
        const asked = Number(response?.headers.get('retry-after') || Number.NaN);
        return Math.min(65, asked >= 0 ? asked : 60) * 1000;
      },
      // Read below, with the site's cap; the timeout set per attempt covers the body too.
      responseType: 'stream',
      onRequest({ options }) {
        options.signal = AbortSignal.timeout(settings.timeoutMs);
      },
      async onResponse({ response }) {
        try {
          const body = await readLimited(response, settings.maxBodyBytes, () => TOO_LARGE);
          response._data = parseJson(body.toString('utf8'));
        } catch (error) {
          if (error !== TOO_LARGE) throw error;
          response._data = TOO_LARGE;
        }
      },
    },
    { fetch: settings.fetch },
  );
}

/** A call's answer, refused or not; or why none came (a refused connection, a timeout, …). */
async function answerOf(
  call: Promise<FetchResponse<unknown>>,
  timeoutMs: number,
): Promise<FetchResponse<unknown> | string> {
  return call.catch((error: unknown) => {
    if (error instanceof FetchError && error.response) return error.response;
    if (timedOut(error)) return `no answer within ${timeoutMs} ms (UPSTREAM_TIMEOUT_MS)`;
    return networkReason(error);
  });
}

/**
 * GETs within a call budget; a 429 is waited out once (what the API asks, a minute at most). With
 * `readsWithoutToken`, a 401 to the token is asked again without it, and so is every later GET: what
 * the publishing client does with a refused read token (publishing/client.ts).
 */
export function createGetter(
  options: CallSettings & {
    baseUrl: string;
    headers: Record<string, string>;
    token?: string | undefined;
    readsWithoutToken?: boolean;
    maxCalls: number;
    /** Calls already spent (a sign-in). */
    spent?: number;
  },
) {
  const state: {
    calls: number;
    /** The first other origin an answer came from (a redirect, e.g. `http://` to `https://`). */
    movedTo?: string;
    /** Whether the token was refused and the reads went on without it (`readsWithoutToken`). */
    tokenRefused: boolean;
  } = { calls: options.spent ?? 0, tokenRefused: false };
  let token = options.token;
  const $fetch = doctorFetch(options);
  const send = (url: URL) => {
    const auth = token ? { Authorization: `Bearer ${token}` } : {};
    const call = $fetch.raw(url.href, { headers: { ...options.headers, ...auth } });
    return answerOf(call, options.timeoutMs);
  };
  /** GET `path` below the base with `query`; undefined once the call budget is spent. */
  const get = async (
    path: string,
    query: Record<string, string> = {},
  ): Promise<Answer | undefined> => {
    if (state.calls >= options.maxCalls) return undefined;
    state.calls += 1;
    const url = new URL(`${options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const reachedBy = (response: FetchResponse<unknown>) =>
      response.url ? new URL(response.url).origin : url.origin;
    let response = await send(url);
    // Refused where it was sent (not lost on the way to another origin: that is the address).
    const refusedHere =
      typeof response !== 'string' && response.status === 401 && reachedBy(response) === url.origin;
    if (refusedHere && token && options.readsWithoutToken) {
      token = undefined;
      state.tokenRefused = true;
      state.calls += 1;
      response = await send(url);
    }
    // A refusal is an answer too; no answer at all (refused connection, timeout) is status 0.
    if (typeof response === 'string')
      return { status: 0, body: undefined, rateLimit: {}, problem: response };
    const reached = reachedBy(response);
    if (reached !== url.origin) state.movedTo ??= reached;
    const rateLimit: Record<string, string> = {};
    for (const name of RATE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) rateLimit[name] = value;
    }
    // What the site's client refuses (upstream/http.ts), the doctor does not read either.
    const refused =
      response._data === TOO_LARGE
        ? `body over ${options.maxBodyBytes} bytes (UPSTREAM_BODY_MAX_BYTES)`
        : reached !== url.origin && token
          ? `redirected to ${reached}, where the token is not sent`
          : undefined;
    if (refused) {
      const problem = `the site refuses this answer: ${refused}`;
      return { status: response.status, body: undefined, rateLimit, problem };
    }
    return { status: response.status, body: response._data, rateLimit };
  };
  return { get, state };
}

/**
 * The tenant's lodging token, or a sign-in with its e-mail and password (never printed). A sign-in
 * answered with a redirect is not followed (the site's is not: a write is no read, and the password
 * stays with the address configured): `refused` says where it pointed. `failed`: why there is no
 * token when the API did not refuse the credentials.
 */
export async function lodgingToken(
  tenant: Tenant,
  secrets: Partial<Record<SecretKey, string>>,
  settings: CallSettings,
): Promise<{ value?: string | undefined; calls: number; refused?: string; failed?: string }> {
  const lodging = tenant.lodging;
  if (!lodging) return { calls: 0 };
  const { lodgingToken: token, lodgingEmail: email, lodgingPassword: password } = secrets;
  if (token) return { value: token, calls: 0 };
  if (!email || !password) return { calls: 0 };
  const { path, method } = LODGING_OPERATIONS['auth.login'];
  const url = `${lodging.baseUrl}${path}`;
  const answer = await answerOf(
    doctorFetch(settings).raw(url, {
      method,
      body: { email, password },
      redirect: 'manual',
      retry: 0,
    }),
    settings.timeoutMs,
  );
  if (typeof answer === 'string')
    return { calls: 1, failed: `the sign-in (POST ${url}) got no answer: ${answer}` };
  const { status, headers, _data: body } = answer;
  if (status >= 300 && status < 400) {
    const to = new URL(headers.get('location') ?? '', url);
    const why = `${url} answers ${status} to ${to.origin}${to.pathname}, not followed by a POST`;
    return { calls: 1, refused: why };
  }
  const value = valueAt(body, 'token') ?? valueAt(body, 'data.token');
  if (typeof value === 'string') return { value, calls: 1 };
  // Credentials refused (422, 401) are the hint's to name (./target.ts); anything else is the API's.
  if (status === 422 || status === 401) return { calls: 1 };
  const answered = status < 300 ? `${status} without a token (at token or data.token)` : status;
  return { calls: 1, failed: `the sign-in (POST ${url}) answers ${answered}` };
}
