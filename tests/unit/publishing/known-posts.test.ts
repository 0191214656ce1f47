import { afterEach, describe, expect, it, vi } from 'vitest';
import { knownPosts } from '../../../src/lib/publishing/known-posts.ts';
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
    knownPosts(upstream, 'daily-planet').remember([entry('harbour', 'Old headline')]);
    knownPosts(upstream, 'daily-planet').remember([entry('harbour', 'New headline')]);
    expect(knownPosts(upstream, 'daily-planet').get('harbour')?.title).toBe('New headline');
    expect(knownPosts(upstream, 'harbour-times').get('harbour')).toBeUndefined();
    expect(knownPosts({}, 'daily-planet').get('harbour')).toBeUndefined();
  });

  it('says whether any list of the tenant was read (a cold start has none)', () => {
    const upstream = {};
    expect(knownPosts(upstream, 'daily-planet').any()).toBe(false);
    knownPosts(upstream, 'daily-planet').remember([entry('first')]);
    expect(knownPosts(upstream, 'daily-planet').any()).toBe(true);
    expect(knownPosts(upstream, 'harbour-times').any()).toBe(false);
  });

  it('forgets a post the upstream says is gone', () => {
    const upstream = {};
    knownPosts(upstream, 'daily-planet').remember([entry('gone')]);
    knownPosts(upstream, 'daily-planet').forget('gone');
    expect(knownPosts(upstream, 'daily-planet').get('gone')).toBeUndefined();
  });

  it('lists only the posts a list showed lately', () => {
    vi.useFakeTimers();
    const upstream = {};
    knownPosts(upstream, 'daily-planet').remember([entry('earlier')]);
    vi.advanceTimersByTime(11 * 60_000);
    knownPosts(upstream, 'daily-planet').remember([entry('lately')]);
    expect(
      knownPosts(upstream, 'daily-planet')
        .listed(10 * 60_000)
        .map((post) => post.slug),
    ).toEqual(['lately']);
    // Still a stand-in for its own page, however long ago it was listed.
    expect(knownPosts(upstream, 'daily-planet').get('earlier')?.slug).toBe('earlier');
  });

  it('counts a list read again from the cache (the same entries) as shown lately', () => {
    vi.useFakeTimers();
    const upstream = {};
    const cached = [entry('cached')];
    knownPosts(upstream, 'daily-planet').remember(cached);
    vi.advanceTimersByTime(11 * 60_000);
    knownPosts(upstream, 'daily-planet').remember(cached);
    expect(knownPosts(upstream, 'daily-planet').listed(10 * 60_000)).toEqual(cached);
  });
});
