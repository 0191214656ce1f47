import type { Context } from 'hono';
import { notFound } from '../lib/http.ts';
import { mediaSize, type MediaKind } from '../lib/media-mode.ts';
import { photoJpeg } from '../lib/photo.ts';
import { svgCard, svgPage, svgScene } from '../lib/svg.ts';
import type { MockState } from '../state.ts';
import type { PubApp } from './context.ts';
import type { Site } from './model.ts';

const SVG = { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=3600' };
const JPEG = { 'Content-Type': 'image/jpeg', 'Cache-Control': 'public, max-age=3600' };

/** `cover.svg` → `{ name: 'cover', photo: false }`; `.jpg` asks for the photo-mode JPEG. */
const fileName = (file: string | undefined) => {
  const match = /^(.+)\.(svg|jpg)$/.exec(file ?? '');
  return { name: match?.[1] ?? '', photo: match?.[2] === 'jpg' };
};

const esc = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0;font-family:system-ui,sans-serif;background:#111;color:#eee}main{padding:1rem}</style></head>
<body>${body}</body></html>`;

/** Media, the stand-in video player and stand-in subscribe/reader pages (outside /api/v1). */
export function mediaRoutes(app: PubApp, state: MockState): void {
  const site = (c: Context): Site | undefined =>
    state.publishing.sites.get(c.req.param('tenant') ?? '');
  const card = (
    s: Site,
    kicker: string,
    title: string,
    footer: string,
    width: number,
    height: number,
  ) => ({ width, height, color: s.color, accent: s.accent, kicker, title, footer });
  const base = (file: string | undefined) => fileName(file).name;
  /** The drawing as SVG, or as a camera-size JPEG of it when the URL ends in `.jpg`. */
  const picture = async (c: Context, kind: MediaKind, draw: (w: number, h: number) => string) => {
    if (!fileName(c.req.param('file')).photo) {
      const { width, height } = mediaSize('svg', kind);
      return c.body(draw(width, height), 200, SVG);
    }
    const { width, height } = mediaSize('photos', kind);
    // Pages keep their drawing's coordinates and are scaled up; scenes and cards draw at full size.
    const svg = kind === 'page' ? draw(1200, 1600) : draw(width, height);
    return c.body(new Uint8Array(await photoJpeg(svg, width, height)), 200, JPEG);
  };

  app.get('/media/:tenant/covers/:file', (c) => {
    const s = site(c);
    const post = s?.posts.find((p) => p.slug === base(c.req.param('file')));
    if (!s || !post) return notFound(c);
    const cat = s.categories.find((x) => x.id === post.categoryId)?.name ?? s.name;
    // A wordless scene: the site prints headline and category beside the cover already.
    return picture(c, 'cover', (w, h) => svgScene(card(s, cat, post.title, s.name, w, h)));
  });

  app.get('/media/:tenant/figures/:file', (c) => {
    const s = site(c);
    if (!s) return notFound(c);
    const name = base(c.req.param('file'));
    return picture(c, 'figure', (w, h) =>
      svgCard(card(s, 'Photo', name.replaceAll('-', ' '), s.name, w, h)),
    );
  });

  app.get('/media/:tenant/epaper/:slug/:file{cover\\.(?:svg|jpg)}', (c) => {
    const s = site(c);
    const e = s?.editions.find((x) => x.slug === c.req.param('slug'));
    if (!s || !e) return notFound(c);
    return picture(c, 'page', (w, h) => svgPage(card(s, s.name, e.title, e.publishedAt, w, h), 1));
  });

  app.get('/media/:tenant/epaper/:slug/pages/:file', (c) => {
    const s = site(c);
    const e = s?.editions.find((x) => x.slug === c.req.param('slug'));
    const n = Number(base(c.req.param('file')));
    if (!s || !e || !/^\d+$/.test(base(c.req.param('file'))) || n < 1 || n > e.pageCount)
      return notFound(c);
    return picture(c, 'page', (w, h) => svgPage(card(s, s.name, e.title, e.publishedAt, w, h), n));
  });

  app.get('/media/:tenant/streams/:file', (c) => {
    const s = site(c);
    const st = s?.streams.find((x) => x.slug === base(c.req.param('file')));
    if (!s || !st) return notFound(c);
    return picture(c, 'stream', (w, h) =>
      svgCard(card(s, st.status.toUpperCase(), st.title, s.name, w, h)),
    );
  });

  app.get('/player/:tenant/:slug', (c) => {
    const s = site(c);
    const st = s?.streams.find((x) => x.slug === c.req.param('slug'));
    if (!s || !st) return notFound(c);
    const poster = `${state.origins.publishing}/media/${s.slug}/streams/${st.slug}.${state.media === 'photos' ? 'jpg' : 'svg'}`;
    return c.html(
      page(
        st.title,
        `<main data-testid="mock-player" data-status="${st.status}"><img src="${poster}" alt="" style="width:100%;max-height:80vh;object-fit:contain">
<p><strong>${esc(st.title)}</strong> · ${st.status === 'live' ? '● LIVE' : st.status}</p></main>`,
      ),
    );
  });

  app.get('/subscribe/:tenant/:plan', (c) => {
    const s = site(c);
    const p = s?.plans.find((x) => x.slug === c.req.param('plan'));
    if (!s || !p) return notFound(c);
    return c.html(
      page(
        `Subscribe: ${p.name}`,
        `<main><h1>${esc(s.name)}: ${esc(p.name)}</h1><p>Checkout stand-in of the contract mock.</p></main>`,
      ),
    );
  });

  app.get('/reader/:tenant/:slug', (c) => {
    const s = site(c);
    const e = s?.editions.find((x) => x.slug === c.req.param('slug'));
    if (!s || !e) return notFound(c);
    return c.html(
      page(
        e.title,
        `<main><h1>${esc(e.title)}</h1><p>${e.pageCount} pages. Reader stand-in of the contract mock.</p></main>`,
      ),
    );
  });
}
