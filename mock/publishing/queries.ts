import type { Post, Site } from './model.ts';

// Plain code-unit order: ISO timestamps sort correctly and localeCompare is slow on 10k posts.
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Published posts, newest first (ties: higher id first). */
export function publishedPosts(site: Site): Post[] {
  return site.posts
    .filter((p) => p.status === 'published')
    .sort((a, b) => cmp(b.publishedAt ?? '', a.publishedAt ?? '') || b.id - a.id);
}

/** Tag filter: name case-insensitively, or slug. */
export function findTag(site: Site, nameOrSlug: string) {
  const needle = nameOrSlug.toLowerCase();
  return site.tags.find((t) => t.name.toLowerCase() === needle || t.slug === needle);
}

const text = (html: string) => html.replace(/<[^>]*>/g, ' ');

/** Case-insensitive match over title, excerpt and the text of the content. */
export const matchesSearch = (p: Post, search: string): boolean => {
  const q = search.toLowerCase();
  return (
    p.title.toLowerCase().includes(q) ||
    p.excerpt.toLowerCase().includes(q) ||
    text(p.content).toLowerCase().includes(q)
  );
};

/** Str::slug of the title, made unique in the tenant with `-2`, `-3`… */
export function uniqueSlug(site: Site, base: string): string {
  const root = base || 'post';
  let slug = root;
  for (let n = 2; site.posts.some((p) => p.slug === slug); n++) slug = `${root}-${n}`;
  return slug;
}
