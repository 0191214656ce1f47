import type { AstroSession } from 'astro';
import { z } from 'zod';
import { deleteIfKept } from '../delivery/session-store.ts';
import { settings } from '../settings/settings.ts';
import { signedOutTokens } from './signed-out.ts';
import type { SignedOutTokens } from './signed-out.ts';

/**
 * The signed-in subscriber of one tenant, kept in Astro's server-side session: the upstream token
 * never reaches page JavaScript or a cookie. Keyed by tenant, because path-prefix tenants on one
 * host share a session cookie and a token must never cross tenants.
 */
const SignedInSchema = z.object({
  token: z.string().min(1),
  user: z.object({
    id: z.union([z.number(), z.string()]),
    name: z.string(),
    email: z.string().optional(),
    roles: z.array(z.string()).default([]),
    hasActiveSubscription: z.boolean().default(false),
  }),
});
export type SignedIn = z.output<typeof SignedInSchema>;

const key = (tenantId: string) => `auth:${tenantId}`;

let signedOut: SignedOutTokens | undefined;
const signedOutOnce = (): SignedOutTokens => {
  const { REDIS_URL, SESSION_TTL_SECONDS } = settings();
  return (signedOut ??= signedOutTokens(REDIS_URL, SESSION_TTL_SECONDS));
};

/**
 * The signed-in subscriber of `tenantId`, or null (also for a session that holds something else,
 * or a token signed out since: a slow request of another tab may have written it back).
 */
export async function getSignedIn(
  session: AstroSession | undefined,
  tenantId: string,
): Promise<SignedIn | null> {
  const stored: unknown = await session?.get(key(tenantId));
  const parsed = SignedInSchema.safeParse(stored);
  if (!parsed.success) return null;
  return (await signedOutOnce().has(parsed.data.token)) ? null : parsed.data;
}

/** Signs out here for good (./signed-out.ts); returns who was signed in, to revoke upstream. */
export async function signOut(
  session: AstroSession | undefined,
  tenantId: string,
): Promise<SignedIn | null> {
  const signedIn = await getSignedIn(session, tenantId);
  if (signedIn) await signedOutOnce().add(signedIn.token);
  await clearSignedIn(session, tenantId);
  return signedIn;
}

export function setSignedIn(
  session: AstroSession | undefined,
  tenantId: string,
  value: SignedIn,
): void {
  if (!session) throw new Error('Sessions are not available: sign-in needs Astro sessions.');
  session.set(key(tenantId), value);
}

/** Signs out; a visitor who had no session still has none (../delivery/session-store.ts). */
export function clearSignedIn(session: AstroSession | undefined, tenantId: string): Promise<void> {
  return deleteIfKept(session, key(tenantId));
}

/**
 * Stores a new sign-in under a new session id (an id planted before it is worth nothing after).
 * A sign-in it replaces (signing in again, e.g. in a second tab) is handed to `replaced` once the
 * new one is stored, to revoke its token without the reader waiting for it.
 */
export async function startSession(
  session: AstroSession | undefined,
  tenantId: string,
  signedIn: SignedIn,
  replaced: (previous: SignedIn) => void,
): Promise<void> {
  // Unreadable (a broken stored session): nothing to revoke; `regenerate` starts afresh anyway.
  const previous = await getSignedIn(session, tenantId).catch(() => null);
  await session?.regenerate();
  setSignedIn(session, tenantId, signedIn);
  // An API that hands out the same token again after a logout honours it again.
  await signedOutOnce().remove(signedIn.token);
  if (previous && previous.token !== signedIn.token) {
    // A late write of the old session (another tab's slow request) must not bring it back.
    await signedOutOnce().add(previous.token);
    replaced(previous);
  }
}
