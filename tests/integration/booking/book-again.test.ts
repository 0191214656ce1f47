/**
 * The `bookStay` action (src/actions/booking.ts) with the site's own wiring against the contract
 * mock: a guest who booked, went Back to the review (the element's history, or a second tab with the
 * same draft and its key), edited a detail and pressed Book again. The review's key already made a
 * booking; what the guest is told is what happened (the stay was booked moments ago), not that the
 * key was sent with other details.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StepState } from '../../../src/lib/booking/steps/flow.ts';
import { english } from '../../fixtures/english.ts';
import { day } from '../../fixtures/dates.ts';
import { demo, startTestMock, type Mock } from '../harness.ts';
import { bookingsIn, HARBOUR_VIEW, STANDARD_DOUBLE } from './fixture.ts';

type Actions = typeof import('../../../src/actions/booking.ts');
type Registry = typeof import('../../../src/lib/tenants/registry.ts');

let mock: Mock;
let actions: Actions;
let registry: Registry;

beforeAll(async () => {
  mock = await startTestMock({ lodgingPerMinute: 0 });
  vi.stubEnv('SECRETS_FILE', '');
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('HARBOUR_LODGING_TOKEN', demo.lodging['harbour-hotels']!.fullToken);
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../../src/lib/tenants/registry.ts');
  actions = await import('../../../src/actions/booking.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

const harbour = () => registry.getTenants().find((t) => t.id === 'harbour-times')!;

/** A browser's session, as the action reads and writes it. */
function browserSession() {
  const kept = new Map<string, unknown>();
  return {
    sessionID: crypto.randomUUID(),
    get: (key: string) => Promise.resolve(kept.get(key)),
    set: (key: string, value: unknown) => void kept.set(key, value),
  };
}

/** "Book" (or `intent`) pressed on a review form carrying `values`, as the action sees it. */
async function book(
  values: Record<string, string>,
  session?: ReturnType<typeof browserSession>,
  intent: 'book' | 'another' = 'book',
): Promise<StepState> {
  const tenant = harbour();
  const context = {
    session,
    locals: {
      tenant,
      tenantMatchOrNull: { tenant, pathname: '/stay', origin: 'http://harbour-times.localhost' },
      visitor: { address: '203.0.113.7', local: false, origin: 'http://harbour-times.localhost' },
    },
  };
  const form = new FormData();
  form.set('intent', intent);
  for (const [name, value] of Object.entries(values)) form.set(name, value);
  const answer: StepState = await actions.bookingActions.bookStay.orThrow.call(context, form);
  return answer;
}

