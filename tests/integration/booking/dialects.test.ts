import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lodgingClient } from '../../../src/lib/lodging/client.ts';
import { statusKind, type StatusKind } from '../../../src/lib/booking/domain/status.ts';
import type { Confirmation } from '../../../src/lib/booking/service/lodging-shapes.ts';
import { confirmationOf } from '../../../src/lib/booking/service/lodging-shapes.ts';
import { demo, freshUpstream } from '../harness.ts';
import {
  bookingsIn,
  control,
  day,
  HARBOUR_VIEW,
  request,
  serviceFor,
  startDialect,
  STANDARD_DOUBLE,
  thursdayFrom,
  today,
  uniqueEmail,
} from './fixture.ts';
import type { Dialect, Mock } from './fixture.ts';
import { english } from '../../fixtures/english.ts';

// The booking journeys against both readings of the lodging contract's silences (mock/README.md,
// "Dialects"): the site must book correctly, or refuse honestly, against either, and never twice.

const WORDS: Record<string, StatusKind> = {
  pending: 'received',
  requested: 'received',
  tentative: 'received',
  confirmed: 'confirmed',
  booked: 'confirmed',
  checked_in: 'other',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  checked_out: 'other',
  no_show: 'other',
};

describe.each<Dialect>(['default', 'alt'])('booking against the %s dialect', (dialect) => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await startDialect(dialect);
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(async () => {
    await control(mock, 'DELETE', '/faults');
  });

  it('a new guest sees real names, currency and capacity, and books: "request received"', async () => {
    const { service, up } = serviceFor(mock.lodgingUrl);
    const place = await service.property(HARBOUR_VIEW);
    expect(place.name).toBe('Harbour View Hotel');
    expect(place.currency).toBe(dialect === 'alt' ? 'GBP' : 'EUR');
    expect(place.city).toBeTruthy();
    expect(place.capacity.maxOccupancy).toBeGreaterThan(1);

    const checkIn = day(150);
    const checkOut = day(152);
    const offers = await service.availability({
      property: HARBOUR_VIEW,
      checkIn,
      checkOut,
      adults: 2,
      children: 0,
    });
    const double = offers.rooms.find((r) => r.roomTypeId === STANDARD_DOUBLE)!;
    expect(double.available).toBe(true);
    expect(double.currency).toBe(place.currency);

    const input = request({ checkIn, checkOut, email: uniqueEmail('new') });
    const confirmation = await service.book(input);
    expect(confirmation.status).toBe(dialect === 'alt' ? 'tentative' : 'pending');
    expect(confirmation.statusKind).toBe('received');
    expect(confirmation.totalPrice).toBe(double.totalPrice);
    expect(confirmation.currency).toBe(place.currency);
    expect(confirmation.checkIn).toBe(checkIn);
    expect(bookingsIn(mock, input.email, checkIn, checkOut)).toHaveLength(1);
    // Everything was readable: no integration problem recorded.
    expect(up.metrics.getStatus().integrationProblems).toEqual([]);
  });

  /** Bookings held under the online-requests record whose notes name `email`. */
  const onlineRequests = (email: string, checkIn: string) => {
    const holders = new Set(
      mock.state.lodging.guests
        .filter((g) => g.email.startsWith('online-requests@'))
        .map((g) => g.id),
    );
    return mock.state.lodging.bookings.filter(
      (b) => holders.has(b.guestId) && b.checkIn === checkIn && (b.notes ?? '').includes(email),
    );
  };
  /** What a visitor can tell from an answer: its outcome and the fields it carries. */
  const shape = (outcome: unknown) =>
    outcome && typeof outcome === 'object' && 'status' in outcome && 'error' in outcome
      ? { refused: (outcome as { status: number }).status }
      : {
          booked: Object.keys(outcome as object).sort(),
          kind: (outcome as Confirmation).statusKind,
        };

  it('a returning guest can book; the stay waits under the online-requests record, their record untouched', async () => {
    const { service } = serviceFor(mock.lodgingUrl);
    const account = mock.state.lodging.properties.find((p) => p.id === HARBOUR_VIEW)!.accountId;
    const guest = mock.state.lodging.guests.find((g) => g.accountId === account)!;
    const guestsBefore = mock.state.lodging.guests.filter((g) => g.email === guest.email).length;
    const input = request({
      checkIn: day(160),
      checkOut: day(161),
      firstName: guest.first_name,
      lastName: guest.last_name,
      email: guest.email.toUpperCase(),
      notes: 'Late arrival',
    });
    const confirmation = await service.book(input);
    expect(confirmation.statusKind).toBe('received');
    expect(bookingsIn(mock, guest.email, input.checkIn, input.checkOut)).toHaveLength(0);
    const held = onlineRequests(guest.email.toLowerCase(), input.checkIn);
    expect(held).toHaveLength(1);
    expect(held[0]!.notes).toContain(`${guest.first_name} ${guest.last_name}`);
    expect(held[0]!.notes).toContain('Late arrival');
    expect(mock.state.lodging.guests.filter((g) => g.email === guest.email)).toHaveLength(
      guestsBefore,
    );
  });

  it('answers the same whether the e-mail is new, on file under these names, or under others', async () => {
    const { service } = serviceFor(mock.lodgingUrl);
    const account = mock.state.lodging.properties.find((p) => p.id === HARBOUR_VIEW)!.accountId;
    const guest = mock.state.lodging.guests.filter((g) => g.accountId === account)[1]!;
    const answers = [];
    // One stay each: a second key for a stay booked seconds ago is turned away (racing submits).
    for (const [i, details] of [
      { email: uniqueEmail('unknown'), firstName: 'Mallory', lastName: 'Stranger' },
      { email: guest.email, firstName: 'Mallory', lastName: 'Stranger' },
      { email: guest.email, firstName: guest.first_name, lastName: guest.last_name },
    ].entries()) {
      const stay = { checkIn: day(165 + i), checkOut: day(166 + i) };
      const outcome = await service.book(request({ ...stay, ...details })).catch((e: unknown) => e);
      answers.push(shape(outcome));
      expect(JSON.stringify(outcome)).not.toContain(guest.first_name);
    }
    expect(answers[0]).toHaveProperty('kind', 'received');
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // Nothing was attached to the guest's own record.
    for (const i of [1, 2]) {
      expect(bookingsIn(mock, guest.email, day(165 + i), day(166 + i))).toHaveLength(0);
    }
  });

  it('five spellings of one address make one guest; a look-alike letter is refused at the field', async () => {
    const { service } = serviceFor(mock.lodgingUrl);
    const plain = uniqueEmail('zed-x');
    const [local, domain] = plain.split('@') as [string, string];
    const spellings = [
      plain,
      `${local.replace('zed', 'Zed')}@${domain.replace('example', 'Example')}`,
      `${local}\u200B@${domain}`,
      `${plain}.`,
    ];
    for (const [i, email] of spellings.entries()) {
      const confirmation = await service.book(
        request({ checkIn: day(240 + i * 2), checkOut: day(241 + i * 2), email }),
      );
      expect(confirmation.statusKind).toBe('received');
    }
    const lookAlike = await service
      .book(
        request({
          checkIn: day(250),
          checkOut: day(251),
          email: `${local}@${domain.replace('a', '\u0430')}`,
        }),
      )
      .catch((e: unknown) => e);
    expect(lookAlike).toMatchObject({ status: 422, error: { code: 'validation' } });
    expect(
      english((lookAlike as { error: { fields: Record<string, string[]> } }).error.fields['email']),
    ).toEqual([expect.stringMatching(/another alphabet/)]);
    const guests = mock.state.lodging.guests.filter((g) =>
      g.email
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[\u200B.]+$/u, '')
        .includes(local.toLowerCase()),
    );
    expect(guests.map((g) => g.email)).toEqual([plain]);
  });

  it('gives every status value the API uses honest words', async () => {
    const { up } = freshUpstream();
    const api = lodgingClient({
      accountKey: 'test',
      baseUrl: mock.lodgingUrl,
      token: demo.lodging['harbour-hotels']!.fullToken,
      upstream: up,
    });
    const { service } = serviceFor(mock.lodgingUrl);
    const place = await service.property(HARBOUR_VIEW);
    const seen = new Set<string>();
    for (let page = 1; page <= 5; page += 1) {
      const list = await api.listBookings({ page, perPage: 50 });
      for (const booking of list.items) {
        const confirmation = confirmationOf(place, booking, request()).value;
        expect([booking.status, confirmation.statusKind]).toEqual([
          booking.status,
          WORDS[booking.status],
        ]);
        seen.add(booking.status);
      }
      if (list.page.current >= list.page.last) break;
    }
    const expected =
      dialect === 'alt'
        ? [
            'booked',
            'canceled',
            'checked_in',
            'checked_out',
            'confirmed',
            'no_show',
            'requested',
            'tentative',
          ]
        : ['cancelled', 'checked_in', 'checked_out', 'confirmed', 'no_show', 'pending'];
    // (The seed has no booking checked in right now; its words are in WORDS all the same.)
    expect([...seen].sort()).toEqual(expected.filter((status) => status !== 'checked_in'));
    // Never "confirmed" for a word nobody knows.
    expect(statusKind('awaiting_payment')).toBe('other');
  });

  it('shows nightly rates when the API lists them, and always the API total', async () => {
    const { service } = serviceFor(mock.lodgingUrl);
    const checkIn = thursdayFrom(120);
    const checkOut =
      day(0) &&
      new Date(Date.parse(`${checkIn}T00:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
    const result = await service.availability({
      property: HARBOUR_VIEW,
      checkIn,
      checkOut,
      adults: 2,
      children: 0,
    });
    const room = result.rooms.find((r) => r.roomTypeId === STANDARD_DOUBLE)!;
    if (dialect === 'alt') {
      // Thu at the base rate, Fri and Sat 15 % more: the total is their sum, not 3 × one price.
      expect(room.nightly).toHaveLength(3);
      expect(room.nightly![1]).toBeGreaterThan(room.nightly![0]!);
      expect(room.totalPrice).toBeCloseTo(
        room.nightly!.reduce((a, b) => a + b, 0),
        2,
      );
      // No one rate for every night: the card shows the average, called one.
      expect(room.pricePerNight).toBeNull();
    } else {
      expect(room.nightly).toBeNull();
      expect(room.pricePerNight! * 3).toBeCloseTo(room.totalPrice, 2);
    }
    expect(room.averageNightly).toBeCloseTo(room.totalPrice / 3, 2);

    const confirmation = await service.book(
      request({ checkIn, checkOut, email: uniqueEmail('nightly') }),
    );
    expect(confirmation.totalPrice).toBe(room.totalPrice);
    expect(confirmation.nightly).toEqual(dialect === 'alt' ? room.nightly : null);
  });

  it('puts the API’s own field rules (a required phone, a short notes limit) at the fields', async () => {
    const { service } = serviceFor(mock.lodgingUrl);
    const input = request({
      checkIn: day(170),
      checkOut: day(171),
      phone: '',
      notes: 'n'.repeat(600),
      email: uniqueEmail('rules'),
    });
    const outcome = (await service.book(input).catch((e: unknown) => e)) as {
      status: number | string;
      error: { fields?: Record<string, string[]> };
    };
    if (dialect === 'alt') {
      // The form did not know them: the API's 422 lands at the field it names.
      expect(outcome.status).toBe(422);
      expect(Object.keys(outcome.error.fields ?? {})).toContain('phone');
      expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(0);
    } else {
      // This API has neither rule: the booking is made.
      expect(outcome.status).toBe('pending');
    }

    // Configured in tenants.json: refused before any upstream call, at both fields.
    const configured = serviceFor(mock.lodgingUrl, {
      lodging: { fields: { phone: { required: true }, notes: { maxLength: 500 } } },
    }).service;
    const other = { ...input, email: uniqueEmail('configured') };
    const refused = (await configured.book(other).catch((e: unknown) => e)) as {
      status: number;
      error: { fields?: Record<string, string[]> };
    };
    expect(refused.status).toBe(422);
    expect(english(refused.error.fields?.['phone'])).toEqual(['Enter a phone number.']);
    expect(english(refused.error.fields?.['notes'])).toEqual([
      'Keep the notes under 500 characters.',
    ]);
    expect(bookingsIn(mock, other.email, other.checkIn, other.checkOut)).toHaveLength(0);
  });

  it('"saved, then 500": the stored booking is found at once and confirmed, exactly one', async () => {
    const { service } = serviceFor(mock.lodgingUrl);
    const input = request({ checkIn: day(175), checkOut: day(177), email: uniqueEmail('saved') });
    await control(mock, 'POST', '/faults', {
      service: 'lodging',
      savedThen500: true,
      savedThen500Route: 'POST /bookings',
      savedThen500Times: 1,
    });
    // The 500 ended the request: the booking it stored is looked up and confirmed, not made again.
    const first = await service.book(input);
    expect(first.checkIn).toBe(input.checkIn);
    expect(first.statusKind).toBe('received');
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
    // And once more (a double click after it): the same confirmation.
    expect((await service.book(input)).reference).toBe(first.reference);
    expect(bookingsIn(mock, input.email, input.checkIn, input.checkOut)).toHaveLength(1);
  });

  it('ten simultaneous posts with ten keys book once', async () => {
    const { service } = serviceFor(mock.lodgingUrl);
    const base = request({ checkIn: day(180), checkOut: day(182), email: uniqueEmail('ten') });
    await service.property(HARBOUR_VIEW);
    const calls = async () =>
      ((await control(mock, 'GET', '/stats')) as { lodging: { total: number } }).lodging.total;
    const before = await calls();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        service.book({ ...base, idempotencyKey: `tenkeys${i}${Date.now()}000000` }),
      ),
    );
    const booked = results.filter((r) => r.status === 'fulfilled');
    expect(booked).toHaveLength(1);
    for (const r of results) {
      // Turned away before any upstream call as the same stay (no "try again": only an explicit
      // "another room" books it twice), with nothing of the booking in the answer.
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ error: { code: 'same_stay' } });
    }
    expect(bookingsIn(mock, base.email, base.checkIn, base.checkOut)).toHaveLength(1);
    // The refused nine cost the lodging budget nothing: one booking's calls in all (look-up,
    // new guest, the booking).
    expect((await calls()) - before).toBeLessThanOrEqual(3);
  });

  it('a stranger who knows a guest’s e-mail, names and dates learns nothing of the booking', async () => {
    const now = today();
    const seeded = mock.state.lodging.bookings.find(
      (b) =>
        b.propertyId === HARBOUR_VIEW &&
        b.checkIn > day(2) &&
        b.checkIn < day(20) &&
        !['cancelled', 'canceled'].includes(b.status),
    )!;
    expect(seeded.checkIn > now).toBe(true);
    const guest = mock.state.lodging.guests.find((g) => g.id === seeded.guestId)!;
    const ownBefore = mock.state.lodging.bookings.filter((b) => b.guestId === guest.id).length;
    const attempt = {
      propertyId: seeded.propertyId,
      roomTypeId: seeded.roomTypeId,
      checkIn: seeded.checkIn,
      checkOut: seeded.checkOut,
      adults: 1,
      children: 0,
    };
    // Each probe on the seed data and a server of its own, so earlier probes are no hint.
    const answer = async (details: object) => {
      await control(mock, 'POST', '/reset');
      return serviceFor(mock.lodgingUrl)
        .service.book(request({ ...attempt, ...details }))
        .catch((e: unknown) => e);
    };
    const known = await answer({
      email: guest.email,
      firstName: guest.first_name,
      lastName: guest.last_name,
    });
    const emailOnly = await answer({ email: guest.email, firstName: 'Eve', lastName: 'Dropper' });
    const nobody = await answer({
      email: uniqueEmail('nobody'),
      firstName: 'Eve',
      lastName: 'Dropper',
    });
    // The same kind of answer as for an address nobody has, and none of the guest's booking in it.
    expect(shape(known)).toEqual(shape(nobody));
    expect(shape(emailOnly)).toEqual(shape(nobody));
    for (const text of [known, emailOnly].map((x) => JSON.stringify(x))) {
      // (Its price is the room's public price for those nights: the same for any booking.)
      expect(text).not.toContain(seeded.reference);
    }
    // And nothing was added to the guest's own record.
    expect(mock.state.lodging.bookings.filter((b) => b.guestId === guest.id)).toHaveLength(
      ownBefore,
    );
  });
});
