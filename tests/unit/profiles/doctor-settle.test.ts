import { describe, expect, it } from 'vitest';
import { parseMaps } from '../../../src/lib/profiles/doctor/maps.ts';
import { maskedSample, shapeLines } from '../../../src/lib/profiles/doctor/shape.ts';

describe('--map <operation>.<need>=<path>', () => {
  it('fields, paths and envelopes, per service', () => {
    expect(
      parseMaps([
        'posts.list.author.name=writer.full',
        'posts.list.title=headline',
        'plans.list.path=/shop/plans',
        'guests.list.envelope=answer.rows',
      ]),
    ).toEqual({
      publishing: {
        'posts.list': { fields: { 'author.name': ['writer.full'], title: ['headline'] } },
        'plans.list': { path: '/shop/plans' },
      },
      lodging: { 'guests.list': { envelope: ['answer.rows'] } },
    });
  });

  it('says what is wrong with one it cannot read', () => {
    expect(() => parseMaps(['articles.list.title=x'])).toThrow(/^--map articles\.list\.title=x: /);
    expect(() => parseMaps(['posts.list=x'])).toThrow(/expected <operation>\.<need>=<path>/);
    expect(() => parseMaps(['plans.list.path=shop'])).toThrow(/starts with "\/"/);
  });
});

describe("the answer's shape beside what was not found", () => {
  it('masks secrets and personal data', () => {
    expect(maskedSample('api_token', 'abc123secret')).toBe('***');
    expect(maskedSample('contact', 'grace@third.test')).toBe('g…@third.test');
    expect(maskedSample('mobile', '+44 20 7946 0958')).toBe('+44…');
    expect(maskedSample('given_name', 'Grace')).toBe('G…');
    expect(maskedSample('label', 'Sea double')).toBe('Sea double');
  });

  it('lists places, types and samples, nested records too', () => {
    const lines = shapeLines([
      { id: 7, who: { mail: 'ann@x.test' }, rooms: [{ label: 'Sea', sleeps: 2 }] },
    ]);
    expect(lines).toEqual([
      'id: number = 7',
      'who: object',
      'who.mail: string = a…@x.test',
      'rooms: list of 1',
      'rooms[].label: string = Sea',
      'rooms[].sleeps: number = 2',
    ]);
  });
});

describe('masking keeps what is not personal', () => {
  it('a date is no phone number', () => {
    expect(maskedSample('nightly_rates[].date', '2026-11-02')).toBe('2026-11-02');
  });
});
