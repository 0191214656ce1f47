import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startEdge, startSite, type Mock } from './stack.ts';

// The first readers of pages nobody has opened yet (issue 38): every picture those pages link is
// answered with a picture, however many are cold at once; none is refused (503 showed as blanks).
const HOST = 'daily-planet.localhost';
let mock: Mock;
let site: Service;
let edge: Service;

beforeAll(async () => {
  mock = await startDocumentedMock();
  // One transform at a time: the most a burst can pile up on a server.
  site = await startSite({ mock, env: { IMAGE_TRANSFORMS: '1' } });
  edge = await startEdge([site.port]);
}, 120_000);

afterAll(async () => {
  await edge?.stop();
  await site?.stop();
  await mock?.close();
});

it('answers 50 different cold pictures asked at once through the edge with 50 pictures', async () => {
  const categories = (await (
    await fetch(`${mock.publishingUrl}/categories`, { headers: { 'X-Tenant': 'daily-planet' } })
  ).json()) as { data: { slug: string }[] };
  const pages = await Promise.all(
    categories.data.map(
      async ({ slug }) =>
        (await send(`http://127.0.0.1:${site.port}/categories/${slug}`, { host: HOST })).text,
    ),
  );
  // What the pages link, each address a different derived picture (sources, widths, formats).
  const addresses = [
    ...new Set(pages.join('').match(/\/_img\/u\/[\w-]+\/\d+\/[\w-]+\.(?:avif|webp|jpg)/g) ?? []),
  ];
  expect(addresses.length).toBeGreaterThanOrEqual(50);
  const replies = await Promise.all(
    addresses
      .slice(0, 50)
      .map((path) => send(`http://127.0.0.1:${edge.port}${path}`, { host: HOST })),
  );
  const statuses = replies.map((reply) => reply.status);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  expect(
    replies.every((reply) =>
      /^image\/(avif|webp|jpeg)$/.test(String(reply.headers['content-type'])),
    ),
  ).toBe(true);
}, 120_000);
