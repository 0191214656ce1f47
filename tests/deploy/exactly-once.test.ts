/**
 * Exactly once without Redis (issue 33): two `npm start` servers on one Redis, with a mail server,
 * while Redis stops and comes back empty (no persistence) under racing submits of one booking.
 * While Redis is away every submit is a 503 with Retry-After (never a booking without its guard);
 * once it is back, and again after it came back empty, the intent makes one booking and one e-mail.
 */
import { readFileSync } from 'node:fs';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { day } from '../fixtures/dates.ts';
import { send } from './http.ts';
import type { Reply } from './http.ts';
import type { Service } from './processes.ts';
import { startTwoServers } from './stack.ts';
import type { TwoServers } from './stack.ts';

const demo = JSON.parse(
  readFileSync(new URL('../../mock/demo-accounts.json', import.meta.url), 'utf8'),
) as { lodging: Record<string, { fullToken: string; propertyIds: string[] }> };

const HOST = 'harbour-times.localhost';
const PROPERTY = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const TOKEN = Object.values(demo.lodging).find((a) => a.propertyIds.includes(PROPERTY))!.fullToken;

let stack: TwoServers;
let smtp: SMTPServer;
const inbox: ParsedMail[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  stack = await startTwoServers({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port) });
});

afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((resolve) => smtp?.close(resolve));
});

const url = (site: Service, path: string) => `http://127.0.0.1:${site.port}${path}`;
const mailsTo = (email: string) =>
  inbox.filter((mail) => mail.to && JSON.stringify(mail.to).includes(email)).length;

/** Bookings of the property for these nights, as the lodging API lists them. */
async function bookings(checkIn: string, checkOut: string): Promise<number> {
  const query = new URLSearchParams({
    property_id: PROPERTY,
    check_in_from: checkIn,
    check_in_to: checkIn,
  });
  const reply = await send(`${stack.mock.lodgingUrl}/bookings?${query}`, {
    headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' },
  });
  const list = JSON.parse(reply.text) as { data: { check_out: string }[] };
  return list.data.filter((b) => b.check_out === checkOut).length;
}

async function freeRoom(checkIn: string, checkOut: string): Promise<string> {
  const query = new URLSearchParams({ property: PROPERTY, checkIn, checkOut, adults: '2' });
  const reply = await send(url(stack.sites[0]!, `/api/booking/availability?${query}`), {
    host: HOST,
  });
  expect(reply.status, reply.text).toBe(200);
  const offers = JSON.parse(reply.text) as {
    data: { rooms: { roomTypeId: string; available: boolean }[] };
  };
  return offers.data.rooms.find((offer) => offer.available)!.roomTypeId;
}

/** Posts one booking intent (the same key) to `site`, as the widget does. */
const submit = (site: Service, body: string): Promise<Reply> =>
  send(url(site, '/api/booking/bookings'), {
    method: 'POST',
    host: HOST,
    headers: { 'Content-Type': 'application/json', Origin: `http://${HOST}` },
    body,
  });

/** Racing submits on both servers, repeated (as a guest retries) until one is not a 503. */
async function untilBooked(body: string): Promise<Reply[]> {
  for (let i = 0; i < 100; i += 1) {
    const replies = await Promise.all(stack.sites.flatMap((site) => [submit(site, body)]));
    if (replies.some((reply) => reply.status === 200)) return replies;
    for (const reply of replies) expect([503, 429], reply.text).toContain(reply.status);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('never booked');
}

const restartRedis = async () => {
  await stack.redis.stop();
  await stack.redis.start();
};

describe('one booking intent while Redis stops and comes back empty', () => {
  it('books once and mails once, racing submits on both servers throughout', async () => {
    const checkIn = day(160);
    const checkOut = day(162);
    const email = `once.${Date.now().toString(36)}@example.com`;
    const body = JSON.stringify({
      idempotencyKey: `exactly-once-${Date.now().toString(36)}`,
      propertyId: PROPERTY,
      roomTypeId: await freeRoom(checkIn, checkOut),
      checkIn,
      checkOut,
      adults: 2,
      children: 0,
      firstName: 'Olga',
      lastName: 'Once',
      email,
      phone: '',
      nationality: '',
      notes: '',
    });
    const before = await bookings(checkIn, checkOut);

    // Redis away: every submit (two per server, the same key) is refused, to be tried again.
    await stack.redis.stop();
    const refused = await Promise.all(
      [...stack.sites, ...stack.sites].map((site) => submit(site, body)),
    );
    for (const reply of refused) {
      expect(reply.status, reply.text).toBe(503);
      expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await bookings(checkIn, checkOut)).toBe(before);

    // Back, empty: the retries book once; every server answers with that booking.
    await stack.redis.start();
    const booked = await untilBooked(body);
    const references = new Set(
      booked
        .filter((reply) => reply.status === 200)
        .map((reply) => (JSON.parse(reply.text) as { data: { reference: string } }).data.reference),
    );
    expect(references.size).toBe(1);
    expect(await bookings(checkIn, checkOut)).toBe(before + 1);

    // Emptied again (a restart without persistence): a replay of the key books and mails nothing.
    await restartRedis();
    const replays = await untilBooked(body);
    for (const reply of replays.filter((r) => r.status === 200)) {
      const data = (JSON.parse(reply.text) as { data: { reference: string } }).data;
      expect(references.has(data.reference)).toBe(true);
    }
    expect(await bookings(checkIn, checkOut)).toBe(before + 1);
    // The e-mail went out once (SMTP is local: it has arrived by the time the booking answered).
    expect(mailsTo(email)).toBe(1);
  });
});
