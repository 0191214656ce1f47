import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ask, crawl, fileForPath, linksIn } from '../../../src/lib/static/crawl.ts';
import { createDiskCache } from '../../../src/lib/static/disk-cache.ts';
import { pageType } from '../../../src/lib/static/build.ts';

describe('render-and-save', () => {
  it.each([
    ['/', 'index.html'],
    ['/404', '404.html'],
    ['/posts/hello', 'posts/hello/index.html'],
    ['/page/2', 'page/2/index.html'],
    ['/tags/caf%C3%A9', 'tags/café/index.html'],
    ['/tags/100%', 'tags/100%/index.html'],
    ['/rss.xml', 'rss.xml'],
    ['/robots.txt', 'robots.txt'],
    ['/epaper/x/page/3/zoom/1.5', 'epaper/x/page/3/zoom/1.5/index.html'],
    [
      '/_img/u/aHR0cA/800/AAAAAAAAAAAAAAAAAAAAAA.avif',
      '_img/u/aHR0cA/800/AAAAAAAAAAAAAAAAAAAAAA.avif',
    ],
  ])('writes %s to %s', (path, file) => {
    expect(fileForPath(path)).toBe(file);
  });

  it('follows root-relative links and sitemap entries of its own origin, without query or hash', () => {
    const html = `<a href="/posts/a?x=1#top">a</a><a href="https://other.example/">x</a>
      <img src="/_astro/a.css"><a href="/tags/b/">b</a><a href="//cdn.example/x">c</a>
      <loc>https://news.example.com/posts/c</loc><a href="/categories/d?tenant=x&amp;y=1">d</a>`;
    expect(linksIn(html, 'https://news.example.com')).toEqual([
      '/posts/a',
      '/_astro/a.css',
      '/tags/b',
      '/posts/c',
      '/categories/d',
    ]);
  });

  it('reads a link as the browser does: an apostrophe is escaped in the markup', () => {
    const html = `<a href="/posts/o&#39;brien-returns">a</a><a href="/tags/rock&amp;roll">b</a>
      <loc>https://news.example.com/posts/o&apos;neill-wins</loc>`;
    expect(linksIn(html, 'https://news.example.com')).toEqual([
      "/posts/o'brien-returns",
      '/tags/rock&roll',
      "/posts/o'neill-wins",
    ]);
    // A reference past Unicode (hostile content) is no crash of the crawl.
    expect(() => linksIn('<a href="/x&#99999999;">x</a>', '')).not.toThrow();
  });

  it("saves every derived image a page names: srcset, the reader's data-webp, og:image, JSON-LD", () => {
    const html = `<picture><source srcset="/_img/u/YQ/160/AAAAAAAAAAAAAAAAAAAAAA.avif 160w, /_img/u/YQ/320/BBBBBBBBBBBBBBBBBBBBBB.avif 320w">
      <img src="/_img/u/YQ/320/CCCCCCCCCCCCCCCCCCCCCC.jpg"></picture>
      <a data-webp="/_img/u/Yg/800/DDDDDDDDDDDDDDDDDDDDDD.webp 800w" href="/epaper/x/page/2">2</a>
      <meta property="og:image" content="https://news.example.com/_img/u/YQ/1200/EEEEEEEEEEEEEEEEEEEEEE.jpg">
      <script type="application/ld+json">{"image":["https://news.example.com/_img/u/YQ/1200-1x1/FFFFFFFFFFFFFFFFFFFFFF.jpg"]}</script>`;
    expect(linksIn(html, 'https://news.example.com').sort()).toEqual(
      [
        '/_img/u/YQ/160/AAAAAAAAAAAAAAAAAAAAAA.avif',
        '/_img/u/YQ/320/BBBBBBBBBBBBBBBBBBBBBB.avif',
        '/_img/u/YQ/320/CCCCCCCCCCCCCCCCCCCCCC.jpg',
        '/_img/u/Yg/800/DDDDDDDDDDDDDDDDDDDDDD.webp',
        '/_img/u/YQ/1200/EEEEEEEEEEEEEEEEEEEEEE.jpg',
        '/_img/u/YQ/1200-1x1/FFFFFFFFFFFFFFFFFFFFFF.jpg',
        '/epaper/x/page/2',
      ].sort(),
    );
  });

  it('names page types for the summary', () => {
    expect(['/', '/page/3', '/posts/a', '/rss.xml', '/epaper/x', '/404'].map(pageType)).toEqual([
      'home',
      'home',
      'posts',
      'feeds and sitemaps',
      'e-paper',
      '404',
    ]);
  });
});

