import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingFailure } from '../../../src/lib/booking/domain/failures.ts';
import { keyMark } from '../../../src/lib/booking/service/create.ts';
import type { Mail } from '../../../src/lib/booking/mail/mailer.ts';
import { closeRedis } from '../../../src/lib/upstream/redis.ts';
import { startRedisServer } from '../redis-server.ts';
import type { RedisServer } from '../redis-server.ts';
import { day, request, serviceFor, startDialect, uniqueEmail } from './fixture.ts';
import type { Mock } from './fixture.ts';

// Exactly once without Redis (issue 33): two instances share one Redis, which stops, and comes
// back empty. While it is away, bookings and their e-mails are refused ("try again shortly"), never
// made without their guard; after it comes back empty, a replayed key neither books nor mails again.
let mock: Mock;
let redis: RedisServer;
const port = () => Number(new URL(redis.url).port);
const mails: Mail[] = [];
const mailer = (mail: Mail) => {
  mails.push(mail);
  return Promise.resolve();
};

/** `step` once the site's Redis client is connected again (it retries in the background). */
async function once503sEnd<T>(step: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i += 1) {
    try {
      return await step();
    } catch (error) {
      if ((error as { status?: number }).status !== 503 || i > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Every booking of the property for these nights, whichever guest record holds it. */
const stays = (checkIn: string, checkOut: string) =>
  mock.state.lodging.bookings.filter((b) => b.checkIn === checkIn && b.checkOut === checkOut);

beforeAll(async () => {
  [mock, redis] = await Promise.all([startDialect('default'), startRedisServer()]);
});
afterAll(async () => {
  await closeRedis();
  await redis?.stop();
  await mock?.close();
});

const two = () =>
  [0, 1].map(() => serviceFor(mock.lodgingUrl, { redisUrl: redis.url, mailer }).service);

const mailRequest = (confirmation: Awaited<ReturnType<ReturnType<typeof two>[0]['book']>>) => ({
  confirmation,
  // One address per booking: at most 3 booking mails an hour reach one address (api/limits.ts).
  to: `guest.${confirmation.reference.toLowerCase()}@example.com`,
  guestName: 'Ada Guest',
  manageUrl: 'http://harbour-times.localhost/stay/manage/x',
  site: 'http://harbour-times.localhost/',
});

describe('booking while the shared store is away (issue 33)', () => {
  it('refuses the same key on two servers with 503 and a wait, then books it once', async () => {
    const [a, b] = two();
    const input = request({ checkIn: day(230), checkOut: day(232), email: uniqueEmail('away') });
    const before = stays(input.checkIn, input.checkOut).length;
    await a!.property(input.propertyId);
    await redis.stop();
    const refused = await Promise.allSettled([a!.book(input), b!.book(input)]);
    for (const result of refused) {
      expect(result.status).toBe('rejected');
      if (result.status === 'rejected') {
        expect(result.reason).toMatchObject({ status: 503, error: { code: 'unavailable' } });
        expect((result.reason as BookingFailure).error.retryAfter).toBeGreaterThan(0);
      }
    }
    // A second stay under another key is refused too (its "just booked" guard is in Redis).
    await expect(
      b!.book({ ...input, idempotencyKey: `${input.idempotencyKey}x` }),
    ).rejects.toMatchObject({ status: 503 });
    expect(stays(input.checkIn, input.checkOut)).toHaveLength(before);

    redis = await startRedisServer(port());
    const booked = await once503sEnd(() => a!.book(input));
    const again = await once503sEnd(() => b!.book(input));
    expect(again.reference).toBe(booked.reference);
    expect(stays(input.checkIn, input.checkOut)).toHaveLength(before + 1);
  });

  it('refuses the confirmation e-mail while the store is away, and sends it once after', async () => {
    const [a, b] = two();
    const input = request({ checkIn: day(234), checkOut: day(235), email: uniqueEmail('mail') });
    const confirmation = await a!.book(input);
    mails.length = 0;
    await redis.stop();
    await expect(a!.mailConfirmation(mailRequest(confirmation))).rejects.toMatchObject({
      status: 503,
    });
    expect(mails).toHaveLength(0);
    redis = await startRedisServer(port());
    // Both services share the process's Redis client: once it answers one, it answers both.
    await once503sEnd(() => a!.book(input));
    const sent = await Promise.all(
      [a, b, a].map((s) => s!.mailConfirmation(mailRequest(confirmation))),
    );
    expect(sent.filter(Boolean)).toHaveLength(1);
    expect(mails).toHaveLength(1);
  });
});

describe('after the shared store comes back empty (issue 33)', () => {
  it('racing submits on two servers: only the one that booked mails, before and after', async () => {
    const [a, b] = two();
    const input = request({ checkIn: day(246), checkOut: day(247), email: uniqueEmail('race') });
    const first = await a!.book(input);
    const again = await b!.book(input); // the same key on the other server: the same booking
    expect(again.reference).toBe(first.reference);
    mails.length = 0;
    // The other server's answer comes back first: it does not mail what it did not book.
    expect(await b!.mailConfirmation(mailRequest(again))).toBe(false);
    expect(await a!.mailConfirmation(mailRequest(first))).toBe(true);

    await redis.stop();
    redis = await startRedisServer(port());
    // Before: the booking server, answering a replay from its memory, found no claim and mailed again.
    const replay = await once503sEnd(() => a!.book(input));
    expect(replay.reference).toBe(first.reference);
    for (const service of [a, b]) {
      expect(await service!.mailConfirmation(mailRequest(replay))).toBe(false);
    }
    expect(mails).toHaveLength(1);
  });

  it('a replayed key finds its booking by its mark: no second stay, no second e-mail', async () => {
    const [a, b] = two();
    for (const onFile of [false, true]) {
      const email = uniqueEmail(onFile ? 'replay-on-file' : 'replay');
      if (onFile) {
        // The e-mail is already a guest's: the booking goes under the online-requests record.
        await a!.book(request({ checkIn: day(240), checkOut: day(241), email }));
      }
      const input = request({ checkIn: day(242), checkOut: day(244), email });
      const before = stays(input.checkIn, input.checkOut).length;
      const first = await a!.book(input);
      mails.length = 0;
      expect(await a!.mailConfirmation(mailRequest(first))).toBe(true);
      const made = stays(input.checkIn, input.checkOut).at(-1);
      expect(made?.notes).toContain(keyMark('harbour-times', input.idempotencyKey));

      await redis.stop();
      redis = await startRedisServer(port());
      const replays = await once503sEnd(() => Promise.all([b!.book(input), a!.book(input)]));
      for (const replay of replays) expect(replay.reference).toBe(first.reference);
      expect(stays(input.checkIn, input.checkOut)).toHaveLength(before + 1);
      for (const service of [a, b]) {
        expect(await service!.mailConfirmation(mailRequest(replays[0]))).toBe(false);
      }
      expect(mails).toHaveLength(1);
    }
  });
});
