/**
 * The one place a post's, category's, tag's, edition's, stream's or plan's address inside the tenant is built (every link,
 * feed, sitemap and invalidation uses these; `locals.href` or `absoluteUrl` then adds the tenant).
 * The slug is escaped as one path segment: a slug with `%`, `?`, `#`, `/` or a space stays the page's
 * own address instead of becoming a query, a fragment or another path.
 */
const segment = (slug: string) => encodeURIComponent(slug);

export const postPath = (slug: string): string => `/posts/${segment(slug)}`;

export const categoryPath = (slug: string): string => `/categories/${segment(slug)}`;

/** A tag's address: its slug, or its name when the upstream gives no slug. */
export const tagPath = (tag: { name: string; slug?: string | undefined }): string =>
  `/tags/${segment(tag.slug ?? tag.name)}`;

export const editionPath = (slug: string): string => `/epaper/${segment(slug)}`;

export const streamPath = (slug: string): string => `/streams/${segment(slug)}`;

export const planPath = (slug: string): string => `/plans/${segment(slug)}`;
