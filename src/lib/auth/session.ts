import { createHash } from 'node:crypto';
import type { AstroCookies, AstroSession } from 'astro';
import { z } from 'zod';
import { deleteIfKept, dropIfEmpty, SESSION_COOKIE } from '../delivery/session-store.ts';
import { settings } from '../settings/settings.ts';
import { apiHash } from '../upstream/cache.ts';
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

/**
 * As kept: with the publishing API that issued the token (`apiHash`). A session kept without it
 * (before it was noted) is signed out once: its token may be another API's.
 */
const StoredSchema = SignedInSchema.extend({ api: z.string() });

/** The tenant as its sessions know it: its id, and the publishing API its tokens belong to. */
export type SessionTenant = { id: string; publishing: { baseUrl: string } };

const key = (tenant: SessionTenant) => `auth:${tenant.id}`;
/** Left by a sign-out, for a form another tab still shows signed in (`takeSignOut`). */
const signedOutKey = (tenant: SessionTenant) => `signed-out:${tenant.id}`;

/**
 * Names the session a sign-in started, in a cookie of its own that outlives the stored session: one
 * gone (idle past SESSION_TTL_SECONDS) was signed in only if it still names it (`takeSignOut`).
 */
const SIGNED_IN_COOKIE = 'masthead-signed-in';
const signedInMark = (tenant: SessionTenant, sessionID: string) =>
  createHash('sha256').update(`${tenant.id}:${sessionID}`).digest('base64url');

let signedOut: SignedOutTokens | undefined;
const signedOutOnce = (): SignedOutTokens => {
  const { REDIS_URL, SESSION_TTL_SECONDS } = settings();
  return (signedOut ??= signedOutTokens(REDIS_URL, SESSION_TTL_SECONDS));
};

/**
 * The signed-in subscriber of `tenant`, or null (also for a session that holds something else, a
 * token of another publishing API than the tenant's now, or a token signed out since: a slow
 * request of another tab may have written it back).
 */
export async function getSignedIn(
  session: AstroSession | undefined,
  tenant: SessionTenant,
): Promise<SignedIn | null> {
  const stored: unknown = await session?.get(key(tenant));
  const parsed = StoredSchema.safeParse(stored);
  if (!parsed.success) return null;
  const { api, ...signedIn } = parsed.data;
  // The tenant reads another API since (tenants.json changed, or a removed tenant's id came back):
  // the old API's token is never sent to the new one.
  if (api !== apiHash(tenant.publishing.baseUrl)) return null;
  return (await signedOutOnce().has(signedIn.token)) ? null : signedIn;
}

/**
 * Signs out here for good (./signed-out.ts): a logout, and a token the API refuses (expired,
 * revoked). Returns who was signed in, to revoke upstream.
 */
export async function signOut(
  session: AstroSession | undefined,
  tenant: SessionTenant,
): Promise<SignedIn | null> {
  const signedIn = await getSignedIn(session, tenant);
  if (signedIn) {
    await signedOutOnce().add(signedIn.token);
    session?.set(signedOutKey(tenant), true);
    // A new id, so the cookie changes: no back/forward cache shows a page from before (reader.css).
    await session?.regenerate();
  }
  await deleteIfKept(session, key(tenant));
  return signedIn;
}

/**
 * Whether this session was signed out (a logout, a token the API refused) since it last sent a
 * form that asked (once: the mark goes), or its cookie names a signed-in session that is gone (idle
 * past SESSION_TTL_SECONDS; a guest's, kept for a booking or a draft, is a guest's still). A shared
 * page cannot know who is signed in, so another tab, or a tab left open, may still show the
 * signed-in form.
 */
export async function takeSignOut(
  session: AstroSession | undefined,
  cookies: AstroCookies,
  tenant: SessionTenant,
): Promise<boolean> {
  if (!session) return false;
  // Astro gives a cookie whose session is gone a new, empty one under a new id.
  if ((await session.keys()).next().done) {
    const id = cookies.get(SESSION_COOKIE)?.value;
    return id !== undefined && cookies.get(SIGNED_IN_COOKIE)?.value === signedInMark(tenant, id);
  }
  if (!(await session.has(signedOutKey(tenant)))) return false;
  session.delete(signedOutKey(tenant));
  await dropIfEmpty(session);
  return true;
}

export function setSignedIn(
  session: AstroSession | undefined,
  tenant: SessionTenant,
  value: SignedIn,
): void {
  if (!session) throw new Error('Sessions are not available: sign-in needs Astro sessions.');
  session.set(key(tenant), { ...value, api: apiHash(tenant.publishing.baseUrl) });
}

/**
 * Stores a new sign-in under a new session id (an id planted before it is worth nothing after).
 * A sign-in it replaces (signing in again, e.g. in a second tab) is handed to `replaced` once the
 * new one is stored, to revoke its token without the reader waiting for it. `origin` is the
 * tenant's (`tenantOrigin`): on https the mark, like the session cookie, never travels in clear.
 */
export async function startSession(
  session: AstroSession | undefined,
  cookies: AstroCookies,
  tenant: SessionTenant,
  signedIn: SignedIn,
  origin: string,
  replaced: (previous: SignedIn) => void,
): Promise<void> {
  // Unreadable (a broken stored session): nothing to revoke; `regenerate` starts afresh anyway.
  const previous = await getSignedIn(session, tenant).catch(() => null);
  await session?.regenerate();
  setSignedIn(session, tenant, signedIn);
  if (session?.sessionID) {
    cookies.set(SIGNED_IN_COOKIE, signedInMark(tenant, session.sessionID), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: origin.startsWith('https:'),
    });
  }
  await deleteIfKept(session, signedOutKey(tenant));
  // An API that hands out the same token again after a logout honours it again.
  await signedOutOnce().remove(signedIn.token);
  if (previous && previous.token !== signedIn.token) {
    // A late write of the old session (another tab's slow request) must not bring it back.
    await signedOutOnce().add(previous.token);
    replaced(previous);
  }
}
