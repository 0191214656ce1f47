/**
 * A booking whose create call timed out while the lodging API stored it later (it was still working
 * on the request when the site stopped waiting). The contract has no idempotency key, so the site
 * looks the booking up (its key's mark, under the guest, for the nights: `GET /bookings`); a retry
 * made before the late store lands must not book it a second time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import { isOutcomeUnknown, SETTLE_SECONDS } from '../../../src/lib/booking/service/create.ts';
import { bookingService } from '../../../src/lib/booking/service/service.ts';
import { buildTenant } from '../../fixtures/tenant.ts';
import { english } from '../../fixtures/english.ts';
import { demo, freshUpstream } from '../harness.ts';
import { bookingsIn, day, HARBOUR_VIEW, request, startDialect, type Mock } from './fixture.ts';

let mock: Mock;
let proxy: Server;
let proxyUrl: string;
/**
 * What the proxy does with the next `POST /bookings`: forward it late, or never; answer 500 without
 * forwarding it (the API failed before storing), or after it was stored; or a gateway's 504.
 */
let createCall: 'late' | 'lost' | '500' | 'stored500' | '504' | 'normal' = 'normal';
/** While set, every `GET /bookings` (the site's look-up) is answered 500. */
let listsDown = false;
/** The late creates, stored by the lodging API once forwarded. */
let landed: Promise<unknown>[] = [];

/** Forwards every call to the mock at once, except a create held as `createCall` says. */
async function forward(method: string, path: string, headers: Headers, body: string) {
  const target = `${mock.lodgingUrl}${path.replace(/^\/api\/v1/, '')}`;
  return fetch(target, { method, headers, ...(body ? { body } : {}) });
}

beforeAll(async () => {
  mock = await startDialect('default');
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const headers = new Headers();
      for (const name of ['authorization', 'accept', 'content-type'])
        if (req.headers[name]) headers.set(name, String(req.headers[name]));
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      if (listsDown && method === 'GET' && path.startsWith('/api/v1/bookings')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ message: 'Server Error' }));
      }
      if (method === 'POST' && path.startsWith('/api/v1/bookings') && createCall !== 'normal') {
        // The site gives up waiting (its timeout); the API stores it a moment later, or never.
        const call = createCall;
        createCall = 'normal';
        const answer = (status: number) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'Server Error' }));
        };
        if (call === '500' || call === '504') return answer(Number(call));
        if (call === 'stored500') {
          void forward(method, path, headers, body).then(() => answer(500));
          return;
        }
        if (call === 'late') {
          const late = new Promise((resolve) => setTimeout(resolve, 2000)).then(() =>
            forward(method, path, headers, body),
          );
          landed.push(late);
        }
        return;
      }
      void forward(method, path, headers, body).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await mock.close();
});

function serviceAt(clock: { now: number }) {
  const tenant = buildTenant({
    id: 'harbour-times',
    features: { booking: true },
    lodging: {
      baseUrl: proxyUrl,
      tokenEnv: 'TEST_LODGING_TOKEN',
      propertyIds: [HARBOUR_VIEW],
      maxNights: 21,
    },
  });
  return bookingService(tenant, {
    credentials: () => ({ token: demo.lodging['harbour-hotels']!.fullToken }),
    upstream: freshUpstream({ http: { timeoutMs: 1500 } }).up,
    now: () => new Date(clock.now),
  });
}

const failureOf = async (attempt: Promise<unknown>) => {
  const error = await attempt.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BookingFailure);
  return error as BookingFailure;
};

