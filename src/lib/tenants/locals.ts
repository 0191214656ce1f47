import type { Tenant } from './schema.ts';
import { tenantHref, type TenantMatch } from './resolution.ts';

/**
 * Puts the resolved tenant on `locals`. Reading `locals.tenant` on a request without one throws a message
 * that says how to fix it, instead of an `undefined` that breaks three components later.
 */
export function installTenantLocals(locals: App.Locals, match: TenantMatch | null): void {
  locals.site = match;
  locals.href = (path: string) => (match ? tenantHref(match, path) : path);
  Object.defineProperty(locals, 'tenant', {
    configurable: true,
    enumerable: true,
    get(): Tenant {
      if (!match) {
        throw new Error(
          'No tenant was resolved for this request. Pages that can render without a tenant (404, 500) must read `Astro.locals.site` (null when unresolved) instead of `Astro.locals.tenant`.',
        );
      }
      return match.tenant;
    },
  });
}
