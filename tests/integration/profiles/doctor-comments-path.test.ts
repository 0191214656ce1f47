import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/lib/profiles/doctor/run.ts';
import { profileWrites } from '../../../src/lib/profiles/doctor/save.ts';
import { parseMaps } from '../../../src/lib/profiles/doctor/maps.ts';
import { profileTexts } from '../../../src/lib/profiles/schema.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// An API that spells every field as the site does but keeps a post's comments at `/comment`: the
// site posts a comment where it reads them, so the doctor proposes that path for comments.create too.
const BASE = 'https://comments.example.com/api/v1';
const post = {
  id: 1,
  title: 'Harbour reopens',
  slug: 'harbour-reopens',
  content: '<p>The quay is open again.</p>',
  published_at: '2026-11-20T09:00:00Z',
  author: { name: 'Maren Holt' },
};
const comments = [
  { id: 7, content: 'Good news.', author_name: 'Ada', created_at: '2026-11-21T10:00:00Z' },
  { id: 8, content: 'At last!', author_name: 'Bo', created_at: '2026-11-21T11:00:00Z' },
];
const fakeFetch = ((input: URL | string) => {
  const path = new URL(String(input)).pathname.replace('/api/v1', '');
  const body =
    path === '/posts'
      ? { data: [post] }
      : path === '/posts/harbour-reopens'
        ? { data: post }
        : path === '/posts/harbour-reopens/comment'
          ? { data: comments }
          : undefined;
  return Promise.resolve(body ? Response.json(body) : Response.json({}, { status: 404 }));
}) as typeof fetch;

const tenant = buildTenant({ id: 'replies', publishing: { baseUrl: BASE } });
const check = (profile?: string, texts: [string, string][] = [], maps: string[] = []) =>
  runDoctor({
    tenant: profile ? { ...tenant, publishing: { ...tenant.publishing, profile } } : tenant,
    profiles: profileTexts(texts),
    secrets: {},
    fetch: fakeFetch,
    maps: parseMaps(maps),
  });

describe('a comment list found at another path', () => {
  it('sends new comments there too, though no field needed a proposal', async () => {
    const report = await check();
    const proposals = report.proposals.publishing ?? {};
    expect(proposals['comments.list']).toEqual({ path: '/posts/{postSlug}/comment' });
    expect(proposals['comments.create']).toEqual({ path: '/posts/{postSlug}/comment' });
  });

  it('proposes nothing more once --write saved it', async () => {
    const [write] = profileWrites(await check(), tenant, new Map());
    const again = await check(write?.name, [[`${write?.name}.json`, write?.text ?? '']]);
    expect(again.proposals).toEqual({});
    expect(again.unmapped.filter((line) => line.startsWith('publishing comments.'))).toEqual([]);
  });

  it("keeps a profile's own path for new comments where the list is where the profile says", async () => {
    const profile = {
      service: 'publishing',
      operations: {
        'comments.list': { path: '/posts/{postSlug}/comment' },
        'comments.create': { path: '/posts/{postSlug}/replies' },
      },
    };
    const report = await check('own', [['own.json', JSON.stringify(profile)]]);
    expect(report.proposals).toEqual({});
  });

  it('--map settles a write the doctor does not read, and --write saves it', async () => {
    const report = await check(undefined, [], ['comments.create.path=/posts/{postSlug}/replies']);
    expect(report.proposals.publishing?.['comments.create']).toEqual({
      path: '/posts/{postSlug}/replies',
    });
    const [write] = profileWrites(report, tenant, new Map());
    expect(write?.text).toContain('"path": "/posts/{postSlug}/replies"');
  });
});
