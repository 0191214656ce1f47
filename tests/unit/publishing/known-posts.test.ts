import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  anyListed,
  forgetPost,
  knownPost,
  listedPosts,
  rememberPosts,
} from '../../../src/lib/publishing/known-posts.ts';
import type { PostSummary } from '../../../src/lib/publishing/schema.ts';

const entry = (slug: string, title = slug): PostSummary => ({
  id: slug.length,
  slug,
  title,
  excerpt: `About ${slug}`,
  tags: [],
  published_at: null,
  updated_at: null,
  cover_image_url: undefined,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('posts lists have shown', () => {
  it('gives the last list entry of a post, per upstream and tenant', () => {
    const upstream = {};
    rememberPosts(upstream, 'daily-planet', [entry('harbour', 'Old headline')]);
    rememberPosts(upstream, 'daily-planet', [entry('harbour', 'New headline')]);
    expect(knownPost(upstream, 'daily-planet', 'harbour')?.title).toBe('New headline');
    expect(knownPost(upstream, 'harbour-times', 'harbour')).toBeUndefined();
    expect(knownPost({}, 'daily-planet', 'harbour')).toBeUndefined();
  });

  it('says whether any list of the tenant was read (a cold start has none)', () => {
    const upstream = {};
    expect(anyListed(upstream, 'daily-planet')).toBe(false);
    rememberPosts(upstream, 'daily-planet', [entry('first')]);
    expect(anyListed(upstream, 'daily-planet')).toBe(true);
    expect(anyListed(upstream, 'harbour-times')).toBe(false);
  });

  it('forgets a post the upstream says is gone', () => {
    const upstream = {};
    rememberPosts(upstream, 'daily-planet', [entry('gone')]);
    forgetPost(upstream, 'daily-planet', 'gone');
    expect(knownPost(upstream, 'daily-planet', 'gone')).toBeUndefined();
  });

  it('lists only the posts a list showed lately', () => {
    vi.useFakeTimers();
    const upstream = {};
    rememberPosts(upstream, 'daily-planet', [entry('earlier')]);
    vi.advanceTimersByTime(11 * 60_000);
    rememberPosts(upstream, 'daily-planet', [entry('lately')]);
    expect(listedPosts(upstream, 'daily-planet', 10 * 60_000).map((post) => post.slug)).toEqual([
      'lately',
    ]);
    // Still a stand-in for its own page, however long ago it was listed.
    expect(knownPost(upstream, 'daily-planet', 'earlier')?.slug).toBe('earlier');
  });

  it('counts a list read again from the cache (the same entries) as shown lately', () => {
    vi.useFakeTimers();
    const upstream = {};
    const cached = [entry('cached')];
    rememberPosts(upstream, 'daily-planet', cached);
    vi.advanceTimersByTime(11 * 60_000);
    rememberPosts(upstream, 'daily-planet', cached);
    expect(listedPosts(upstream, 'daily-planet', 10 * 60_000)).toEqual(cached);
  });
});
