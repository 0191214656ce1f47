import { memo } from '../memo.ts';
import { budgetKeys } from '../upstream/budget.ts';
import { apiHash } from '../upstream/cache.ts';
import { UnauthenticatedError } from '../upstream/errors.ts';
import { clientCore, declaredCore } from '../upstream/client-core.ts';
import type { CoreOptions } from '../upstream/client-core.ts';
import { LODGING_OPERATIONS } from './operations.ts';

/** An API token from the service settings, or e-mail + password to log in with. */
export type LodgingCredentials =
  | { token: string; email?: undefined; password?: undefined }
  | { token?: undefined; email: string; password: string };

interface LodgingAuthOptions extends CoreOptions {
  accountKey: string;
  credentials: LodgingCredentials;
}

/** A lodging core whose calls carry what `withToken` gives them, cached as `identity`'s copy. */
export function lodgingAccountCore(
  options: Omit<LodgingAuthOptions, 'credentials'>,
  withToken: <T>(send: (token: string | undefined) => Promise<T>) => Promise<T>,
  identity: string | undefined,
) {
  return clientCore({
    ...options,
    service: 'lodging',
    tenant: options.accountKey,
    operations: LODGING_OPERATIONS,
    access: {
      withToken: (_call, send) => withToken(send),
      budgetKey: (token) => budgetKeys.lodging(options.baseUrl, options.accountKey, token),
      cacheIdentity: () => identity,
    },
  });
}

/** Sign-in as the profile spells it. Wrong credentials → `ValidationError` (`fields.email`). */
export function lodgingLogin(
  options: Omit<LodgingAuthOptions, 'credentials'>,
  email: string,
  password: string,
) {
  const core = lodgingAccountCore(options, (send) => send(undefined), undefined);
  return declaredCore(core, LODGING_OPERATIONS).call('auth.login', { body: { email, password } });
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