describe('Book again after an edit, with the key of a booking already made', () => {
  it('is told the stay was booked moments ago, never "sent with other details", and books nothing twice', async () => {
    const review = {
      idempotencyKey: 'backagain'.padEnd(32, '0'),
      propertyId: HARBOUR_VIEW,
      checkIn: day(300),
      checkOut: day(302),
      adults: '2',
      children: '0',
      roomTypeId: STANDARD_DOUBLE,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `grace.${Date.now()}@example.com`,
      phone: '',
      nationality: '',
      notes: '',
    };
    const booked = await book(review);
    expect(booked.step).toBe('done');

    // Back, Edit, a phone number added, Review, Book: the key is the booked one.
    const edited = await book({ ...review, phone: '+44 20 7946 0000' });
    expect(edited.step).toBe('review');
    expect(edited.sameStay).toBe(true);
    expect(english(edited.message)).toMatch(/booked moments ago/);
    expect(edited.values).toMatchObject({ firstName: 'Grace', phone: '+44 20 7946 0000' });
    // Pressed again (or reloaded and sent again): the same answer, nothing booked.
    expect((await book(edited.values)).sameStay).toBe(true);
    expect(bookingsIn(mock, review.email, review.checkIn, review.checkOut)).toHaveLength(1);
  });

  it('a second tab showing the same stay’s draft (its key) with another e-mail hears "booked moments ago", and may book another room', async () => {
    const session = browserSession();
    const review = {
      idempotencyKey: 'otheremail'.padEnd(32, '0'),
      propertyId: HARBOUR_VIEW,
      checkIn: day(310),
      checkOut: day(312),
      adults: '2',
      children: '0',
      roomTypeId: STANDARD_DOUBLE,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${Date.now()}@example.com`,
      phone: '',
      nationality: '',
      notes: '',
    };
    expect((await book(review, session)).step).toBe('done');

    // The second tab opened the details of the same stay (the shared draft: the same key), typed
    // another e-mail address, reviewed and pressed Book: nothing more is booked.
    const email = `ada.other.${Date.now()}@example.com`;
    const second = await book({ ...review, email }, session);
    expect(second.step).toBe('review');
    expect(second.sameStay).toBe(true);
    expect(english(second.message)).toMatch(/booked moments ago/);
    expect(english(second.message)).not.toMatch(/other details/);
    expect(bookingsIn(mock, email, review.checkIn, review.checkOut)).toHaveLength(0);

    // Another browser with that address books it: another guest may want the same room type.
    const other = await book({ ...review, email, idempotencyKey: 'otheremail'.padEnd(32, '2') });
    expect(other.step).toBe('done');
    expect(bookingsIn(mock, email, review.checkIn, review.checkOut)).toHaveLength(1);

    // "Book another room for the same dates" from that review books it.
    const another = await book({ ...second.values }, session, 'another');
    expect(another.step).toBe('done');
    expect(another.booked?.confirmation.reference).not.toBe(other.booked?.confirmation.reference);
  });
});

describe('Two tabs of one browser pressing Book in the same instant', () => {
  it('books the stay once, whatever e-mail address each tab typed', async () => {
    const session = browserSession();
    const review = (tab: number) => ({
      idempotencyKey: `twotabs${tab}`.padEnd(32, '0'),
      propertyId: HARBOUR_VIEW,
      checkIn: day(316),
      checkOut: day(318),
      adults: '2',
      children: '0',
      roomTypeId: STANDARD_DOUBLE,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.tab${tab}.${Date.now()}@example.com`,
      phone: '',
      nationality: '',
      notes: '',
    });
    const answers = await Promise.all([book(review(1), session), book(review(2), session)]);
    expect(answers.map((a) => a.step).sort()).toEqual(['done', 'review']);
    expect(answers.find((a) => a.step === 'review')?.sameStay).toBe(true);
  });
});

describe('Details as a phone types them (smart punctuation)', () => {
  const details = (email: string, at: number) => ({
    idempotencyKey: `smart${at}`.padEnd(32, '0'),
    propertyId: HARBOUR_VIEW,
    checkIn: day(at),
    checkOut: day(at + 1),
    adults: '2',
    children: '0',
    roomTypeId: STANDARD_DOUBLE,
    firstName: 'Siobhán',
    lastName: 'O’Brien–Hayes',
    email,
    phone: '',
    nationality: '',
    notes: '',
  });

  it('books a curly apostrophe or dash in the address as the straight one it stands for', async () => {
    const local = `o’brien–${Date.now()}`;
    const booked = await book(details(`${local}@example.com`, 320));
    expect(booked.step).toBe('done');
    const plain = `${local.replace('’', "'").replace('–', '-')}@example.com`;
    expect(booked.booked?.email).toBe(plain);
    const guest = mock.state.lodging.guests.find((g) => g.email === plain);
    // Names keep what was typed: a curly apostrophe and a dash are right in a name.
    expect(guest).toMatchObject({ first_name: 'Siobhán', last_name: 'O’Brien–Hayes' });
  });

  it('says what is wrong with curly quotes around the address, in words the guest can act on', async () => {
    const refused = await book(details(`“guest.${Date.now()}@example.com”`, 324));
    expect(refused.step).toBe('details');
    expect(english(refused.errors['email'])).toEqual([
      'Enter an e-mail address such as name@example.com.',
    ]);
  });
});
