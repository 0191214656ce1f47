import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { demoAccounts } from '../../mock/seed/accounts.ts';
import { seedLodging } from '../../mock/seed/lodging.ts';
import { seedPublishing } from '../../mock/seed/publishing.ts';
import { http } from './helpers.ts';

const now = new Date('2026-11-22T00:00:00Z');
const snapshot = (seed: number) =>
  JSON.stringify({
    publishing: [...seedPublishing(seed, now, 120).sites.values()],
    lodging: { ...seedLodging(seed, now), tokens: [...seedLodging(seed, now).tokens.keys()] },
  });

describe('seed', () => {
  it('is deterministic: the same seed gives the same data, another seed other data', () => {
    expect(snapshot(42)).toBe(snapshot(42));
    expect(snapshot(7)).not.toBe(snapshot(42));
  });

  it('gives equal API answers from two mocks with the same seed', async () => {
    const [a, b] = await Promise.all(
      [1, 2].map(() => startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0, seed: 9 })),
    );
    try {
      const strip = (s: string) => s.replaceAll(/127\.0\.0\.1:\d+/g, 'origin');
      for (const path of [
        '/posts?per_page=50',
        '/posts/welcome-to-our-new-website',
        '/epaper',
        '/streams',
      ]) {
        const [x, y] = await Promise.all(
          [a, b].map((m) => http(`${m?.publishingUrl}${path}`, { tenant: 'alpine-post' })),
        );
        expect(strip(x?.text ?? '')).toBe(strip(y?.text ?? 'different'));
      }
    } finally {
      await Promise.all([a?.close(), b?.close()]);
    }
  });

  it.each(['daily-planet', 'harbour-times', 'alpine-post'])(
    'seeds %s with everything the site needs',
    (slug) => {
      const site = seedPublishing(42, now, 120).sites.get(slug);
      if (!site) throw new Error(slug);
      expect(site.posts.length).toBeGreaterThanOrEqual(120);
      expect(site.posts.filter((p) => p.status === 'draft').length).toBeGreaterThan(5);
      expect(site.posts.filter((p) => p.isFeatured).length).toBeGreaterThan(3);
      expect(
        site.posts.some((p) => p.publishedAt !== null && p.publishedAt > now.toISOString()),
      ).toBe(false);
      expect(site.categories.map((c) => c.slug)).toEqual(expect.arrayContaining(['news', 'sport']));
      expect(site.plans.length).toBeGreaterThanOrEqual(3);
      expect(site.plans.filter((p) => !p.active)).toHaveLength(1);
      expect(site.editions.length).toBeGreaterThanOrEqual(8);
      expect(new Set(site.streams.map((s) => s.status))).toEqual(
        new Set(['live', 'scheduled', 'ended']),
      );
      expect(site.comments.some((c) => c.status === 'pending')).toBe(true);
      expect(site.comments.some((c) => c.parentId !== null)).toBe(true);
      const html = site.posts.map((p) => p.content).join('\n');
      for (const tag of [
        '<h2>',
        '<ul>',
        '<ol>',
        '<figure>',
        '<table>',
        '<blockquote>',
        '<code>',
        '<script>',
        'onerror=',
        'javascript:',
        '<iframe',
      ]) {
        expect(html).toContain(tag);
      }
    },
  );

  it('seeds two lodging accounts with properties, guests and bookings in every status', () => {
    const data = seedLodging(42, now);
    const accounts = demoAccounts().lodging;
    expect(
      data.properties.filter((p) => accounts['harbour-hotels']?.propertyIds.includes(p.id)),
    ).toHaveLength(2);
    expect(
      data.properties.filter((p) => accounts['alpine-lodges']?.propertyIds.includes(p.id)),
    ).toHaveLength(1);
    expect(data.guests.length).toBeGreaterThanOrEqual(40);
    const statuses = new Set(data.bookings.map((b) => b.status));
    for (const s of ['pending', 'confirmed', 'cancelled', 'checked_out'])
      expect(statuses).toContain(s);
  });

  it('keeps mock/demo-accounts.json equal to the seed module', () => {
    const file: unknown = JSON.parse(
      readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
    );
    expect(file).toEqual(demoAccounts());
  });

  it('keeps demo identities independent of the seed', () => {
    const a = seedLodging(1, now);
    const b = seedLodging(2, now);
    expect(a.properties.map((p) => p.id)).toEqual(b.properties.map((p) => p.id));
    expect([...a.tokens.keys()]).toEqual([...b.tokens.keys()]);
  });

  it('scales posts per tenant with MOCK_POSTS', async () => {
    process.env['MOCK_POSTS'] = '2000';
    try {
      const m = await startMock({
        publishingPort: 0,
        lodgingPort: 0,
        controlPort: 0,
        limits: { publicPerMinute: 0 },
      });
      try {
        expect(m.state.postsPerTenant).toBe(2000);
        for (const site of m.state.publishing.sites.values()) expect(site.posts).toHaveLength(2000);
        const res = await http(`${m.publishingUrl}/posts?per_page=1`, { tenant: 'harbour-times' });
        const total = (res.body as { meta: { total: number } }).meta.total;
        const drafts =
          m.state.publishing.sites.get('harbour-times')?.posts.filter((p) => p.status === 'draft')
            .length ?? 0;
        expect(total).toBe(2000 - drafts);
      } finally {
        await m.close();
      }
    } finally {
      delete process.env['MOCK_POSTS'];
    }
  });
});
