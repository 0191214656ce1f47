import { describe, expect, it } from 'vitest';
import { fieldCandidates } from '../../../src/lib/profiles/doctor/field-finder.ts';
import type { Evidence } from '../../../src/lib/profiles/doctor/field-finder.ts';
import { proposeField } from '../../../src/lib/profiles/doctor/inspect.ts';
import {
  isCount,
  isCurrencyCode,
  isDateIn,
  isEmail,
  isIsoDate,
  isStatusSet,
  isStayTotal,
  joins,
  leafPaths,
  moneyValue,
  recordLists,
} from '../../../src/lib/profiles/doctor/matchers.ts';

describe('what a value is', () => {
  it('ISO dates, and dates inside the asked range', () => {
    expect(isIsoDate('2027-03-01')).toBe(true);
    expect(isIsoDate('2027-03-01T09:00:00+00:00')).toBe(true);
    expect(isIsoDate('2027-13-45')).toBe(false);
    expect(isIsoDate('yesterday')).toBe(false);
    expect(isDateIn('2027-03-02', '2027-03-01', '2027-03-03')).toBe(true);
    expect(isDateIn('2027-03-04', '2027-03-01', '2027-03-03')).toBe(false);
  });

  it('ISO 4217 currency codes: known ones, upper case', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('CHF')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode('ABC')).toBe(false);
  });

  it('e-mail addresses', () => {
    expect(isEmail('grace@third.test')).toBe(true);
    expect(isEmail('Grace Hopper')).toBe(false);
  });

  it('counts: whole numbers, no larger than the total', () => {
    expect(isCount(3)).toBe(true);
    expect(isCount('3')).toBe(true);
    expect(isCount(2.5)).toBe(false);
    expect(isCount(-1)).toBe(false);
    expect(isCount(4, 3)).toBe(false);
  });

  it('money as decimals, and a total that is nights × the nightly rate', () => {
    expect(moneyValue('240.00')).toBe(240);
    expect(moneyValue(99.5)).toBe(99.5);
    expect(moneyValue('EUR 9')).toBeUndefined();
    expect(isStayTotal('240.00', 2, '120.00')).toBe(true);
    expect(isStayTotal('240.00', 2, 130)).toBe(false);
  });

  it('a status: short words, few distinct values', () => {
    expect(isStatusSet(['held', 'confirmed', 'held', 'void', 'held', 'confirmed'])).toBe(true);
    expect(isStatusSet(['TH-1', 'TH-2'])).toBe(false);
    expect(isStatusSet(['a1', 'b2', 'c3', 'd4', 'e5', 'f6'])).toBe(false);
  });

  it('ids join by value, whatever their type', () => {
    expect(joins(7, new Set(['7']))).toBe(true);
    expect(joins('x', new Set(['7']))).toBe(false);
  });

  it('the lists of records at any depth under any envelope, longest first', () => {
    const body = { result: { page: { rows: [{ a: 1 }, { a: 2 }] } }, extra: [{ b: 1 }], n: [1, 2] };
    expect(recordLists(body).map((l) => l.path)).toEqual(['result.page.rows', 'extra']);
    expect(leafPaths({ a: { b: 1 } }).map((l) => l.path)).toEqual(['a', 'a.b']);
  });
});

const noEvidence: Evidence = { ids: {} };

describe('where a field is, by its values', () => {
  it('a booking joins its property and room by id, whatever the fields are called', () => {
    const evidence: Evidence = {
      ids: { property: new Set(['p-1']), room: new Set(['r-1', 'r-2']) },
    };
    const bookings = [
      { q1: 'p-1', q2: 'r-2', q3: 'x-9' },
      { q1: 'p-1', q2: 'r-1', q3: 'x-8' },
    ];
    expect(fieldCandidates(bookings, 'property_id', evidence)[0]?.path).toBe('q1');
    expect(fieldCandidates(bookings, 'room_type_id', evidence)[0]?.path).toBe('q2');
  });

  it('a stay total is the one that is nights × the nightly rate beside it', () => {
    const evidence: Evidence = {
      ids: {},
      stay: { from: '2027-03-01', to: '2027-03-03', nights: 2 },
    };
    const offers = [{ zz: '120.00', yy: '240.00', xx: '99.00' }];
    expect(fieldCandidates(offers, 'total_price', evidence)[0]).toMatchObject({
      path: 'yy',
      joined: true,
    });
  });

  it('check-in is the earlier date of a record, check-out the later', () => {
    const rows = [
      { d1: '2027-03-03', d2: '2027-03-01' },
      { d1: '2027-04-09', d2: '2027-04-07' },
    ];
    expect(fieldCandidates(rows, 'check_in', noEvidence)[0]?.path).toBe('d2');
    expect(fieldCandidates(rows, 'check_out', noEvidence)[0]?.path).toBe('d1');
  });

  it('a currency, an e-mail and a count by their values', () => {
    const rows = [{ a: 'EUR', b: 'ann@x.test', c: 3, d: 'eur' }];
    expect(fieldCandidates(rows, 'currency', noEvidence).map((c) => c.path)).toEqual(['a']);
    expect(fieldCandidates(rows, 'email', noEvidence).map((c) => c.path)).toEqual(['b']);
    expect(fieldCandidates(rows, 'available_rooms', noEvidence)[0]?.path).toBe('c');
  });

  it('of two that fit, the one that holds on every record wins, and the other is shown', () => {
    const rows = [
      { when: '2026-11-01T09:00:00Z', seen: '2026-11-02T09:00:00Z' },
      { when: '2026-11-03T09:00:00Z', seen: 'never' },
    ];
    const [best, other] = fieldCandidates(rows, 'published_at', noEvidence);
    expect(best).toMatchObject({ path: 'when', holdsAll: true });
    expect(other).toBeUndefined();
    const tie = proposeField([{ given: 'Ada', family: 'Lovelace' }], 'first_name', noEvidence, []);
    expect(tie?.alternatives.length).toBe(1);
  });

  it('the name is only a hint: it ranks places that fit equally, never one that does not', () => {
    const rows = [{ email: 'not an address', contact: 'ann@x.test' }];
    expect(fieldCandidates(rows, 'email', noEvidence).map((c) => c.path)).toEqual(['contact']);
    const posts = [{ headline: 'Harbour reopens', zz: 'Other words' }];
    expect(fieldCandidates(posts, 'title', noEvidence)[0]?.path).toBe('headline');
  });
});

describe('where the list is', () => {
  it('the longest list of records at any depth, under any envelope', async () => {
    const { findEnvelope } = await import('../../../src/lib/profiles/doctor/inspect.ts');
    const body = { answer: { page: { rows: [{ a: 1 }, { a: 2 }] }, tags: [{ t: 1 }] } };
    expect(
      findEnvelope(body, { kind: 'list', needs: [], read: true, path: '/x' }, {}),
    ).toMatchObject({ at: 'answer.page.rows', propose: 'answer.page.rows' });
  });
});
