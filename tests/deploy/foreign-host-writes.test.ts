/**
 * A write on a host that is not the tenant's is refused before it runs (issue 33): a tenant picked
 * by its path prefix or `?tenant=` on a foreign name (a forged `Host` through the edge, a forged
 * `X-Forwarded-Host` to a server behind a trusted proxy, a DNS name pointed at the server) answers
 * 421 to a booking, "find my booking", comment or sign-in post, and the lodging API sees no booking.
 * The same posts on this machine's names (development, these suites) and on the tenant's own hosts
 * go on.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { day } from '../fixtures/dates.ts';
import { send, type Reply } from './http.ts';
import type { Service } from './processes.ts';
import { startDocumentedMock, startEdge, startSite, type Mock } from './stack.ts';

const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as {
  password: string;
  publishing: Record<string, { subscriber: { email: string } }>;
  lodging: Record<string, { fullToken: string; propertyIds: string[] }>;
};

const EVIL = 'evil.example';
const PROPERTY = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const TOKEN = Object.values(demo.lodging).find((a) => a.propertyIds.includes(PROPERTY))!.fullToken;

let mock: Mock;
let site: Service;
let edge: Service & { dir: string };

beforeAll(async () => {
  mock = await startDocumentedMock();
  site = await startSite({ mock });
  edge = await startEdge([site.port]);
});

afterAll(async () => {
  await edge?.stop();
  await site?.stop();
  await mock?.close();
});

type Post = (path: string, body: string, type: string) => Promise<Reply>;

/** Posts with a matching `Origin`, as a page on the foreign name would send them. */
const ways: [string, () => Post][] = [
  [
    'through the edge, Host: evil.example',
    () => (path, body, type) =>
      send(`http://127.0.0.1:${edge.port}${path}`, {
        method: 'POST',
        host: EVIL,
        body,
        headers: { origin: `http://${EVIL}`, 'content-type': type },
      }),
  ],
  [
    'directly, X-Forwarded-Host: evil.example',
    () => (path, body, type) =>
      send(`http://127.0.0.1:${site.port}${path}`, {
        method: 'POST',
        body,
        headers: {
          origin: `https://${EVIL}`,
          'x-forwarded-host': EVIL,
          'x-forwarded-proto': 'https',
          'content-type': type,
        },
      }),
  ],
];

/** Bookings of the property starting on `checkIn`, as the lodging API lists them. */
async function bookings(checkIn: string): Promise<number> {
  const query = new URLSearchParams({
    property_id: PROPERTY,
    check_in_from: checkIn,
    check_in_to: checkIn,
  });
  const reply = await send(`${mock.lodgingUrl}/bookings?${query}`, {
    headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' },
  });
  return (JSON.parse(reply.text) as { data: unknown[] }).data.length;
}

const FORM = 'application/x-www-form-urlencoded';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe.each(ways)('posts %s', (_way, poster) => {
  it('a booking is refused with 421 and never reaches the lodging API', async () => {
    const checkIn = day(600 + Math.floor(Math.random() * 100));
    const before = await bookings(checkIn);
    // A bookable room: the same post on the site's own address would book it.
    const properties = await send(
      `http://127.0.0.1:${site.port}/harbour-times/api/booking/properties`,
    );
    const place = (
      JSON.parse(properties.text) as { data: { id: string; roomTypes: { id: string }[] }[] }
    ).data.find((property) => property.id === PROPERTY)!;
    const reply = await poster()(
      '/harbour-times/api/booking/bookings',
      JSON.stringify({
        idempotencyKey: `foreignhost${Date.now()}00000`,
        propertyId: PROPERTY,
        roomTypeId: place.roomTypes[0]!.id,
        checkIn,
        checkOut: day(702),
        adults: 1,
        children: 0,
        firstName: 'Eve',
        lastName: 'Il',
        email: 'eve@example.com',
        phone: '',
        nationality: '',
        notes: '',
      }),
      'application/json',
    );
    expect(reply.status).toBe(421);
    expect(JSON.parse(reply.text)).toMatchObject({ ok: false, error: { code: 'wrong_host' } });
    expect(await bookings(checkIn)).toBe(before);
  });

  it.each([
    [
      '"find my booking"',
      '/harbour-times/stay/manage?_action=findStay',
      form({ email: 'guest@example.com', reference: 'BK-ABCDEF' }),
    ],
    [
      'a comment',
      '/daily-planet/posts/welcome-to-our-new-website?_action=postComment',
      form({ post: 'welcome-to-our-new-website', content: 'Hello', key: 'a'.repeat(32) }),
    ],
    [
      'a sign-in',
      '/daily-planet/login?_action=login',
      form({ email: demo.publishing['daily-planet']!.subscriber.email, password: demo.password }),
    ],
    [
      'a sign-in by ?tenant=',
      '/login?_action=login&tenant=daily-planet',
      form({ email: demo.publishing['daily-planet']!.subscriber.email, password: demo.password }),
    ],
  ])(
    '%s is refused with 421 and the tenant’s page, nothing signed in',
    async (_what, path, body) => {
      const reply = await poster()(path, body, FORM);
      expect(reply.status).toBe(421);
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.text).toContain(`does not take posts sent to ${EVIL}`);
      // The way on is the tenant's own address, never the host the post came to.
      expect(reply.text).toMatch(
        /<a class="button"[^>]* href="(?:https:\/\/[a-z-]+\.example\.com|http:\/\/[a-z-]+\.localhost)\/"/,
      );
      expect(reply.text).not.toMatch(new RegExp(`href="https?://${EVIL}`));
      expect(reply.cookies).not.toContain('astro-session');
    },
  );
});

describe('the same posts where they belong go on', () => {
  const login = (url: string, host: string) =>
    send(url, {
      method: 'POST',
      host,
      body: form({
        email: demo.publishing['daily-planet']!.subscriber.email,
        password: demo.password,
        next: '/account',
      }),
      headers: { origin: `http://${host}`, 'content-type': FORM },
    });

  it.each([
    // Development and these suites: this machine's address, the tenant by path prefix.
    [
      'loopback by path prefix',
      () => `/daily-planet/login?_action=login`,
      () => `127.0.0.1:${edge.port}`,
    ],
    [
      'a localhost name by ?tenant=',
      () => `/login?_action=login&tenant=daily-planet`,
      () => `localhost:${edge.port}`,
    ],
    // The tenant's own name.
    [
      'the tenant’s host',
      () => `/login?_action=login`,
      () => `daily-planet.localhost:${edge.port}`,
    ],
  ])('through the edge on %s', async (_where, path, host) => {
    const reply = await login(`http://127.0.0.1:${edge.port}${path()}`, host());
    expect(reply.status).toBe(303);
    expect(reply.cookies).toContain('astro-session');
  });
});
