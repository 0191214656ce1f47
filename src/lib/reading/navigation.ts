import type { I18n } from '../i18n/index.ts';
import type { Tenant } from '../tenants/schema.ts';
import { isStaticBuild, staticBookingEmbed } from '../static/mode.ts';
import { memo } from '../memo.ts';
import { categoryPath } from './paths.ts';

export interface NavItem {
  label: string;
  path: string;
}

/** How many categories the header lists; the rest are one click away under "All sections". */
const HEADER_CATEGORIES = 6;

/** Whether the site has /stay: a static copy books only through the live server's embed. */
export const hasStayPage = (tenant: Tenant): boolean =>
  tenant.features.booking && (!isStaticBuild() || staticBookingEmbed(tenant) !== null);

/** Main navigation: categories from the API first, then the sections the tenant has switched on. */
export function mainNavigation(
  tenant: Tenant,
  t: I18n['t'],
  categories: readonly { name: string; slug: string }[] = [],
): NavItem[] {
  const items: NavItem[] = categories.slice(0, HEADER_CATEGORIES).map((category) => ({
    label: category.name,
    path: categoryPath(category.slug),
  }));
  if (categories.length > HEADER_CATEGORIES) {
    items.push({ label: t('nav.categories'), path: '/categories' });
  }
  if (tenant.features.epaper) items.push({ label: t('nav.epaper'), path: '/epaper' });
  if (tenant.features.streams) items.push({ label: t('nav.streams'), path: '/streams' });
  if (hasStayPage(tenant)) items.push({ label: t('nav.stay'), path: '/stay' });
  items.push({ label: t('nav.search'), path: '/search' });
  return items;
}

/**
 * `aria-current` of a menu entry: `page` on the entry's own page, `true` inside its section
 * (a category's later pages, a post of that category, an edition under /epaper).
 */
export function currentMark(
  itemPath: string,
  pagePath: string,
  sectionPath?: string,
): 'page' | 'true' | undefined {
  const path = pagePath.replace(/\/+$/, '') || '/';
  if (path === itemPath) return 'page';
  if (itemPath !== '/' && (path.startsWith(`${itemPath}/`) || sectionPath === itemPath)) {
    return 'true';
  }
  return undefined;
}

/**
 * `aria-current` for each menu entry: only the most specific entry that matches is marked, so a
 * category page marks its category and not also "All sections" (`/categories`) above it.
 */
export function currentMarks(
  itemPaths: readonly string[],
  pagePath: string,
  sectionPath?: string,
): ('page' | 'true' | undefined)[] {
  const marks = itemPaths.map((path) => currentMark(path, pagePath, sectionPath));
  // `page` before `true`, then the longest path; the first of equals.
  const rank = (index: number) =>
    marks[index] ? (marks[index] === 'page' ? 1e6 : 0) + (itemPaths[index]?.length ?? 0) : -1;
  let best = -1;
  for (const index of marks.keys()) if (rank(index) > rank(best)) best = index;
  return marks.map((mark, index) => (index === best ? mark : undefined));
}

/** The entries as one string: what a rendered header depends on besides the page's path. */
export function navKey(items: readonly NavItem[]): string {
  return items.map((item) => `${item.path}\n${item.label}`).join('\n');
}

/**
 * The header's entries and their key, made once per tenant and categories list (the upstream cache
 * hands out the same list until it changes) instead of on every render. `t` is the tenant's.
 */
export const headerNavigation = memo((tenant: Tenant, t: I18n['t']) =>
  memo((categories: readonly { name: string; slug: string }[]) => {
    const items = mainNavigation(tenant, t, categories);
    return { items, key: navKey(items) };
  }),
);
