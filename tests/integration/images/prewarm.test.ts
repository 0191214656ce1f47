import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { watchTenant, type WatcherOptions } from '../../../src/lib/freshness/watcher.ts';
import type { Tenant } from '../../../src/lib/tenants/schema.ts';
import { imagePath } from '../../../src/lib/images/address.ts';
import {
  editionPictures,
  postPictures,
  warmAfterPurge,
  warmingSettled,
  warmPosts,
} from '../../../src/lib/images/prewarm.ts';
import { imagePipeline, imageSecret } from '../../../src/lib/images/shared-pipeline.ts';
import { redirectLogLines } from '../../../src/lib/log/log.ts';
import { warmImage } from '../../../src/lib/images/warm.ts';
import type { PublishingClient } from '../../../src/lib/publishing/client.ts';
import type { Edition, PostSummary } from '../../../src/lib/publishing/schema.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';
import { generatedTenants } from '../../fixtures/tenants.ts';
import { imageUpstream } from './fixture.ts';

let upstream: Awaited<ReturnType<typeof imageUpstream>>;
/** What the upstream's e-paper list shows first (none until a test says). */
let newestEdition: Record<string, unknown> | undefined;
let origin = '';

beforeAll(async () => {
  const photo = await sharp({
    create: { width: 3000, height: 2000, channels: 3, background: '#3a6ea5' },
  })
    .jpeg()
    .toBuffer();
  upstream = await imageUpstream(
    (req, res) => {
      if (req.url?.startsWith('/media/')) return void res.end(photo);
      if (/\/epaper(?:\?|$)/.test(req.url ?? '') && newestEdition) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ data: [newestEdition] }));
      }
      const slug = /\/epaper\/([^/?]+)$/.exec(req.url ?? '')?.[1];
      if (slug && slug === newestEdition?.slug) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const pages = [1, 2, 3].map((n) => ({
          page_number: n,
          image_url: `http://${req.headers.host}/media/${slug}/page-${n}.jpg`,
        }));
        return void res.end(JSON.stringify({ data: { ...newestEdition, pages } }));
      }
      const purged = /^\/api\/v1\/posts\/(purged-\d+)$/.exec(req.url ?? '')?.[1];
      if (purged) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const cover = `http://${req.headers.host}/media/${purged}.jpg`;
        return void res.end(JSON.stringify({ data: { ...post(purged, cover), content: '' } }));
      }
      res.writeHead(404);
      res.end();
    },
    { IMAGE_TRANSFORMS: '2' },
  );
  origin = upstream.origin;
});

// Warms the last test queued still write into the cache folder: let them finish before it goes.
afterAll(async () => {
  await warmingSettled();
  await upstream.close();
});

function post(slug: string, cover: string | null): PostSummary {
  const now = new Date().toISOString();
  return {
    id: slug,
    slug,
    title: slug,
    excerpt: '',
    published_at: now,
    updated_at: now,
    tags: [],
    cover_image_url: cover,
    cover_image_width: 3000,
    cover_image_height: 2000,
  };
}

/** The path a phone's first view of the post asks for: its cover, 800 px AVIF. */
const leadPath = (source: string) =>
  `/t0${imagePath(imageSecret(), { target: { kind: 'source', source }, width: 800, format: 'avif' })}`;

/** Runs a watcher of `tenant` on `publishing` (fake timers) until `done()`, at most 70 s of its time. */
async function watchUntil(
  tenant: Tenant,
  publishing: WatcherOptions['publishing'],
  done: () => boolean,
): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const watcher = watchTenant({
    tenant,
    tenantsSharing: () => 1,
    upstream: createUpstream({ metrics: createMetrics({ log: () => undefined }) }),
    publishing,
  });
  try {
    // The first look comes somewhere in the first interval (at most a minute here).
    for (let i = 0; i < 70 && !done(); i++) await vi.advanceTimersByTimeAsync(1000);
  } finally {
    watcher.stop();
    vi.useRealTimers();
  }
}

