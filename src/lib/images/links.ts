import { imageSecret } from './site.ts';
import type { ImageLinks } from './picture.ts';

/** The image links of the page being rendered (`Astro.locals` of a tenant's request). */
export function imageLinks(locals: Pick<App.Locals, 'tenant' | 'href'>): ImageLinks {
  return { secret: imageSecret(), tenant: locals.tenant, href: locals.href };
}
