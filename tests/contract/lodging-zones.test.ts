import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayIn } from '../../src/lib/booking/domain/dates.ts';
import { demo, useMock } from './helpers.ts';

// The lodging contract leaves open whose calendar "today" is on; the property's own zone decides
// (docs/api-assumptions.md), as the site counts it (src/lib/booking/domain/dates.ts `todayIn`).
const t = useMock();
const harbour = demo.lodging['harbour-hotels'];
const full = { token: harbour.fullToken };

/** A copy of the harbour hotel in `timezone` (no DST in either: UTC−8 and UTC+12 all year). */
function propertyIn(timezone: string): string {
  const { properties } = t.mock.state.lodging;
  const hotel = properties.find((p) => p.id === harbour.propertyIds[0]);
  if (!hotel) throw new Error('no harbour hotel');
  const id = crypto.randomUUID();
  properties.push({ ...hotel, id, timezone });
  return id;
}

const status = async (property: string, checkIn: string) =>
  (
    await t.lodge(
      `/properties/${property}/availability?check_in=${checkIn}&check_out=${addDays(checkIn, 2)}&guests=1`,
      full,
    )
  ).status;

afterEach(() => {
  vi.useRealTimers();
});

describe('the mock and the site agree on a property’s today', () => {
  it.each([
    // 21:00 on the 9th in Pitcairn while UTC has the 10th: tonight is still bookable there.
    ['Pacific/Pitcairn', '2026-03-10T05:00:00Z', '2026-03-09'],
    // 08:00 on the 11th in Tarawa while UTC has the 10th: the 10th is gone there.
    ['Pacific/Tarawa', '2026-03-10T20:00:00Z', '2026-03-11'],
  ])('a property in %s at %s: today is %s', async (zone, instant, today) => {
    const property = propertyIn(zone);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(instant));
    expect(todayIn(zone, new Date())).toBe(today);
    expect(await status(property, today)).toBe(200);
    expect(await status(property, addDays(today, -1))).toBe(422);
  });
});
