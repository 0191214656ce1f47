import { laravelTime } from '../lib/dates.ts';
import { stableSecret } from '../lib/prng.ts';
import { ORIGIN } from '../seed/text.ts';
import type { Edition, Plan, Post, Stream } from './model.ts';
import {
  editionFields,
  editionPages,
  media,
  planFields,
  postRelations,
  sizeOf,
  streamFields,
  type Out,
} from './serialize.ts';

/**
 * Publishing shapes of the alt dialect (docs/api-assumptions.md, "Dialects"), only where the
 * contract is silent: the image as an object, tinyint flags, tags as names, Laravel timestamps,
 * relative image URLs in HTML, YouTube/Vimeo embeds.
 */

const time = (iso: string | null) => (iso === null ? null : laravelTime(iso));

export function altPostItem(o: Out, p: Post) {
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    excerpt: p.excerpt,
    // Lists carry the whole model, content included.
    content: altContent(o, p.content),
    status: p.status,
    published_at: time(p.publishedAt),
    updated_at: time(p.updatedAt),
    featured: p.isFeatured ? 1 : 0,
    featured_image: p.hasCover
      ? { url: media(o, `covers/${p.slug}`), alt: p.title, ...sizeOf(o, 'cover') }
      : null,
    ...postRelations(o, p),
    tags: o.site.tags.filter((t) => p.tagIds.includes(t.id)).map((t) => t.name),
  };
}

/**
 * Images the editor uploaded are stored relative: alternately site-relative (`/media/…`) and
 * document-relative (`media/…`); both resolve against the API's origin, not the reader's page.
 */
export function altContent(o: Out, html: string): string {
  let n = 0;
  return html
    .replaceAll(`src="${ORIGIN}/media/${o.site.slug}/`, () =>
      n++ % 2 === 0 ? `src="/media/${o.site.slug}/` : `src="media/${o.site.slug}/`,
    )
    .replaceAll(ORIGIN, o.origin);
}

export const altPlan = (o: Out, p: Plan) =>
  planFields(
    o,
    p,
    p.interval === 'month' ? 'monthly' : 'yearly',
    p.features.map((name) => ({ name, included: true })),
  );

export function altEdition(o: Out, e: Edition, locked: boolean, withPages: boolean) {
  const base = {
    ...editionFields(o, e, locked),
    cover_image: media(o, `epaper/${e.slug}/cover`),
    issue_date: e.publishedAt,
  };
  return withPages ? { ...base, pages: editionPages(o, e, locked) } : base;
}

/** Streams on YouTube (even ids) or Vimeo (odd ids), with the providers' standard embed hosts. */
export function altStream(o: Out, s: Stream) {
  const youtube = s.id % 2 === 0;
  const key = stableSecret(`${o.site.slug}/stream/${s.slug}`);
  const vimeoId = String(100_000_000 + (parseInt(key.slice(0, 6), 36) % 900_000_000));
  const watch = youtube
    ? `https://www.youtube.com/watch?v=${key.slice(0, 11)}`
    : `https://vimeo.com/${vimeoId}`;
  const embed = youtube
    ? `https://www.youtube.com/embed/${key.slice(0, 11)}`
    : `https://player.vimeo.com/video/${vimeoId}`;
  return {
    ...streamFields(s),
    provider: youtube ? 'youtube' : 'vimeo',
    watch_url: watch,
    stream_url: embed,
    embed_code: `<iframe width="560" height="315" src="${embed}" title="${s.title.replaceAll('"', '&quot;')}" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture" allowfullscreen></iframe>`,
    thumbnail: media(o, `streams/${s.slug}`),
    starts_at: laravelTime(s.scheduledAt),
    started_at: time(s.startedAt),
    ended_at: time(s.endedAt),
  };
}
