import { expect, test, type APIRequestContext } from '@playwright/test';
import { day } from '../fixtures/dates.ts';

// The same journeys against a lodging and publishing API that fills the contracts' silences the
// other way (docs/api-assumptions.md, "Dialects"): bare resources, cursor pages, decimal numbers,
// address objects, `tentative` bookings, GBP, nightly rates, `featured_image` objects.
const SITE = 'http://127.0.0.1:4600';
const CONTROL = 'http://127.0.0.1:4609';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const site = (tenant: string, path: string) => `${SITE}/${tenant}${path}`;

/** A date `days` after today (UTC), clear of the seeded bookings. */

interface Room {
  roomTypeId: string;
  available: boolean;
  totalPrice: number;
  nightly: number[] | null;
  currency: string;
}

async function bookingsCreated(request: APIRequestContext): Promise<number> {
  const stats = (await (await request.get(`${CONTROL}/stats`)).json()) as {
    lodging: { routes: Record<string, number> };
  };
  return stats.lodging.routes['POST /bookings'] ?? 0;
}

async function firstFreeRoom(request: APIRequestContext, checkIn: string, checkOut: string) {
  const params = new URLSearchParams({ property: HARBOUR_VIEW, checkIn, checkOut, adults: '2' });
  const response = await request.get(site('harbour-times', `/api/booking/availability?${params}`));
  expect(response.status(), await response.text()).toBe(200);
  const { data } = (await response.json()) as { data: { rooms: Room[] } };
  const room = data.rooms.find((r) => r.available);
  expect(room, 'a free room').toBeDefined();
  return room as Room;
}

function book(
  request: APIRequestContext,
  details: { key: string; roomTypeId: string; checkIn: string; checkOut: string; email: string },
) {
  return request.post(site('harbour-times', '/api/booking/bookings'), {
    headers: { Origin: SITE },
    data: {
      idempotencyKey: details.key,
      propertyId: HARBOUR_VIEW,
      roomTypeId: details.roomTypeId,
      checkIn: details.checkIn,
      checkOut: details.checkOut,
      adults: 2,
      children: 0,
      firstName: 'Alma',
      lastName: 'Alternative',
      email: details.email,
      // The alt API requires a phone number.
      phone: '+44 20 7946 0958',
      nationality: 'GB',
      notes: '',
    },
  });
}

test.beforeAll(async ({ request }) => {
  expect((await request.post(`${CONTROL}/reset`)).ok()).toBe(true);
});

test.afterEach(async ({ request }) => {
  await request.delete(`${CONTROL}/faults`);
});

test('reading pages render, with the covers given as featured_image objects', async ({ page }) => {
  const response = await page.goto(site('daily-planet', '/'));
  expect(response?.status()).toBe(200);
  await expect(page.locator('main img').first()).toBeVisible();
  await page.locator('main article a').first().click();
  await expect(page.locator('main h1')).toBeVisible();
});

test('a booking reads as "request received" in GBP, its total the sum of the nightly rates', async ({
  request,
}) => {
  // Thursday to Sunday: the weekend nights cost more.
  const start = new Date(Date.now() + 220 * 86_400_000);
  const thursday = (4 - start.getUTCDay() + 7) % 7;
  const checkIn = day(220 + thursday);
  const checkOut = day(223 + thursday);
  const room = await firstFreeRoom(request, checkIn, checkOut);
  expect(room.currency).toBe('GBP');
  expect(room.nightly).toHaveLength(3);
  expect(room.totalPrice).toBeCloseTo(
    (room.nightly ?? []).reduce((a, b) => a + b, 0),
    2,
  );

  const response = await book(request, {
    key: `alt-${Date.now()}-journey`,
    roomTypeId: room.roomTypeId,
    checkIn,
    checkOut,
    email: `alma.${Date.now()}@example.com`,
  });
  expect(response.status(), await response.text()).toBe(200);
  const { data } = (await response.json()) as {
    data: { status: string; statusKind: string; totalPrice: number; currency: string };
  };
  expect(data.status).toBe('tentative');
  expect(data.statusKind).toBe('received');
  expect(data.currency).toBe('GBP');
  expect(data.totalPrice).toBeCloseTo(room.totalPrice, 2);
});

test('"saved, then 500" is confirmed at once, and Try again leaves exactly one booking', async ({
  request,
}) => {
  const checkIn = day(240);
  const checkOut = day(242);
  const room = await firstFreeRoom(request, checkIn, checkOut);
  const details = {
    key: `alt-${Date.now()}-retry`,
    roomTypeId: room.roomTypeId,
    checkIn,
    checkOut,
    email: `retry.${Date.now()}@example.com`,
  };
  const before = await bookingsCreated(request);
  await request.post(`${CONTROL}/faults`, {
    data: {
      service: 'lodging',
      savedThen500: true,
      savedThen500Route: 'POST /bookings',
      savedThen500Times: 1,
    },
  });
  // The API's own 500 comes after its work: the booking it stored is found and confirmed.
  const first = await book(request, details);
  expect(first.status(), await first.text()).toBe(200);
  const retry = await book(request, details);
  expect(retry.status(), await retry.text()).toBe(200);
  const reference = (answer: typeof first) =>
    answer.json().then((body: { data: { reference: string } }) => body.data.reference);
  expect(await reference(retry)).toBe(await reference(first));
  expect(await bookingsCreated(request)).toBe(before + 1);
});