describe('a crawl with pages rendered before it', () => {
  it('writes a page already rendered as it is, without asking the server, and follows its links', async () => {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<p>${request.url}</p><a href="/posts/a">a</a>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const outDir = mkdtempSync(join(tmpdir(), 'masthead-crawl-'));
    try {
      const early = '<p>early a</p><a href="/posts/b">b</a>';
      const result = await crawl({
        render: async (path) =>
          path === '/posts/a'
            ? new Response(early, {
                headers: { 'content-type': 'text/html', 'x-frame-options': 'DENY' },
              })
            : ask(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)(path),
        siteOrigin: 'https://news.example.com',
        outDir,
        seeds: ['/'],
        onPicture: () => undefined,
      });
      expect(asked.sort()).toEqual(['/', '/posts/b']);
      expect(result.written.sort()).toEqual(['/', '/posts/a', '/posts/b']);
      expect(readFileSync(join(outDir, 'posts/a/index.html'), 'utf8')).toBe(early);
      // Its headers travel with it, as a rendered page's do.
      expect(readFileSync(join(outDir, '_headers'), 'utf8')).toContain(
        '/posts/a\n  x-frame-options: DENY',
      );
    } finally {
      server.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('a crawl meeting a page the site does not have', () => {
  it('lists a story’s link to it as dead and writes the rest; a seed the site lacks is broken', async () => {
    const server = createServer((request, response) => {
      const missing = request.url === '/posts/unpublished' || request.url === '/plans';
      response.statusCode = missing ? 404 : 200;
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        missing ? 'Not found' : '<a href="/posts/unpublished">x</a><a href="/posts/b">b</a>',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const outDir = mkdtempSync(join(tmpdir(), 'masthead-crawl-'));
    try {
      const result = await crawl({
        render: ask(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        siteOrigin: 'https://news.example.com',
        outDir,
        seeds: ['/', '/plans'],
        onPicture: () => undefined,
      });
      expect(result.written.sort()).toEqual(['/', '/posts/b']);
      expect(result.dead).toEqual(['/posts/unpublished (linked from /)']);
      expect(result.broken).toEqual(['/plans (linked from the build): 404 Not found']);
    } finally {
      server.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('a crawl of non-ASCII addresses', () => {
  it('renders a page linked as /posts/café and by its canonical …/caf%C3%A9 once, to the file a host serves', async () => {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.setHeader('content-type', 'text/html; charset=utf-8');
      // As the site writes them: links as the slug is, canonical and sitemap URLs escaped.
      const canonical = new URL(decodeURI(request.url ?? '/'), 'https://news.example.com').href;
      response.end(`<link rel="canonical" href="${canonical}"><a href="/posts/café">café</a>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const outDir = mkdtempSync(join(tmpdir(), 'masthead-crawl-'));
    try {
      const result = await crawl({
        render: ask(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        siteOrigin: 'https://news.example.com',
        outDir,
        seeds: ['/'],
        onPicture: () => undefined,
      });
      expect(asked.sort()).toEqual(['/', '/posts/caf%C3%A9']);
      expect(result.written).toHaveLength(2);
      // sirv, nginx and the hosts decode the request's escapes before they look for the file.
      expect(readdirSync(join(outDir, 'posts'))).toEqual(['café']);
      expect(readFileSync(join(outDir, 'posts/café/index.html'), 'utf8')).toContain('café</a>');
    } finally {
      server.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('the disk cache', () => {
  it('keeps answers with when they were stored and their updated_at, across processes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-static-'));
    let now = 1000;
    createDiskCache(dir, () => now).set('posts.get|a', { title: 'A' }, '2026-01-01T00:00:00Z');
    now = 2000;
    const again = createDiskCache(dir, () => now);
    expect(again.get('posts.get|a')).toEqual({
      key: 'posts.get|a',
      storedAt: 1000,
      updatedAt: '2026-01-01T00:00:00Z',
      value: { title: 'A' },
    });
    expect(again.get('posts.get|b')).toBeUndefined();
  });
});
