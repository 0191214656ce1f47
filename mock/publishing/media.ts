import type { Context } from 'hono';
import { notFound } from '../lib/http.ts';
import { svgCard, svgPage, svgScene } from '../lib/svg.ts';
import type { MockState } from '../state.ts';
import type { PubApp } from './context.ts';
import type { Site } from './model.ts';

const SVG = { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=3600' };

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
  const base = (file: string | undefined) => (file ?? '').replace(/\.svg$/, '');

  app.get('/media/:tenant/covers/:file', (c) => {
    const s = site(c);
    const post = s?.posts.find((p) => p.slug === base(c.req.param('file')));
    if (!s || !post) return notFound(c);
    const cat = s.categories.find((x) => x.id === post.categoryId)?.name ?? s.name;
    // A wordless scene: the site prints headline and category beside the cover already.
    return c.body(svgScene(card(s, cat, post.title, s.name, 1600, 900)), 200, SVG);
  });

  app.get('/media/:tenant/figures/:file', (c) => {
    const s = site(c);
    if (!s) return notFound(c);
    const name = base(c.req.param('file'));
    return c.body(
      svgCard(card(s, 'Photo', name.replaceAll('-', ' '), s.name, 1200, 800)),
      200,
      SVG,
    );
  });

  app.get('/media/:tenant/epaper/:slug/cover.svg', (c) => {
    const s = site(c);
    const e = s?.editions.find((x) => x.slug === c.req.param('slug'));
    if (!s || !e) return notFound(c);
    return c.body(svgPage(card(s, s.name, e.title, e.publishedAt, 1200, 1600), 1), 200, SVG);
  });

  app.get('/media/:tenant/epaper/:slug/pages/:file', (c) => {
    const s = site(c);
    const e = s?.editions.find((x) => x.slug === c.req.param('slug'));
    const n = Number(base(c.req.param('file')));
    if (!s || !e || !Number.isInteger(n) || n < 1 || n > e.pageCount) return notFound(c);
    return c.body(svgPage(card(s, s.name, e.title, e.publishedAt, 1200, 1600), n), 200, SVG);
  });

  app.get('/media/:tenant/streams/:file', (c) => {
    const s = site(c);
    const st = s?.streams.find((x) => x.slug === base(c.req.param('file')));
    if (!s || !st) return notFound(c);
    return c.body(svgCard(card(s, st.status.toUpperCase(), st.title, s.name, 1280, 720)), 200, SVG);
  });

  app.get('/player/:tenant/:slug', (c) => {
    const s = site(c);
    const st = s?.streams.find((x) => x.slug === c.req.param('slug'));
    if (!s || !st) return notFound(c);
    const poster = `${state.origins.publishing}/media/${s.slug}/streams/${st.slug}.svg`;
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
