import { currentYear } from '../i18n/format.ts';
import { navigationCategories } from '../reading/loaders.ts';
import { headerNavigation } from '../reading/navigation.ts';
import { askedAddress } from '../reading/paged-routes.ts';
import type { Crumb } from '../reading/seo.ts';
import { keptPart, type KeyPart } from './fragments.ts';

/** What a page tells its layout about its place and content (BaseLayout's props of the same names). */
export interface LayoutProps {
  /** The menu entry this page belongs to (e.g. a post's category path), marked as current. */
  section?: string | undefined;
  /** The breadcrumb trail after home, shown above the content and as a BreadcrumbList. */
  crumbs?: Crumb[] | undefined;
  /**
   * What the page's content shows, objects by identity (./fragments.ts): with it, the whole body
   * is kept rendered for the next render of the same data; without it, or null (the content holds
   * a visit's own state), the body renders every time.
   */
  shows?: readonly KeyPart[] | null | undefined;
}

/**
 * The layout's parts around the page's content (header items, footer year, breadcrumb trail), the
 * keys of what the header and the whole body show, and the body's HTML when it is kept
 * (`keptBody`). A page that asks for its layout first leaves its content out then: Astro evaluates
 * a component's slots when it creates the component, kept or not, so content left in costs its
 * components on every render.
 */
export async function pageLayout(
  locals: App.Locals,
  url: URL,
  { section, crumbs, shows }: LayoutProps,
) {
  const { tenant } = locals;
  // The address asked for, not the one rendered (`/page/2` is rendered at `/?page=2`, a missing
  // post at `/404`); without the site's middleware (a component test), worked out from this one.
  const currentPath = locals.askedAddress ?? askedAddress(locals.tenantMatch.pathname, url);
  const { t } = locals.i18n;
  const nav = headerNavigation(tenant, t)(await navigationCategories(tenant));
  const year = currentYear(tenant);
  const trail = crumbs && [{ name: t('breadcrumb.home'), path: '/' }, ...crumbs];
  const header: readonly KeyPart[] = ['header', nav.key, currentPath, section];
  const crumbParts = trail?.flatMap((crumb) => [crumb.name, crumb.path]) ?? [];
  const body: readonly KeyPart[] | null = shows
    ? ['body', ...header, year, ...crumbParts, ...shows]
    : null;
  return {
    section,
    currentPath,
    nav,
    year,
    trail,
    header,
    body,
    keptBody: keptPart(locals, body),
  };
}

export type PageLayout = Awaited<ReturnType<typeof pageLayout>>;
