/**
 * Several servers on one Redis (issue 12): two `npm start` processes with the same REDIS_URL, each
 * reached directly (as a load balancer would), against the mock at its documented limits.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, waitFor } from './http.ts';
import type { Service } from './processes.ts';
import { OUT_DIR, startDocumentedMock, startRedis, startSite, STATUS_TOKEN } from './stack.ts';
import type { Mock } from './stack.ts';
import { day } from '../fixtures/dates.ts';

const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as {
  password: string;
  publishing: Record<string, { subscriber: { email: string; name: string } }>;
  lodging: Record<string, { fullToken: string; propertyIds: string[] }>;
};

let mock: Mock;
let redis: Service;
let sites: Service[];
const url = (site: Service, path: string) => `http://127.0.0.1:${site.port}${path}`;

beforeAll(async () => {
  mock = await startDocumentedMock();
  redis = await startRedis();
  const redisUrl = `redis://127.0.0.1:${redis.port}`;
  sites = await Promise.all([startSite({ mock, redisUrl }), startSite({ mock, redisUrl })]);
});

afterAll(async () => {
  await Promise.all((sites ?? []).map((site) => site.stop()));
  await redis?.stop();
  await mock?.close();
});

describe('npm start', () => {
  it('answers pages and assets in brotli or gzip, as the client accepts', async () => {
    const [first] = sites as [Service];
    const script = readdirSync(join(OUT_DIR, 'client', '_astro')).find((name) =>
      name.endsWith('.js.br'),
    );
    expect(script).toBeDefined();
    const asset = `/_astro/${script!.slice(0, -3)}`;
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const page = await send(url(first, '/'), {
        host: 'daily-planet.localhost',
        headers: { 'Accept-Encoding': accept },
      });
      expect(page.headers['content-encoding']).toBe(encoding);
      expect(page.headers['vary']).toMatch(/Accept-Encoding/);
      expect(page.text).toContain('Daily Planet');
      const script = await send(url(first, asset), { headers: { 'Accept-Encoding': accept } });
      expect(script.status).toBe(200);
      expect(script.headers['content-encoding']).toBe(encoding);
      expect(script.headers['content-type']).toMatch(/javascript/);
      expect(script.headers['cache-control']).toContain('immutable');
      expect(script.raw.length).toBeLessThan(script.text.length);
    }
  });

  it('leaves compression to the proxy with COMPRESSION=false', async () => {
    const plain = await startSite({ mock, env: { COMPRESSION: 'false' } });
    try {
      const page = await send(url(plain, '/'), {
        host: 'daily-planet.localhost',
        headers: { 'Accept-Encoding': 'gzip, deflate, br' },
      });
      expect(page.status).toBe(200);
      expect(page.headers['content-encoding']).toBeUndefined();
      expect(page.text).toContain('Daily Planet');
    } finally {
      await plain.stop();
    }
  });
});

describe('a visitor signed in on one server', () => {
  it('is signed in on the other', async () => {
    const [first, second] = sites as [Service, Service];
    const host = 'daily-planet.localhost';
    const subscriber = demo.publishing['daily-planet']!.subscriber;
    const login = await send(url(first, '/login?_action=login'), {
      method: 'POST',
      host,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: `http://${host}`,
      },
      body: new URLSearchParams({
        email: subscriber.email,
        password: demo.password,
        next: '/account',
      }).toString(),
    });
    expect(login.status, login.text.slice(0, 300)).toBe(303);
    const sessionId = /astro-session=([^;]+)/.exec(login.cookies)?.[1];
    expect(sessionId).toBeDefined();
    // Kept in the shared store, with a finite lifetime (both servers also share a disk here).
    const client = new Redis(`redis://127.0.0.1:${redis.port}`);
    try {
      expect(await client.ttl(`masthead:session:${sessionId}`)).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }

    const elsewhere = await send(url(second, '/account'), {
      host,
      headers: { Cookie: login.cookies },
    });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.text).toContain(subscriber.name);
    expect(elsewhere.headers['cache-control']).toMatch(/private|no-store/);

    // The same page without the cookie is anonymous on both servers.
    for (const site of sites) {
      const anonymous = await send(url(site, '/account'), { host });
      expect(anonymous.text).not.toContain(subscriber.name);
    }
  });
});

describe('per-visitor limits', () => {
  it('count one visitor’s attempts on every server together', async () => {
    const host = 'daily-planet.localhost';
    const subscriber = demo.publishing['daily-planet']!.subscriber;
    // One visitor (its own address, passed on by the trusted proxy) with a wrong password: the
    // post is answered 303, and the page it lands on (with the session cookie) says what happened.
    const attempt = async (site: Service) => {
      const posted = await post(site);
      expect(posted.status).toBe(303);
      return send(url(site, String(posted.headers.location)), {
        host,
        headers: { Cookie: posted.cookies, 'X-Forwarded-For': '203.0.113.77' },
      });
    };
    const post = (site: Service) =>
      send(url(site, '/login?_action=login'), {
        method: 'POST',
        host,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: `http://${host}`,
          'X-Forwarded-For': '203.0.113.77',
        },
        body: new URLSearchParams({
          email: subscriber.email,
          password: 'not-the-password',
          next: '/account',
        }).toString(),
      });
    // Ten failures allowed per address: five on each server.
    for (let i = 0; i < 10; i += 1) {
      const reply = await attempt(sites[i % 2]!);
      expect(reply.text).not.toContain('Too many attempts');
    }
    for (const site of sites) expect((await attempt(site)).text).toContain('Too many attempts');
  });
});

describe('a booking submitted twice, once to each server', () => {
  const host = 'harbour-times.localhost';
  const account = Object.values(demo.lodging).find((candidate) =>
    candidate.propertyIds.includes('f288dd17-9e1e-5421-8b43-5674c8a96975'),
  )!;
  const propertyId = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
  const checkIn = day(150);
  const checkOut = day(152);

  /** Bookings of that property starting that day, as the lodging API lists them. */
  async function bookingsThatDay(): Promise<number> {
    const query = new URLSearchParams({
      property_id: propertyId,
      check_in_from: checkIn,
      check_in_to: checkIn,
    });
    const reply = await send(`${mock.lodgingUrl}/bookings?${query}`, {
      headers: { Authorization: `Bearer ${account.fullToken}`, Accept: 'application/json' },
    });
    expect(reply.status).toBe(200);
    return (JSON.parse(reply.text) as { data: unknown[] }).data.length;
  }

  // Both submits are in flight at once: creation is single-flight through a lock in Redis and the
  // idempotency key is remembered there, so the second server answers with the same booking.
  it('creates one booking', async () => {
    const [first, second] = sites as [Service, Service];
    const search = await send(
      url(
        first,
        `/api/booking/availability?${new URLSearchParams({ property: propertyId, checkIn, checkOut, adults: '2' })}`,
      ),
      { host },
    );
    expect(search.status, search.text).toBe(200);
    const offers = JSON.parse(search.text) as {
      data: { rooms: { roomTypeId: string; available: boolean }[] };
    };
    const room = offers.data.rooms.find((offer) => offer.available)!;
    const before = await bookingsThatDay();
    const body = JSON.stringify({
      idempotencyKey: `deploy-suite-${Date.now().toString(36)}`,
      propertyId,
      roomTypeId: room.roomTypeId,
      checkIn,
      checkOut,
      adults: 2,
      children: 0,
      firstName: 'Dora',
      lastName: 'Double',
      email: 'dora.double@example.com',
      phone: '',
      nationality: '',
      notes: '',
    });
    const submit = (site: Service) =>
      send(url(site, '/api/booking/bookings'), {
        method: 'POST',
        host,
        headers: { 'Content-Type': 'application/json', Origin: `http://${host}` },
        body,
      });
    // A slow lodging API, as under load: both submits are in flight at the same time.
    await send(`${mock.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ service: 'lodging', latencyMs: 300 }),
    });
    try {
      const replies = await Promise.all([submit(first), submit(second)]);
      for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    } finally {
      await send(`${mock.controlUrl}/faults`, { method: 'DELETE' });
    }
    expect(await bookingsThatDay()).toBe(before + 1);
  });
});

describe('a burst of distinct pages across both servers', () => {
  it('stays within the upstream limit together, without one 429', async () => {
    // Start both rate windows together: the mock's (reset) and the servers' shared budget (Redis).
    await send(`${mock.controlUrl}/reset`, { method: 'POST' });
    const client = new Redis(`redis://127.0.0.1:${redis.port}`);
    await client.flushdb();
    client.disconnect();

    const slugs = mock.state.publishing.sites
      .get('daily-planet')!
      .posts.filter((post) => post.status === 'published')
      .map((post) => post.slug)
      .slice(0, 80);
    expect(slugs.length).toBe(80);
    const statuses: number[] = [];
    for (let start = 0; start < slugs.length; start += 8) {
      const batch = slugs
        .slice(start, start + 8)
        .map((slug, index) =>
          send(url(sites[index % 2]!, `/posts/${slug}`), { host: 'daily-planet.localhost' }),
        );
      statuses.push(...(await Promise.all(batch)).map((reply) => reply.status));
    }

    const stats = JSON.parse((await send(`${mock.controlUrl}/stats`)).text) as {
      publishing: { total: number };
    };
    // Both servers fetched (shared budget spent), together no more than the documented 60/min.
    expect(stats.publishing.total).toBeGreaterThan(30);
    expect(stats.publishing.total).toBeLessThanOrEqual(60);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(10);
    for (const site of sites) {
      const status = JSON.parse(
        (
          await send(url(site, '/_status'), {
            headers: { Authorization: `Bearer ${STATUS_TOKEN}` },
          })
        ).text,
      ) as { totals: { rateLimited429: number; upstreamCalls: number } };
      expect(status.totals.rateLimited429).toBe(0);
      expect(status.totals.upstreamCalls).toBeGreaterThan(0);
    }
  });
});

describe('/_health', () => {
  it('answers ok while Redis answers; degraded but 200 with Redis stopped, as pages still render; never cached', async () => {
    const [first] = sites as [Service];
    const healthy = await send(url(first, '/_health'));
    expect(healthy.status).toBe(200);
    expect(JSON.parse(healthy.text)).toMatchObject({ status: 'ok', sharedStore: 'ok' });
    expect(healthy.headers['cache-control']).toBe('no-store');
    expect(healthy.text).not.toMatch(/daily-planet|harbour-times|alpine-post/);

    await redis.stop();
    try {
      const degraded = await send(url(first, '/_health'));
      expect(degraded.status).toBe(200);
      expect(JSON.parse(degraded.text)).toMatchObject({
        status: 'degraded',
        sharedStore: 'unavailable',
      });
      expect(degraded.headers['cache-control']).toBe('no-store');
      // What a load balancer keeping the server in rotation relies on: a page never rendered yet.
      const page = await send(url(first, '/page/2'), { host: 'harbour-times.localhost' });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Harbour Times');
    } finally {
      await redis.start();
    }
    await waitFor('health back to ok', async () =>
      (await send(url(first, '/_health'))).text.includes('"status":"ok"') ? true : undefined,
    );
  });
});