describe('pictures made before the first reader', () => {
  it('the change watcher makes a new post’s lead picture before anyone asks for it', async () => {
    const [tenant] = generatedTenants(1, `${origin}/api/v1`);
    const cover = `${origin}/media/new-post.jpg`;
    let looks = 0;
    const listPosts: PublishingClient['listPosts'] = () => {
      looks++;
      return Promise.resolve({ items: [post('new-post', cover)] } as unknown as Awaited<
        ReturnType<PublishingClient['listPosts']>
      >);
    };
    await watchUntil(tenant!, { listPosts }, () => looks > 0);
    expect(looks).toBe(1);
    expect(await warmImage(leadPath(cover))).toBeNull(); // not made yet: the look just queued it
    await vi.waitFor(async () => expect(await warmImage(leadPath(cover))).not.toBeNull(), {
      timeout: 15_000,
      interval: 50,
    });
    await warmingSettled();
    // The reader's request is a file read (npm start answers it before the site's handler).
    const warm = await warmImage(leadPath(cover));
    expect(warm?.headers['Content-Type']).toBe('image/avif');
    expect((await sharp(warm!.bytes).metadata()).width).toBe(800);
  });

  it('the change watcher makes a new edition’s cover and first pages before anyone asks for them', async () => {
    const [tenant] = generatedTenants(1, `${origin}/api/v1`);
    const media = `${origin}/media/edition-${Date.now()}`;
    const edition = {
      slug: 'monday',
      title: 'Monday',
      cover_image_url: `${media}/cover.jpg`,
      requires_subscription: false,
      published_at: new Date().toISOString(),
      pages: [],
    } as unknown as Edition;
    const pages = [1, 2, 3, 4].map((n) => ({
      page_number: n,
      image_url: `${media}/page-${n}.jpg`,
    }));
    const paged = <T>(items: T[]) => Promise.resolve({ items } as never);
    const read: string[] = [];
    const publishing: Pick<PublishingClient, 'listPosts' | 'listEditions' | 'getEdition'> = {
      listPosts: () => paged([]),
      listEditions: () => paged([edition]),
      getEdition: (slug) => {
        read.push(slug);
        return Promise.resolve({ ...edition, pages });
      },
    };
    await watchUntil(tenant!, publishing, () => read.length > 0);
    expect(read).toEqual(['monday']);
    const path = (source: string, width: number) =>
      `/t0${imagePath(imageSecret(), { target: { kind: 'source', source }, width, format: 'avif' })}`;
    await vi.waitFor(
      async () => {
        // The cover as the e-paper list shows it on a phone, and the page a reader opens first.
        expect(await warmImage(path(`${media}/cover.jpg`, 640))).not.toBeNull();
        expect(await warmImage(path(`${media}/page-1.jpg`, 800))).not.toBeNull();
      },
      { timeout: 30_000, interval: 100 },
    );
    await warmingSettled();
    expect(await warmImage(path(`${media}/page-3.jpg`, 1200))).not.toBeNull();
    expect(await warmImage(path(`${media}/page-4.jpg`, 800))).toBeNull(); // beyond the first pages
  });

  it('warms with one transform at a time, leaving the other slots to readers', async () => {
    const [tenant] = generatedTenants(1, `${origin}/api/v1`);
    const pipeline = imagePipeline();
    const before = pipeline.counts.transforms;
    warmPosts(
      tenant!,
      ['a', 'b', 'c'].map((slug) => post(`share-${slug}`, `${origin}/media/share-${slug}.jpg`)),
    );
    await warmingSettled();
    // Three covers × (800 and 1200 AVIF, the 1200 JPEG link previews fetch), one at a time.
    expect(pipeline.counts.transforms - before).toBe(9);
    expect(pipeline.queue.peak).toBe(1);
    // Asked again (the next look, a purge): nothing is made twice.
    warmPosts(tenant!, [post('share-a', `${origin}/media/share-a.jpg`)]);
    await warmingSettled();
    expect(pipeline.counts.transforms - before).toBe(9);
  });

  it('a newsroom purge of a post makes its lead picture (its cover may be new)', async () => {
    const [tenant] = generatedTenants(1, `${origin}/api/v1`);
    // A slug of its own: the site's data cache outlives a test run (.cache/upstream).
    const slug = `purged-${Date.now()}`;
    const cover = `${origin}/media/${slug}.jpg`;
    expect(await warmImage(leadPath(cover))).toBeNull();
    warmAfterPurge(tenant!, { slug });
    await vi.waitFor(async () => expect(await warmImage(leadPath(cover))).not.toBeNull(), {
      timeout: 15_000,
      interval: 50,
    });
    await warmingSettled(); // the other widths are still being made: not past the folder's removal
  });

  it('a purge of everything makes the newest edition’s cover and first page too', async () => {
    const [tenant] = generatedTenants(1, `${origin}/api/v1`);
    const slug = `purged-edition-${Date.now()}`;
    newestEdition = {
      slug,
      title: 'Purged',
      cover_image_url: `${origin}/media/${slug}/cover.jpg`,
      published_at: new Date().toISOString(),
    };
    const path = (source: string, width: number) =>
      `/t0${imagePath(imageSecret(), { target: { kind: 'source', source }, width, format: 'avif' })}`;
    warmAfterPurge(tenant!, { everything: true });
    await vi.waitFor(
      async () => {
        expect(await warmImage(path(`${origin}/media/${slug}/cover.jpg`, 640))).not.toBeNull();
        expect(await warmImage(path(`${origin}/media/${slug}/page-1.jpg`, 800))).not.toBeNull();
      },
      { timeout: 30_000, interval: 100 },
    );
    await warmingSettled(); // the other pages are still being made: not past the folder's removal
  });

  it('a bug of ours while warming is logged as an error with its stack; a missing source is not logged', async () => {
    const [tenant] = generatedTenants(1, `${origin}/api/v1`);
    const lines: string[] = [];
    const restore = redirectLogLines((line) => void lines.push(line));
    const derive = vi
      .spyOn(imagePipeline(), 'derive')
      .mockRejectedValueOnce(
        new TypeError("Cannot read properties of undefined (reading 'width')"),
      );
    try {
      warmPosts(tenant!, [post('bug', `${origin}/media/bug-${Date.now()}.jpg`)]);
      warmPosts(tenant!, [post('gone', `${origin}/missing/gone-${Date.now()}.jpg`)]);
      await warmingSettled();
    } finally {
      derive.mockRestore();
      restore();
    }
    const failed = lines
      .map((line) => JSON.parse(line) as Record<string, string>)
      .filter((line) => line['event'] === 'images.warm.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 'error', error: 'TypeError' });
    expect(failed[0]?.['source']).toContain('/media/bug-');
    expect(failed[0]?.['stack']).toMatch(/^TypeError: Cannot read[^\n]*\n\s+at /);
  });

  it('takes nothing from a host the tenant does not take pictures from', () => {
    const [tenant] = generatedTenants(1, `${origin}/api/v1`);
    const before = imagePipeline().counts.fetches;
    warmPosts(tenant!, [post('elsewhere', 'https://elsewhere.example/x.jpg')]);
    expect(imagePipeline().counts.fetches).toBe(before);
  });
});

describe('which pictures are warmed', () => {
  it('a post: its cover in the widths phones pick, and the link-preview JPEG', () => {
    const source = `${origin}/media/p.jpg`;
    expect(postPictures(post('p', source))).toEqual([
      { source, width: 800, format: 'avif' },
      { source, width: 1200, format: 'avif' },
      { source, width: 1200, format: 'jpeg' },
    ]);
    expect(postPictures(post('none', null))).toEqual([]);
  });

  it('an edition: the cover, the first pages and the first screen of thumbnails; a paid one its cover', () => {
    const pages = Array.from({ length: 24 }, (_, i) => ({
      page_number: 24 - i,
      image_url: `${origin}/media/page-${24 - i}.jpg`,
    }));
    const edition = {
      slug: 'e',
      title: 'E',
      cover_image_url: `${origin}/media/cover.jpg`,
      requires_subscription: false,
      pages,
    } as unknown as Edition;
    const pictures = editionPictures(edition);
    expect(pictures.filter((p) => p.source.endsWith('cover.jpg')).map((p) => p.width)).toEqual([
      640, 800,
    ]);
    expect(
      pictures
        .filter((p) => p.format === 'avif' && p.source.includes('page-'))
        .map((p) => p.source),
    ).toEqual([1, 1, 2, 2, 3, 3].map((n) => `${origin}/media/page-${n}.jpg`));
    expect(pictures.filter((p) => p.width === 160)).toHaveLength(8);
    expect(editionPictures({ ...edition, requires_subscription: true })).toHaveLength(2);
  });
});
