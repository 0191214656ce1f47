/// <reference types="astro/client" />

/** The files of public/ at build time (astro.config.mjs), as URL paths. */
declare const __MASTHEAD_PUBLIC_FILES__: readonly string[];

declare namespace App {
  interface Locals {
    /** The tenant of this request; throws when none was resolved (see `tenantMatchOrNull`). */
    tenant: import('./lib/tenants/schema.ts').Tenant;
    /** How the tenant was resolved; throws when none was (see `tenantMatchOrNull`). */
    tenantMatch: import('./lib/tenants/resolution.ts').TenantMatch;
    /** The tenant's interface text and formats; throws when no tenant was resolved (see `tenantMatchOrNull`). */
    i18n: import('./lib/i18n/index.ts').I18n;
    /** How the tenant was resolved, or null for "site not found" (404 and 500 pages). */
    tenantMatchOrNull: import('./lib/tenants/resolution.ts').TenantMatch | null;
    /** Site-internal link that keeps the tenant's path prefix or preview query. */
    href: (path: string) => string;
    requestId: string;
    /** Who sent the request: address and whether it is a direct local one (src/lib/request/visitor.ts). */
    visitor: import('./lib/request/visitor.ts').Visitor;
    /** The request was to the booking embed: its `frame-ancestors`, for whatever page answers it (src/lib/request/framing.ts). */
    embedAncestors?: string;
    /** The edge refused the request before the tenant was known: answered once it is (src/lib/request/refusals.ts). */
    edgeRefusal?: import('./lib/request/refusals.ts').EdgeRefusal;
    /**
     * The site address the visitor asked for (`/page/2`, `/search?q=ferry`), kept when a page answers
     * with another (`/?page=2`, the 404 or 503 page): what the menu marks and a sign-in comes back to.
     */
    askedAddress?: string;
    /** Set before a rewrite to the 503 page: seconds for `Retry-After`. */
    retryAfter?: number;
  }
}
