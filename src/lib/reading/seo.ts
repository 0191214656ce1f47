import { isoInstant } from '../i18n/format.ts';
import { isStaticBuild, servedPath } from '../static/mode.ts';
import { tenantOrigin, type OriginMatch } from '../tenants/origin.ts';
import type { Tenant } from '../tenants/schema.ts';
import type { Post } from '../publishing/schema.ts';

/** Absolute URL of a site path on the tenant's own origin (no prefix, no preview query). */
export function absoluteUrl(match: OriginMatch, path: string): string {
  return pageAddress(match, path).canonical;
}

/** A page's site origin and its canonical address: what a detail page's structured data names. */
export function pageAddress(match: OriginMatch, path: string) {
  const origin = tenantOrigin(match);
  return { origin, canonical: pageUrl(path, origin) };
}

/** `path` on `origin`; a static copy's page as its host serves it (`servedPath`): never redirected. */
function pageUrl(path: string, origin: string): string {
  const url = new URL(path, origin);
  if (isStaticBuild()) url.pathname = servedPath(url.pathname);
  return url.href;
}

/** Serialises JSON-LD so it cannot close its `<script>` element. */
export function jsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export function organizationLd(tenant: Tenant, origin: string): Record<string, unknown> {
  const { logo } = tenant.theme;
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsMediaOrganization',
    name: tenant.name,
    url: `${origin}/`,
    ...(logo && {
      logo: {
        '@type': 'ImageObject',
        url: new URL(logo.src, origin).toString(),
        width: logo.width,
        height: logo.height,
      },
    }),
  };
}

export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbLd(crumbs: readonly Crumb[], origin: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: pageUrl(crumb.path, origin),
    })),
  };
}

export function newsArticleLd(
  post: Post,
  tenant: Tenant,
  canonical: string,
  origin: string,
  /** The cover through the site's image route (16:9, 4:3, 1:1); none: no `image`. */
  images: readonly string[] = [],
): Record<string, unknown> {
  const description = postDescription(post);
  const published = isoInstant(post.published_at);
  const modified = isoInstant(post.updated_at);
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: post.title,
    ...(description ? { description } : {}),
    mainEntityOfPage: canonical,
    ...(published ? { datePublished: published } : {}),
    ...(modified ? { dateModified: modified } : {}),
    ...(images.length > 0 ? { image: [...images] } : {}),
    ...(post.author ? { author: [{ '@type': 'Person', name: post.author.name }] } : {}),
    ...(post.category ? { articleSection: post.category.name } : {}),
    ...(post.tags.length > 0 ? { keywords: post.tags.map((tag) => tag.name).join(', ') } : {}),
    publisher: organizationLd(tenant, origin),
  };
}

/** What sanitized HTML (`content/sanitize.ts`) still escapes in its text: everything else it decodes. */
const ESCAPED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#39': "'",
};

/**
 * A post's page's description (its meta description and its NewsArticle's): the excerpt, or the
 * start of its text when the excerpt is empty; '' when it has neither (the page then shows the
 * site's description, which describes no article: the NewsArticle leaves the field out).
 */
export function postDescription(post: Pick<Post, 'excerpt' | 'content'>): string {
  return describe(post.excerpt || post.content);
}

/** Plain-text description from an excerpt or HTML, trimmed to a search-result length. */
export function describe(text: string, max = 160): string {
  const plain = text
    // Tags only (a letter after `<`): a plain excerpt's "<0°C … >50%" is text, not a tag.
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    // Once, in one pass: `&amp;lt;` is the text "&lt;" (the page escapes the result again).
    .replace(/&(amp|lt|gt|quot|apos|#39);/g, (entity, name: string) => ESCAPED[name] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
}
