import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldPages } from './cold-pages.ts';
import { editorOf } from './editor.ts';
import { send } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startSite, type Mock } from './stack.ts';

// Page parts kept rendered (src/lib/render/fragments.ts): a page made from kept parts is the page a
// full render makes, and a story read again upstream is rendered again, never shown as it was.
const SECRET = 'rendered-parts-purge-secret-0123456789';
let mock: Mock;
let kept: Service;
let none: Service;
let paths: Record<string, string>;

beforeAll(async () => {
  mock = await startDocumentedMock();
  [kept, none] = await Promise.all([
    startSite({ mock, env: { PURGE_SECRETS: `daily-planet=${SECRET}` } }),
    startSite({ mock, env: { RENDER_CACHE_MAX_BYTES: '0' } }),
  ]);
  paths = Object.fromEntries((await coldPages(mock)).map((page) => [page.type, page.path]));
}, 120_000);

afterAll(async () => {
  await Promise.all([kept?.stop(), none?.stop()]);
  await mock?.close();
});

// The tenant's two hosts in turn: each keeps its own copy in the route cache, so a page asked on the
// other one than last time renders (a wildcard's subdomains share one copy).
const HOSTS = ['daily-planet.localhost', 'dailyplanet.example.com'] as const;
let hosts = 0;
const nextHost = () => (++hosts % 2 ? HOSTS[1] : HOSTS[0]);
const render = async (site: Service, path: string, host: string = nextHost()) =>
  send(`http://127.0.0.1:${site.port}${path}`, { host });

async function partsCount(site: Service, result: 'kept' | 'rendered'): Promise<number> {
  const metrics = await send(`http://127.0.0.1:${site.port}/_metrics`);
  const line = metrics.text
    .split('\n')
    .find((row) =>
      row.startsWith(`masthead_rendered_parts_total{tenant="daily-planet",result="${result}"}`),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}
const keptParts = (site: Service) => partsCount(site, 'kept');

const purge = (body: object) =>
  send(`http://127.0.0.1:${kept.port}/_purge`, {
    method: 'POST',
    host: 'daily-planet.localhost',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SECRET}` },
    body: JSON.stringify(body),
  });

describe('page parts kept rendered', () => {
  it.each(['home', 'post', 'category', 'tag'])(
    'a %s page made again from kept parts is the page a full render makes',
    async (type) => {
      const path = paths[type]!;
      await render(kept, path);
      const before = await keptParts(kept);
      const host = nextHost();
      const again = await render(kept, path, host);
      expect(await keptParts(kept)).toBeGreaterThan(before);
      const full = await render(none, path, host);
      expect(again.status).toBe(200);
      expect(again.text).toBe(full.text);
      expect(await keptParts(none)).toBe(0);
    },
  );

  it.each(['home', 'post'])(
    'a %s page read again upstream after a purge, with nothing changed there, renders no part again',
    async (type) => {
      const path = paths[type]!;
      const slug = paths.post!.split('/').at(-1)!;
      const host = HOSTS[0];
      const first = await render(kept, path, host);
      // Every post list, the post and the category and tag reads are out of date: read again.
      expect((await purge({ slug })).status).toBe(202);
      const [keptBefore, renderedBefore] = [
        await keptParts(kept),
        await partsCount(kept, 'rendered'),
      ];
      // Purged: this host's copy is gone too, so the page renders.
      const again = await render(kept, path, host);
      expect(again.text).toBe(first.text);
      expect(await partsCount(kept, 'rendered')).toBe(renderedBefore);
      expect(await keptParts(kept)).toBeGreaterThan(keptBefore);
    },
  );

  it('a story edited upstream shows its new headline once it is read again', async () => {
    const path = paths.post!;
    const slug = path.split('/').at(-1)!;
    const story = (await (
      await fetch(`${mock.publishingUrl}/posts/${slug}`, {
        headers: { 'x-tenant': 'daily-planet' },
      })
    ).json()) as { data: { id: number; title: string } };
    expect((await render(kept, path)).text).toContain(story.data.title);
    const editor = await editorOf(mock, 'daily-planet');
    const headline = `${story.data.title} (updated)`;
    await editor.retitle(story.data.id, headline);
    expect((await purge({ slug })).status).toBe(202);
    const page = await render(kept, path);
    const shown = /<h1[^>]*>([^<]*)<\/h1>/.exec(page.text)?.[1];
    expect(shown).toBe(headline);
  });
});
