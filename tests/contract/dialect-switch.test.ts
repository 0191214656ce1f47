import { afterEach, describe, expect, it } from 'vitest';
import { startMock } from '../../mock/index.ts';
import { createState } from '../../mock/state.ts';
import { demo, http, NO_LIMITS, useMock } from './helpers.ts';

/** Choosing the dialect: per process (`MOCK_DIALECT`, `startMock({ dialect })`) or at run time. */

const harbour = demo.lodging['harbour-hotels'];
const full = { token: harbour.fullToken };
const ports = { publishingPort: 0, lodgingPort: 0, controlPort: 0, limits: NO_LIMITS };

/** `true` when the property list is the alt dialect's bare array. */
const isAltList = (body: unknown) => Array.isArray(body);

describe('MOCK_DIALECT', () => {
  afterEach(() => {
    delete process.env['MOCK_DIALECT'];
  });

  it('selects the dialect of a mock process', async () => {
    process.env['MOCK_DIALECT'] = 'alt';
    const mock = await startMock(ports);
    try {
      expect(mock.state.dialect).toBe('alt');
      const res = await http(`${mock.lodgingUrl}/properties`, full);
      expect(isAltList(res.body)).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it('refuses an unknown dialect at start', async () => {
    process.env['MOCK_DIALECT'] = 'klingon';
    await expect(startMock(ports)).rejects.toThrow(/MOCK_DIALECT must be one of default, alt/);
  });
});

describe('control API', () => {
  const t = useMock();
  const properties = async () => (await t.lodge('/properties', full)).body;

  it('switches a running mock, keeps the dialect across /reset, and resets into another', async () => {
    expect((await t.control('/dialect')).body).toEqual({ dialect: 'default' });
    expect(isAltList(await properties())).toBe(false);

    const switched = await t.control('/dialect', { method: 'POST', body: { dialect: 'alt' } });
    expect(switched.body).toEqual({ dialect: 'alt' });
    expect(isAltList(await properties())).toBe(true);
    expect((await t.control('/')).body).toMatchObject({ dialect: 'alt' });

    const reset = await t.control('/reset', { method: 'POST' });
    expect(reset.body).toMatchObject({ dialect: 'alt' });
    expect(isAltList(await properties())).toBe(true);

    await t.control('/reset', { method: 'POST', body: { dialect: 'default' } });
    expect(isAltList(await properties())).toBe(false);
  });

  it('refuses an unknown dialect with 422', async () => {
    const res = await t.control('/dialect', { method: 'POST', body: { dialect: 'klingon' } });
    expect(res.status).toBe(422);
    expect((await t.control('/dialect')).body).toEqual({ dialect: 'default' });
  });
});

describe('alt seed', () => {
  const limits = NO_LIMITS;
  const lodging = (dialect: 'default' | 'alt') => createState(42, 10, limits, dialect).lodging;

  it('is deterministic and keeps the default ids, guests and dates', () => {
    const a = lodging('alt');
    const b = lodging('alt');
    const d = lodging('default');
    expect(a.bookings).toEqual(b.bookings);
    expect(a.guests).toEqual(b.guests);
    expect(a.properties.map((p) => p.id)).toEqual(d.properties.map((p) => p.id));
    expect(a.guests.map((g) => [g.id, g.email])).toEqual(d.guests.map((g) => [g.id, g.email]));
    expect(a.bookings.map((x) => [x.id, x.checkIn, x.checkOut])).toEqual(
      d.bookings.map((x) => [x.id, x.checkIn, x.checkOut]),
    );
    expect([...a.tokens.keys()]).toEqual([...d.tokens.keys()]);
  });

  it('holds the same rooms as the default seed (statuses renamed, none freed)', () => {
    const released = ['cancelled', 'canceled', 'no_show', 'checked_out'];
    const a = lodging('alt');
    const d = lodging('default');
    expect(a.bookings.map((x) => released.includes(x.status))).toEqual(
      d.bookings.map((x) => released.includes(x.status)),
    );
    expect(a.guests.every((g) => g.phone !== null)).toBe(true);
  });
});
