import { replaceEqualDeep } from '@tanstack/query-core';

/**
 * `next`, with every part that is deep-equal to the same part of `previous` replaced by
 * `previous`'s own object (structural sharing, as TanStack Query does for refetched data).
 *
 * A re-read that found nothing changed then hands renders the very objects they saw before, so
 * page parts kept by the identity of their data (src/lib/render/fragments.ts) stay valid across
 * the cache's refreshes: only what the upstream changed is rendered again. Plain objects and
 * arrays only; anything else is taken from `next`.
 */
export function keepUnchanged<T>(previous: unknown, next: T): T {
  return previous === undefined ? next : replaceEqualDeep(previous, next);
}
