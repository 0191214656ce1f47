import type { AstroGlobal } from 'astro';
import { tagOf } from '../delivery/cache-tags.ts';
import { cachePublic, loadOrRespond, notFound, standIn } from '../render/page-respond.ts';
import type { PostSummary } from '../publishing/schema.ts';
import type { Paged } from '../upstream/parse.ts';
import { loadCategoryPage, loadTagPage } from './loaders.ts';
import { parsePage } from './pagination.ts';
import type { Crumb } from './seo.ts';
import { categoryPath, tagPath } from './paths.ts';

/** What `components/posts/ArchiveView.astro` shows. */
export interface Archive {
  /** e.g. "Sport" or "#election" */
  heading: string;
  /** Site path of the archive's first page. */
  path: string;
  parent: Crumb;
  posts: Paged<PostSummary>;
  description: string;
}

/**
 * A category's or tag's page of posts (`/categories/<slug>/page/2`, `/tags/<slug>`), or the 404 /
 * 503 page to answer with instead; cached publicly like the other lists.
 */
export async function archivePage(
  Astro: AstroGlobal,
  kind: 'category' | 'tag',
): Promise<Archive | Response> {
  const { tenant, i18n } = Astro.locals;
  const { t } = i18n;
  const slug = Astro.params['slug'] ?? '';
  const page = parsePage(Astro.url.searchParams.get('page'));
  if (page === null) return notFound(Astro);
  const data = await loadOrRespond(Astro, async () => {
    if (kind === 'tag') {
      const { tag, ...rest } = await loadTagPage(tenant, slug, page);
      return { ...tag, heading: `#${tag.name}`, path: tagPath(tag), ...rest };
    }
    const { category, ...rest } = await loadCategoryPage(tenant, slug, page);
    return { ...category, heading: category.name, path: categoryPath(category.slug), ...rest };
  });
  if (data instanceof Response) return data;
  if (page > data.posts.page.last) return notFound(Astro);
  if (data.standIn) standIn(Astro.response.headers);
  else
    cachePublic(Astro, {
      maxAge: 120,
      swr: 900,
      tags: [tagOf[kind](tenant.id, data.slug)],
    });
  const list = kind === 'tag' ? 'tags' : 'categories';
  return {
    heading: data.heading,
    path: data.path,
    parent: { name: t(`${list}.title`), path: `/${list}` },
    posts: data.posts,
    description: t(`${kind}.description`, { name: data.name, site: tenant.name }),
  };
}
