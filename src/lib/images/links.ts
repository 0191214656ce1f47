import { imageSecret } from './shared-pipeline.ts';
import type { ImageLinks } from './picture.ts';

/** The image links of the page being rendered (`Astro.locals` of a tenant's request). */
export function imageLinks(
  locals: Pick<App.Locals, 'tenant' | 'href' | 'tenantMatchOrNull'>,
): ImageLinks {
  const match = locals.tenantMatchOrNull;
  return {
    secret: imageSecret(),
    tenant: locals.tenant,
    href: locals.href,
    // What `href` depends on besides the tenant (src/lib/tenants/resolution.ts, tenantHref).
    scope: match ? `${match.via}\0${match.basePath}` : undefined,
  };
}
