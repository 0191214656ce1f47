import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RESERVED_TENANT_IDS } from '../../../src/lib/tenants/schema.ts';

// A tenant id is also a `/<id>/` path prefix: an id equal to a top-level route would shadow it.
const pages = new URL('../../../src/pages/', import.meta.url);
const entries = readdirSync(pages, { withFileTypes: true });
/** `posts/`, `login.astro`, `rss.xml.ts` → `posts`, `login`, `rss.xml`; `index` is the home page. */
const topLevel = entries
  .map((entry) =>
    entry.isDirectory() ? entry.name : entry.name.replace(/\.(astro|ts|js|md)$/, ''),
  )
  .filter((name) => name !== 'index');
// `stay.astro` beside `stay/` is one route name.
const staticRoutes = [...new Set(topLevel.filter((name) => !name.includes('[')))];
const dynamicRoutes = topLevel.filter((name) => name.includes('['));
/** Top-level paths that exist without a file of their own: `/page/N` (pagination, mapped by the
 * middleware) and `/pagefind/` (the static copy's search index). */
const virtualRoutes = ['page', 'pagefind'];

describe('reserved tenant ids', () => {
  it('are exactly the top-level routes in src/pages and the virtual ones', () => {
    expect([...RESERVED_TENANT_IDS].sort()).toEqual([...staticRoutes, ...virtualRoutes].sort());
  });

  it('leave no dynamic top-level route a tenant id could match', () => {
    // Tenant ids are lower-case slugs without dots: a literal dot outside the parameter keeps
    // `sitemap-posts-[chunk].xml` apart; a bare `[slug]` would shadow every tenant prefix.
    for (const route of dynamicRoutes) {
      expect(route.replace(/\[[^\]]*\]/g, ''), route).toContain('.');
    }
  });
});
