import { describe, expect, it } from 'vitest';
import { sanitizePostHtml } from '../../../src/lib/content/sanitize.ts';
import { withPictures } from '../../../src/lib/images/content.ts';
import { parseImagePath } from '../../../src/lib/images/address.ts';
import { upstreamPicture, type ImageLinks } from '../../../src/lib/images/picture.ts';
import { CARD_LAYOUT } from '../../../src/lib/images/layouts.ts';

const SECRET = 'unit-test-image-secret';
const API = 'https://api.news.example';
const links: ImageLinks = {
  secret: SECRET,
  tenant: { publishing: { baseUrl: `${API}/api/v1`, mediaHosts: ['cdn.example'] } } as never,
  href: (path) => `/daily-planet${path}`,
};

describe('pictures inside post HTML', () => {
  const html = sanitizePostHtml(
    `<p>Text</p><figure><img src="${API}/media/a.jpg?v=1&amp;x=2" alt="A &quot;harbour&quot;" width="1200" height="800"></figure>
     <img src="https://cdn.example/b.jpg" alt="">
     <img src="https://elsewhere.example/c.jpg" alt="foreign">`,
    { baseUrl: `${API}/api/v1` },
  );
  const out = withPictures(html, links);

  it('serves every upstream picture through the image route with srcset, sizes, width and height', () => {
    const imgs = [...out.matchAll(/<img [^>]*>/g)].map(([tag]) => tag);
    expect(imgs).toHaveLength(2);
    for (const img of imgs) {
      expect(img).toMatch(/ srcset="[^"]+ \d+w/);
      expect(img).toMatch(/ sizes="[^"]+"/);
      expect(img).toMatch(/ width="\d+" height="\d+"/);
      expect(img).toMatch(/ loading="lazy"/);
    }
    expect(out).toContain('width="1200" height="800"');
    // No size from the upstream: taken as 3:2 so nothing shifts much.
    expect(out).toContain('width="1200" height="800" alt=""');
    expect(out).toContain('alt="A &quot;harbour&quot;"');
    expect(out.match(/<source type="image\/avif"/g)).toHaveLength(2);
  });

  it('repeats a picture’s alt text as data-alt, shown in its place when it fails; none when empty', () => {
    const pictures = [...out.matchAll(/<picture([^>]*)>/g)].map(([, attributes]) => attributes);
    expect(pictures).toEqual([' data-alt="A &quot;harbour&quot;"', '']);
  });

  it('never names the upstream, and drops a picture from a host the tenant does not use', () => {
    expect(out).not.toContain('api.news.example');
    expect(out).not.toContain('cdn.example/');
    expect(out).not.toContain('elsewhere.example');
    expect(out).not.toContain('foreign');
  });

  it('signs addresses the route reads back to the original source, tenant prefix kept', () => {
    const src = /<img src="([^"]+)"/.exec(out)?.[1] ?? '';
    expect(src.startsWith('/daily-planet/_img/u/')).toBe(true);
    const parsed = parseImagePath(
      SECRET,
      src.replace('/daily-planet', '').replaceAll('&amp;', '&'),
    );
    expect(parsed).toMatchObject({
      ok: true,
      request: { target: { source: `${API}/media/a.jpg?v=1&x=2` }, format: 'jpeg' },
    });
  });
});

describe('card pictures', () => {
  it('offer AVIF and WebP at the ladder widths a card is shown at, capped at the source width, and one JPEG', () => {
    const picture = upstreamPicture(
      links,
      { url: `${API}/media/cover.jpg`, width: 700, height: 400 },
      CARD_LAYOUT.grid,
    );
    expect(picture?.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    // No 160 px step: a card is never shown narrower than 262 CSS px (a 320 px screen picks 320).
    for (const source of picture?.sources ?? []) {
      expect(source.srcset.match(/ (\d+)w/g)).toEqual([' 320w', ' 480w', ' 640w', ' 700w']);
    }
    // Browsers without AVIF or WebP get one JPEG at the card's widest (815 px at a 24 px font: the
    // 800 step, the source's 700), not a ladder of them.
    expect(picture?.srcset.match(/ (\d+)w/g)).toEqual([' 700w']);
    expect(picture?.srcset.startsWith(`${picture.src} `)).toBe(true);
    expect(picture).toMatchObject({ width: 700, height: 400, sizes: CARD_LAYOUT.grid.sizes });
  });

  it('give no picture for a foreign host or none at all (the card shows its fallback)', () => {
    expect(
      upstreamPicture(links, { url: 'https://evil.example/x.jpg' }, CARD_LAYOUT.grid),
    ).toBeNull();
    expect(upstreamPicture(links, { url: null }, CARD_LAYOUT.grid)).toBeNull();
  });

  it('are remembered per tenant and link scope: the same picture again, another scope its own links', () => {
    const tenant = {
      publishing: { baseUrl: `${API}/api/v1`, mediaHosts: ['cdn.example'] },
    } as never;
    const scoped = (scope: string, href: (path: string) => string): ImageLinks => ({
      ...links,
      tenant,
      href,
      scope,
    });
    const byHost = scoped('host\0', (path) => path);
    const byPrefix = scoped('path\0/daily-planet', (path) => `/daily-planet${path}`);
    const cover = { url: `${API}/media/cover.jpg`, width: 700, height: 400 };
    const first = upstreamPicture(byHost, cover, CARD_LAYOUT.grid);
    expect(upstreamPicture(byHost, { ...cover }, CARD_LAYOUT.grid)).toBe(first);
    expect(first?.src).toMatch(/^\/_img\//);
    expect(upstreamPicture(byPrefix, cover, CARD_LAYOUT.grid)?.src).toBe(
      `/daily-planet${first?.src}`,
    );
    // Another size or layout is another picture.
    expect(
      upstreamPicture(byHost, { ...cover, width: 1400, height: 800 }, CARD_LAYOUT.grid),
    ).not.toBe(first);
    expect(upstreamPicture(byHost, cover, CARD_LAYOUT.lead)?.sizes).toBe(CARD_LAYOUT.lead.sizes);
    // A foreign host stays refused when asked again, and a new tenants.json object is asked anew.
    const foreign = { url: 'https://elsewhere.example/x.jpg' };
    expect(upstreamPicture(byHost, foreign, CARD_LAYOUT.grid)).toBeNull();
    expect(upstreamPicture(byHost, foreign, CARD_LAYOUT.grid)).toBeNull();
    const widened = {
      ...byHost,
      tenant: {
        publishing: { baseUrl: `${API}/api/v1`, mediaHosts: ['elsewhere.example'] },
      } as never,
    };
    expect(upstreamPicture(widened, foreign, CARD_LAYOUT.grid)).not.toBeNull();
  });
});
