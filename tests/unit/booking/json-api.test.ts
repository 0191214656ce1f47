import type { APIRoute } from 'astro';
import { describe, expect, it, vi } from 'vitest';
import { PROPERTY, confirmation } from '../../fixtures/booking.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// The booking JSON API as a partner's server calls it: wrong methods, wrong types, the manage link.
const ORIGIN = 'https://gazette.example.com';
const tenant = buildTenant({
  locale: 'de-DE',
  features: { booking: true },
  lodging: { baseUrl: 'http://lodging.invalid/api/v1', tokenEnv: 'X', propertyIds: [PROPERTY] },
});

vi.mock('../../../src/lib/services/clients.ts', () => ({
  bookingServiceFor: () => ({
    tenant,
    book: () => Promise.resolve(confirmation),
    mailConfirmation: () => Promise.resolve(false),
  }),
}));

const routes: Record<string, Record<string, APIRoute>> = {
  availability: await import('../../../src/pages/api/booking/availability.ts'),
  bookings: await import('../../../src/pages/api/booking/bookings.ts'),
  properties: await import('../../../src/pages/api/booking/properties.ts'),
};

/** One call routed as Astro routes it: the method's own export, else `ALL`, else a bare 404. */
async function call(route: string, method: string, body?: unknown): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/booking/${route}`, {
    method,
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const match = { tenant, via: 'host', basePath: '', pathname: '/', origin: ORIGIN };
  const locals = {
    tenant,
    tenantMatchOrNull: match,
    href: (path: string) => path,
    visitor: { address: '203.0.113.7' },
    requestId: 'test',
  };
  const handler = routes[route]![method] ?? routes[route]!['ALL'];
  if (!handler) return new Response(null, { status: 404 });
  return handler({ request, url: new URL(request.url), locals, params: {} } as never);
}

const stay = {
  idempotencyKey: 'k'.repeat(32),
  propertyId: PROPERTY,
  roomTypeId: 'double',
  checkIn: '2099-03-28',
  checkOut: '2099-03-30',
  adults: 2,
  children: 0,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
};

describe('a booking endpoint asked with a method it does not take', () => {
  it.each([
    ['availability', 'POST', 'GET, HEAD'],
    ['properties', 'DELETE', 'GET, HEAD'],
    ['bookings', 'GET', 'POST'],
    ['bookings', 'PUT', 'POST'],
  ])('%s %s is a JSON 405 naming the methods it takes (%s)', async (route, method, allow) => {
    const answer = await call(route, method);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('Allow')).toBe(allow);
    expect(answer.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({
      ok: false,
      error: { code: 'method_not_allowed', message: 'Diese Anfrage ist nicht erlaubt.' },
    });
  });
});

describe('a booking posted with values of the wrong type', () => {
  it.each([
    [
      'a word for a number',
      { adults: 'two' },
      'adults',
      'Geben Sie die Zahl der Erwachsenen als ganze Zahl ein.',
    ],
    ['a number for the phone', { phone: 5 }, 'phone', /internationalen Format/],
    [
      'a number for the country',
      { nationality: 5 },
      'nationality',
      'Wählen Sie ein Land aus der Liste.',
    ],
    ['a number for the notes', { notes: 5 }, 'notes', 'Bitte prüfen Sie Ihre Angaben.'],
    ['a number for the key', { idempotencyKey: 5 }, 'idempotencyKey', /Idempotenzschlüssel/],
    ['a phone too long', { phone: '1'.repeat(50) }, 'phone', /internationalen Format/],
    ['a field it does not know', { guests: 'two' }, 'form', 'Bitte prüfen Sie Ihre Angaben.'],
  ])('(%s) is refused in the tenant’s language', async (_label, change, field, message) => {
    const answer = await call('bookings', 'POST', { ...stay, ...change });
    expect(answer.status).toBe(422);
    const { error } = (await answer.json()) as { error: { fields: Record<string, string[]> } };
    expect(Object.keys(error.fields)).toEqual([field]);
    expect(error.fields[field]![0]).toMatch(message);
  });

  it('a body that is not an object is refused in the tenant’s language', async () => {
    const answer = await call('bookings', 'POST', []);
    expect(answer.status).toBe(422);
    const { error } = (await answer.json()) as { error: { fields: Record<string, string[]> } };
    expect(error.fields).toEqual({ form: ['Bitte prüfen Sie Ihre Angaben.'] });
  });
});

describe('a booking made through the JSON API', () => {
  it('answers its manage link as an absolute address on the tenant’s own origin', async () => {
    const answer = await call('bookings', 'POST', stay);
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: { manageUrl: string } };
    expect(data.manageUrl).toMatch(/^https:\/\/gazette\.example\.com\/stay\/manage\/[^/]+$/);
  });
});
