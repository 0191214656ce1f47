import { mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postSchema, type Post } from '../../../src/lib/publishing/schema.ts';
import {
  loadSnapshot,
  pageOf,
  parseReads,
  sameAnswers,
  snapshotClient,
  type Snapshot,
} from '../../../src/lib/static/snapshot.ts';
import { NotFoundError } from '../../../src/lib/upstream/errors.ts';

const post = (n: number, fields: Record<string, unknown> = {}): Post =>
  postSchema.parse({
    id: n,
    title: `Post ${n}`,
    slug: `post-${n}`,
    content: `<p>${n}</p>`,
    ...fields,
  });

const sport = { id: 1, name: 'Sport', slug: 'sport' };
const ferries = { id: 7, name: 'Ferries', slug: 'ferries' };
const snapshot: Snapshot = {
  tenant: 'harbour-times',
  fetchedAt: '2026-11-22T12:00:00Z',
  posts: [
    post(5, { category: sport, is_featured: true, tags: [ferries] }),
    post(4),
    post(3, { category: sport }),
    post(2, { tags: [ferries] }),
    post(1, { category: sport }),
  ],
  categories: [sport],
  tags: [ferries],
  plans: [],
  editions: [],
  streams: [],
  comments: {
    'post-3': [{ id: 1, content: 'Hi', author_name: 'A', created_at: null, replies: [] }],
  },
};
const client = snapshotClient(snapshot);

describe('pages render from a snapshot exactly as from the API', () => {
  it('pages like the API: current, last, total', () => {
    expect(pageOf([1, 2, 3, 4, 5], { page: 2, perPage: 2 })).toEqual({
      items: [3, 4],
      page: { current: 2, last: 3, perPage: 2, total: 5 },
    });
    expect(pageOf([], { perPage: 10 }).page).toEqual({
      current: 1,
      last: 1,
      perPage: 10,
      total: 0,
    });
  });

  it('filters lists by category, tag and featured, newest first', async () => {
    const titles = async (params: Parameters<typeof client.listPosts>[0]) =>
      (await client.listPosts(params)).items.map((p) => p.id);
    expect(await titles({ category: 'sport', perPage: 10 })).toEqual([5, 3, 1]);
    expect(await titles({ tag: 'Ferries', perPage: 10 })).toEqual([5, 2]);
    expect(await titles({ featured: true, perPage: 3 })).toEqual([5]);
    expect(await titles({ page: 2, perPage: 2 })).toEqual([3, 2]);
  });

  it('answers category and tag pages, and 404 for what it does not hold', async () => {
    const category = await client.getCategory('sport', { page: 2, perPage: 2 });
    expect(category.posts.items.map((p) => p.id)).toEqual([1]);
    expect(category.posts.page.last).toBe(2);
    expect((await client.getTag('ferries')).posts.page.total).toBe(2);
    await expect(client.getPost('nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getCategory('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('gives the whole approved thread on one page', async () => {
    const thread = await client.listComments('post-3', { page: 1, perPage: 1 });
    expect(thread.items).toHaveLength(1);
    expect(thread.page.last).toBe(1);
    expect((await client.listComments('post-4')).items).toEqual([]);
  });

  it('refuses personal reads and writes: a static copy never acts for a user', async () => {
    await expect(client.me()).rejects.toThrow(/live server/);
    await expect(client.login('a@b.test', 'x')).rejects.toThrow(/live server/);
    expect(client.withToken('secret')).toBe(client);
  });
});

describe('loadSnapshot', () => {
  it('reads the file once, and again when the build has replaced it with a newer one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-snapshot-'));
    try {
      const file = join(dir, 'snapshot.json');
      writeFileSync(file, JSON.stringify({ ...snapshot, posts: snapshot.posts.slice(0, 2) }));
      const first = loadSnapshot(file);
      expect(first.posts).toHaveLength(2);
      expect(loadSnapshot(file)).toBe(first);
      // The build writes a partial snapshot under another name and renames it over the last one.
      writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
      utimesSync(`${file}.tmp`, new Date(), new Date(Date.now() + 5000));
      renameSync(`${file}.tmp`, file);
      expect(loadSnapshot(file).posts).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a page rendered early is kept when the whole snapshot answers its reads alike', () => {
  /** The reads a page made of `partial` (a build's early rendering), as the build reads them back. */
  async function readsOf(partial: Snapshot, page: (c: typeof client) => Promise<unknown>) {
    const dir = mkdtempSync(join(tmpdir(), 'masthead-reads-'));
    try {
      const readsLog = join(dir, 'reads');
      writeFileSync(readsLog, '');
      const noted = snapshotClient({ ...partial, readsLog });
      await page(noted);
      // The answers' digests are noted once they have settled.
      await new Promise((resolve) => setTimeout(resolve, 10));
      return parseReads(readFileSync(readsLog, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // Post 3's page: itself, its thread, its section's newest posts (the related ones), through a
  // token too (a component may ask for one); the build had not yet read post 1 and post 4.
  const postPage = async (c: typeof client) => {
    await c.getPost('post-3');
    await c.listComments('post-3');
    await c.withToken(undefined).listPosts({ category: 'sport', perPage: 5 });
    await c.getPost('post-6').catch(() => undefined);
  };
  const partial = { ...snapshot, posts: snapshot.posts.filter((p) => p.id !== 1 && p.id !== 4) };

  it('notes each read with its answer, and the same snapshot answers them alike', async () => {
    const reads = await readsOf(partial, postPage);
    expect(reads.map((read) => read.op)).toEqual([
      'getPost',
      'listComments',
      'listPosts',
      'getPost',
    ]);
    expect(reads[2]?.args).toEqual([{ category: 'sport', perPage: 5 }]);
    expect(await sameAnswers(partial, reads)).toBe(true);
  });

  it('is not kept when a post that arrived later changes a list it showed', async () => {
    const reads = await readsOf(partial, postPage);
    // Post 1 is in the section: the related posts differ.
    expect(await sameAnswers(snapshot, reads)).toBe(false);
  });

  it('is kept when what arrived later is nothing it read', async () => {
    const reads = await readsOf(partial, postPage);
    const withPost4 = { ...partial, posts: [...partial.posts, post(4)] };
    expect(await sameAnswers(withPost4, reads)).toBe(true);
    // A post it found missing that has arrived since is a change too.
    expect(await sameAnswers({ ...withPost4, posts: [...withPost4.posts, post(6)] }, reads)).toBe(
      false,
    );
  });

  it('is kept when its related posts had arrived, the rest of their section not yet: lists count what the lists named', async () => {
    // While fetching, every listed post is known (its detail or, not yet arrived, the list's summary).
    const { content: _, ...summaryOf1 } = post(1, { category: sport });
    const related = (c: typeof client) => c.listPosts({ category: 'sport', perPage: 2 });
    const early = { ...partial, listed: [...partial.posts, summaryOf1] };
    expect(await sameAnswers(snapshot, await readsOf(early, related))).toBe(true);
    // Counted from the details alone, the total (2 of 3) differs from the whole snapshot's.
    expect(await sameAnswers(snapshot, await readsOf(partial, related))).toBe(false);
    // A listed post not yet arrived is answered from its summary: a differing answer, rendered again.
    const wider = (c: typeof client) => c.listPosts({ category: 'sport', perPage: 3 });
    expect(await sameAnswers(snapshot, await readsOf(early, wider))).toBe(false);
  });
});
