import { expect, test, type APIRequestContext } from '@playwright/test';
import { day } from '../fixtures/dates.ts';
import { E2E_PORT } from './helpers.ts';

// The manage link's token is the key to a booking: no request the manage page makes (its styles,
// icon, the .ics) may carry it in a Referer, where the edge's access log or another site would see it.

const HARBOUR = 'harbour-times';
const HARBOUR_VIEW = 'f288dd17-9e1e-5421-8b43-5674c8a96975';
const SITE = `http://127.0.0.1:${E2E_PORT}`;
const siteUrl = (path: string) => `${SITE}/${HARBOUR}${path}`;

/** A booking made through the site's own JSON endpoints; its private manage path (under the prefix). */
async function bookAndManagePath(request: APIRequestContext): Promise<string> {
  // Within the booking horizon (two years), on nights no other spec books at this property.
  const offset = 510 + Math.floor(Math.random() * 90);
  const stay = { checkIn: day(offset), checkOut: day(offset + 1), adults: 1, children: 0 };
  const query = new URLSearchParams({
    property: HARBOUR_VIEW,
    ...stay,
    adults: '1',
    children: '0',
  });
  const offers = await request.get(siteUrl(`/api/booking/availability?${query.toString()}`));
  expect(offers.ok(), await offers.text()).toBe(true);
  const { data } = (await offers.json()) as {
    data: { rooms: { roomTypeId: string; available: boolean }[] };
  };
  const room = data.rooms.find((offer) => offer.available);
  expect(room, 'a free room').toBeTruthy();
  const booked = await request.post(siteUrl('/api/booking/bookings'), {
    headers: { Origin: SITE },
    data: {
      idempotencyKey: `referrer${Date.now()}abcdefgh`,
      propertyId: HARBOUR_VIEW,
      roomTypeId: room!.roomTypeId,
      ...stay,
      firstName: 'Rita',
      lastName: 'Referrer',
      email: `rita.${Date.now()}@example.com`,
      phone: '',
      nationality: '',
      notes: '',
    },
  });
  expect(booked.ok(), await booked.text()).toBe(true);
  const { data: confirmation } = (await booked.json()) as { data: { manageUrl: string } };
  // An absolute link on the tenant's own host (never the address this request used).
  const link = new URL(confirmation.manageUrl);
  expect(link.origin).toBe(`http://${HARBOUR}.localhost:${E2E_PORT}`);
  return `/${HARBOUR}${link.pathname}`;
}

test('the manage page and its .ics send only their origin as referrer; no request carries the token', async ({
  page,
  request,
}) => {
  const managePath = await bookAndManagePath(request);
  const token = managePath.split('/').pop() ?? '';
  expect(token).toMatch(/\./);

  const referers: string[] = [];
  page.on('request', (sent) => {
    const referer = sent.headers()['referer'];
    if (referer) referers.push(`${sent.url()} ← ${referer}`);
  });
  const response = await page.goto(`${SITE}${managePath}`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['referrer-policy']).toBe('strict-origin');
  await page.waitForLoadState('networkidle');
  // The page's styles and icon were asked for, without the token (before: in every Referer).
  const leaked = referers.filter((line) => line.includes(token));
  expect(leaked).toEqual([]);

  const ics = await request.get(`${SITE}${managePath}/calendar.ics`);
  expect(ics.status()).toBe(200);
  expect(ics.headers()['referrer-policy']).toBe('strict-origin');
});
