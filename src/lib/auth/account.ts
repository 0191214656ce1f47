import type { PublishingClient } from '../publishing/client.ts';
import type { RegisterInput, User } from '../publishing/schema.ts';
import { classify, isSignedOut, isTemporary } from '../failures/classify.ts';
import type { SignedIn } from './session.ts';

/** What the session keeps about a subscriber: `/auth/me` in our own field names. */
export function toSignedIn(token: string, user: User): SignedIn {
  return {
    token,
    user: {
      id: user.id,
      name: user.name,
      ...(user.email === undefined ? {} : { email: user.email }),
      roles: user.roles,
      hasActiveSubscription: user.has_active_subscription ?? user.subscription?.status === 'active',
    },
  };
}

/** The contract's staff roles, the higher first: an admin who also edits is an admin. */
const STAFF_ROLES = ['admin', 'editor'] as const;

/**
 * What the account is, as its owner is told: a staff role, else a paid or a free account. Staff
 * read every edition (docs/api-assumptions.md), so only `free` is offered a subscription.
 */
export function standing(user: SignedIn['user']): (typeof STAFF_ROLES)[number] | 'paid' | 'free' {
  const roles = user.roles.map((role) => role.toLowerCase());
  const staff = STAFF_ROLES.find((role) => roles.includes(role));
  return staff ?? (user.hasActiveSubscription ? 'paid' : 'free');
}

/**
 * Roles and the subscription flag come from `/auth/me`, not the login answer. When that read
 * fails the fresh token is revoked (best effort) so no half-finished sign-in lingers upstream.
 */
async function completeSignIn(client: PublishingClient, token: string): Promise<SignedIn> {
  const authed = client.withToken(token);
  try {
    return toSignedIn(token, await authed.me({ fresh: true }));
  } catch (error) {
    void authed.logout().catch(() => undefined);
    throw error;
  }
}

/** Wrong credentials (the upstream refused the e-mail and password), not an outage or a bug. */
export function isWrongCredentials(error: unknown): boolean {
  const failure = classify(error);
  // Signing in sends no token, so a 401 to it (as some APIs answer) is a refusal too.
  return failure.kind === 'invalid' || isSignedOut(failure);
}

/** Logs in upstream. Wrong credentials → `ValidationError` with `fields.email`. */
export async function signIn(
  client: PublishingClient,
  email: string,
  password: string,
): Promise<SignedIn> {
  const { token } = await client.login(email, password);
  return completeSignIn(client, token);
}

/**
 * Registers a subscriber and signs them in. Duplicate e-mail → `ValidationError` with
 * `fields.email`, unless the password signs in to that account: a registration sent twice (a double
 * click, a retry after a slow answer) finds the account the first one made, and it is theirs.
 * `guardSignIn` runs that sign-in (the action counts it as a login attempt).
 */
export async function signUp(
  client: PublishingClient,
  input: RegisterInput,
  guardSignIn: (attempt: () => Promise<SignedIn>) => Promise<SignedIn> = (attempt) => attempt(),
): Promise<SignedIn> {
  let token: string;
  try {
    ({ token } = await client.register(input));
  } catch (error) {
    const failure = classify(error);
    if (failure.kind !== 'invalid' || !failure.fields['email']) throw error;
    return guardSignIn(() => signIn(client, input.email, input.password)).catch(() => {
      throw error;
    });
  }
  return completeSignIn(client, token);
}

/** Revokes the token upstream; false when that failed (the caller clears the session anyway). */
export async function revoke(client: PublishingClient, signedIn: SignedIn): Promise<boolean> {
  try {
    await client.withToken(signedIn.token).logout();
    return true;
  } catch (error) {
    // Already revoked or expired upstream: the goal is reached.
    return isSignedOut(classify(error));
  }
}

export type AccountState =
  /** Fresh from `/auth/me` (a subscription bought since login shows at once). */
  | { kind: 'current'; signedIn: SignedIn }
  /** The upstream is unreachable: what the session saved at login. */
  | { kind: 'saved'; signedIn: SignedIn }
  /** The token was revoked or expired upstream: sign in again. */
  | { kind: 'expired' };

/**
 * The account page's view of the subscriber, re-read from the API on every view: a subscription
 * bought (or ended) a moment ago must not show as the cached `/auth/me` of the last 90 seconds.
 */
export async function loadAccount(
  client: PublishingClient,
  signedIn: SignedIn,
): Promise<AccountState> {
  try {
    const user = await client.withToken(signedIn.token).me({ fresh: true });
    return { kind: 'current', signedIn: toSignedIn(signedIn.token, user) };
  } catch (error) {
    const failure = classify(error);
    if (isSignedOut(failure)) return { kind: 'expired' };
    if (isTemporary(failure)) return { kind: 'saved', signedIn };
    throw error;
  }
}