describe('a create whose answer was lost', () => {
  it('is told the outcome is unknown, and a retry before the late store books nothing twice', async () => {
    const clock = { now: Date.now() };
    const service = serviceAt(clock);
    const input = request({ checkIn: day(230), checkOut: day(232) });
    landed = [];
    createCall = 'late';
    const lost = await failureOf(service.book(input));
    expect(lost.status).toBe(503);
    expect(english(lost.message)).toMatch(/did not confirm this booking in time/);
    expect(english(lost.message)).toMatch(/Nothing is booked twice/);
    // The page links to finding it (`maybeBooked`), as it does for the same stay booked.
    expect(isOutcomeUnknown(lost)).toBe(true);

    // "Try again" at once: the booking is not listed yet, so it is not made again either.
    const early = await failureOf(service.book(input));
    expect(english(early.message)).toMatch(/may have been made/);
    expect(early.error.retryAfter).toBeGreaterThan(0);

    // The lodging API stores the first create; the next "Try again" finds it.
    await Promise.all(landed);
    const found = await service.book(input);
    const held = bookingsIn(mock, input.email, input.checkIn, input.checkOut);
    expect(held).toHaveLength(1);
    expect(found.reference).toBe(held[0]!.reference);
  });

  it('another key for the stay meanwhile (an edit, another tab) is told it may have been booked, and books nothing', async () => {
    const service = serviceAt({ now: Date.now() });
    const input = request({ checkIn: day(240), checkOut: day(242) });
    landed = [];
    createCall = 'late';
    await failureOf(service.book(input));
    const edited = {
      ...input,
      idempotencyKey: `${input.idempotencyKey}x`,
      phone: '+44 20 7946 0000',
    };
    const refused = await failureOf(service.book(edited));
    expect(refused.error.code).toBe('same_stay');
    expect(english(refused.message)).toMatch(/may have been booked moments ago/);
    await Promise.all(landed);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
  });

  it('books once the lost create has settled and is still not there', async () => {
    const clock = { now: Date.now() };
    const service = serviceAt(clock);
    const input = request({ checkIn: day(236), checkOut: day(238) });
    createCall = 'lost';
    await failureOf(service.book(input));
    await failureOf(service.book(input));
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(0);

    clock.now += (SETTLE_SECONDS + 1) * 1000;
    const booked = await service.book(input);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
    // And again (a double click): the same confirmation.
    expect((await service.book(input)).reference).toBe(booked.reference);
  });
});

describe('a create the lodging API answered with a 5xx', () => {
  it('stored nothing: the guest is told to try again, and Try again books at once, once', async () => {
    const service = serviceAt({ now: Date.now() });
    const input = request({ checkIn: day(244), checkOut: day(246) });
    createCall = '500';
    const failed = await failureOf(service.book(input));
    expect(english(failed.message)).toMatch(/try again/i);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(0);

    // At once, no 90 seconds: the API's answer ended that request, and nothing was stored.
    const booked = await service.book(input);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
    expect((await service.book(input)).reference).toBe(booked.reference);
  });

  it('stored nothing, then another tab books the stay: Try again books nothing twice', async () => {
    const service = serviceAt({ now: Date.now() });
    const input = request({ checkIn: day(256), checkOut: day(258) });
    createCall = '500';
    await failureOf(service.book(input));
    await service.book({ ...input, idempotencyKey: `${input.idempotencyKey}x` });
    const refused = await failureOf(service.book(input));
    expect(refused.error.code).toBe('same_stay');
    // The other tab's booking is under the online-requests record (the e-mail was on file by then).
    const stays = mock.state.lodging.bookings.filter(
      (b) => b.checkIn === input.checkIn && b.checkOut === input.checkOut,
    );
    expect(stays).toHaveLength(1);
  });

  it('and the look-up failed too: another key is told it may have been booked, Try again books once', async () => {
    const service = serviceAt({ now: Date.now() });
    const input = request({ checkIn: day(260), checkOut: day(262) });
    createCall = '500';
    listsDown = true;
    try {
      await failureOf(service.book(input));
    } finally {
      listsDown = false;
    }
    const other = await failureOf(
      service.book({ ...input, idempotencyKey: `${input.idempotencyKey}x` }),
    );
    expect(english(other.message)).toMatch(/may have been booked moments ago/);
    const booked = await service.book(input);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
    expect((await service.book(input)).reference).toBe(booked.reference);
  });

  it('stored it and then failed: the guest gets the confirmation at once, one booking', async () => {
    const service = serviceAt({ now: Date.now() });
    const input = request({ checkIn: day(248), checkOut: day(250) });
    createCall = 'stored500';
    const booked = await service.book(input);
    const held = bookingsIn(mock, input.email, input.checkIn, input.checkOut);
    expect(held).toHaveLength(1);
    expect(booked.reference).toBe(held[0]!.reference);
    expect((await service.book(input)).reference).toBe(booked.reference);
  });

  it('a gateway’s 504 (the API may still be working on it): Try again books nothing until it settled', async () => {
    const clock = { now: Date.now() };
    const service = serviceAt(clock);
    const input = request({ checkIn: day(252), checkOut: day(254) });
    createCall = '504';
    expect(isOutcomeUnknown(await failureOf(service.book(input)))).toBe(true);
    expect(isOutcomeUnknown(await failureOf(service.book(input)))).toBe(true);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(0);
    clock.now += (SETTLE_SECONDS + 1) * 1000;
    await service.book(input);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
  });
});
