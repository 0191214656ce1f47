import { memo } from '../memo.ts';
import { budgetKeys } from '../upstream/budget.ts';
import { apiHash } from '../upstream/cache.ts';
import { UnauthenticatedError } from '../upstream/errors.ts';
import { fetchParsed } from '../upstream/client-core.ts';
import type { Upstream } from '../upstream/runtime.ts';
import { LODGING_OPERATIONS } from './operations.ts';

/** An API token from the service settings, or e-mail + password to log in with. */
export type LodgingCredentials =
  | { token: string; email?: undefined; password?: undefined }
  | { token?: undefined; email: string; password: string };

interface LodgingAuthOptions {
  accountKey: string;
  baseUrl: string;
  credentials: LodgingCredentials;
  upstream: Upstream;
}

/** `POST /auth/login`. Wrong credentials → `ValidationError` (`fields.email`). */
export function lodgingLogin(
  { upstream, accountKey, baseUrl }: Omit<LodgingAuthOptions, 'credentials'>,
  email: string,
  password: string,
) {
  const { path, method, schema } = LODGING_OPERATIONS['auth.login'];
  const budgetKey = budgetKeys.lodging(baseUrl, accountKey, undefined);
  const login = { service: 'lodging', operation: 'auth.login', tenant: accountKey } as const;
  const request = { baseUrl, path, method, body: { email, password }, budgetKey };
  return fetchParsed(upstream, { ...login, ...request }, schema);
}

/**
 * Login tokens per API (as the read cache keys it: two APIs may share a host), account and e-mail,
 * per process; a pending login is shared.
 */
const loginTokens = memo(
  (key: string, login: () => Promise<string>) => {
    const pending = login();
    // A failed login is not remembered.
    void pending.catch(() => loginTokens.forget(key));
    return pending;
  },
  { max: 1000 },
);

export function lodgingAuth(options: LodgingAuthOptions) {
  const { credentials } = options;
  const key = `${apiHash(options.baseUrl)}|${options.accountKey}|${credentials.email ?? ''}`;

  /** The token to send: the API token, or the cached login token (logging in on first use). */
  const token = (): Promise<string> => {
    if (credentials.token !== undefined) return Promise.resolve(credentials.token);
    const { email, password } = credentials;
    return loginTokens(key, async () => (await lodgingLogin(options, email, password)).token);
  };

  return {
    token,
    /**
     * Runs `call` with the token. With e-mail + password, a 401 drops the cached token, logs in
     * again and retries the call once; an API token's 401 is thrown as is.
     */
    async withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
      const sent = await token();
      try {
        return await call(sent);
      } catch (error) {
        if (!(error instanceof UnauthenticatedError) || credentials.token !== undefined)
          throw error;
        // Only drop the token that failed (another call may already have logged in again).
        const held = loginTokens.peek(key);
        if (held && (await held) === sent) loginTokens.forget(key);
        return call(await token());
      }
    },
    /** Forgets the cached login token (after logout). */
    forget: () => loginTokens.forget(key),
  };
}

/** Drops every cached login token (tests). */
export const clearLodgingTokens = (): void => loginTokens.clear();
