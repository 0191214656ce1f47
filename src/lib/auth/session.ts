import type { AstroSession } from 'astro';
import { z } from 'zod';
import { deleteIfKept } from '../delivery/session-store.ts';

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

/** The signed-in subscriber of `tenantId`, or null (also for a session that holds something else). */
export async function getSignedIn(
  session: AstroSession | undefined,
  tenantId: string,
): Promise<SignedIn | null> {
  const stored: unknown = await session?.get(key(tenantId));
  const parsed = SignedInSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
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
  if (previous && previous.token !== signedIn.token) replaced(previous);
}
