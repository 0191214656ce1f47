import { i18nFor } from '../i18n/index.ts';
import type { Tenant } from './schema.ts';
import { tenantHref, type TenantMatch } from './resolution.ts';

const NO_TENANT =
  'No tenant was resolved for this request. Pages that can render without a tenant (404, 500) must read `Astro.locals.tenantMatchOrNull` (null when unresolved) instead of `Astro.locals.tenant`, `Astro.locals.tenantMatch` or `Astro.locals.i18n`.';

/**
 * Puts the resolved tenant and its interface text (`i18n`) on `locals`. Reading `locals.tenant`,
 * `locals.tenantMatch` or `locals.i18n` on a request without one throws a message that says how to
 * fix it, instead of an `undefined` that breaks three components later; pages never need `!`.
 */
export function installTenantLocals(locals: App.Locals, match: TenantMatch | null): void {
  locals.tenantMatchOrNull = match;
  locals.href = (path: string) => (match ? tenantHref(match, path) : path);
  const resolved = (): TenantMatch => {
    if (!match) throw new Error(NO_TENANT);
    return match;
  };
  Object.defineProperties(locals, {
    tenant: { configurable: true, enumerable: true, get: (): Tenant => resolved().tenant },
    tenantMatch: { configurable: true, enumerable: true, get: resolved },
    i18n: { configurable: true, enumerable: true, get: () => i18nFor(resolved().tenant) },
  });
}
