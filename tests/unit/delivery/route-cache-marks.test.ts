import { expect, it } from 'vitest';
import { createRouteCache } from '../../../src/lib/delivery/route-cache.ts';

it('a stored render keeps Astro’s marks (its cookies), never a fetch implementation’s own state', async () => {
  const cache = createRouteCache();
  const cookies = Symbol.for('astro.cookies');
  // As undici keeps a body's state on the Response under its own symbol: copied onto the answer,
  // it said the answer's body was already read (the render's was, to store it).
  const internal = Symbol('state');
  const rendered = new Response('<p>page</p>', {
    headers: { 'CDN-Cache-Control': 'max-age=60', 'Content-Type': 'text/html' },
  });
  // A jar that sets nothing (one that sets a cookie keeps the page out of the cache).
  const jar = { headers: () => [][Symbol.iterator]() };
  Reflect.set(rendered, cookies, jar);
  Reflect.set(rendered, internal, 'read');
  const request = new Request('http://daily-planet.localhost/posts/x');
  const logger = { info() {}, warn() {}, error() {} };
  const answer = await cache.onRequest({ request, url: new URL(request.url), logger }, () =>
    Promise.resolve(rendered),
  );
  expect(answer.headers.get('X-Astro-Cache')).toBe('MISS');
  expect(Reflect.get(answer, cookies)).toBe(jar);
  expect(Reflect.get(answer, internal)).toBeUndefined();
  expect(await answer.text()).toBe('<p>page</p>');
});
