import { imageSecret } from './site.ts';
import type { ImageLinks } from './picture.ts';

/** The image links of the page being rendered (`Astro.locals` of a tenant's request). */
export function imageLinks(locals: Pick<App.Locals, 'tenant' | 'href' | 'site'>): ImageLinks {
  const { site } = locals;
  return {
    secret: imageSecret(),
    tenant: locals.tenant,
    href: locals.href,
    // What `href` depends on besides the tenant (src/lib/tenants/resolution.ts, tenantHref).
    scope: site ? `${site.via}\0${site.basePath}` : undefined,
  };
}
