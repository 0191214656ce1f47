import { expect, test } from '@playwright/test';
import { E2E_PORT } from './helpers.ts';
import { day } from '../fixtures/dates.ts';

// One schema decides what a booking request may hold (src/lib/booking/domain/schema.ts): the form posted
// without JavaScript (the `bookStay` action) and the widget's JSON API refuse the same input alike.

const SITE = `http://127.0.0.1:${E2E_PORT}`;
const STAY = `${SITE}/harbour-times/stay`;
const TOO_LONG = 'Keep the first name under 100 characters.';

const request300 = () => ({
  idempotencyKey: `limits${Date.now()}abcdefgh`,
  propertyId: 'f288dd17-9e1e-5421-8b43-5674c8a96975',
  roomTypeId: 'd8d28b5c-3ea5-5c0b-80f4-c1a0fa8af222',
  checkIn: day(260),
  checkOut: day(262),
  adults: '2',
  children: '0',
  firstName: 'A'.repeat(300),
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '',
  nationality: '',
  notes: '',
});

test('a first name of 300 characters is refused with a field message by the JSON API', async ({
  request,
}) => {
  const { adults, children, ...rest } = request300();
  const response = await request.post(`${SITE}/harbour-times/api/booking/bookings`, {
    headers: { Origin: SITE },
    data: { ...rest, adults: Number(adults), children: Number(children) },
  });
  expect(response.status()).toBe(422);
  const body = (await response.json()) as { error: { fields: Record<string, string[]> } };
  expect(body.error.fields).toEqual({ firstName: [TOO_LONG] });
});

test('a first name of 300 characters is refused with a field message by the form', async ({
  request,
}) => {
  const response = await request.post(`${STAY}?_action=bookStay`, {
    headers: { Origin: SITE },
    form: { intent: 'review', ...request300() },
  });
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain(TOO_LONG);
  // The typed values come back (the form is not emptied by a refusal).
  expect(html).toContain('Lovelace');
});
