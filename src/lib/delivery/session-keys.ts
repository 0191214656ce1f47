import type { AstroSession } from 'astro';

/**
 * Removes `key` from the visitor's session only when it is there. Astro's `session.delete` marks
 * the session changed even for a visitor who has none, and then stores an empty session under a
 * new id no cookie names: one stored session per logout, booking or comment from a stranger, kept
 * for `SESSION_TTL_SECONDS`. Reading (`has`) creates nothing: a visitor without the cookie costs
 * no storage at all. Sessions are created only when something is stored (`set`, `regenerate`).
 */
export async function deleteIfKept(
  session: Pick<AstroSession, 'has' | 'delete'> | undefined,
  key: string,
): Promise<void> {
  if (session && (await session.has(key))) session.delete(key);
}

/**
 * Ends a session that holds nothing any more (a form's kept result taken by its GET, a sign-out):
 * otherwise each stays stored, empty, for `SESSION_TTL_SECONDS` (bench/store.md).
 */
export async function dropIfEmpty(
  session: { keys(): Promise<Iterator<string>>; destroy(): void } | undefined,
): Promise<void> {
  if (session && (await session.keys()).next().done) session.destroy();
}
