import { describe, expect, it, vi } from 'vitest';
import { toFailure } from '../../../src/lib/booking/domain/failures.ts';
import { failedLoad } from '../../../src/lib/delivery/policy.ts';
import { redirectLogLines } from '../../../src/lib/log/log.ts';
import {
  ForbiddenError,
  UnauthenticatedError,
  UpstreamServerError,
  ValidationError,
} from '../../../src/lib/upstream/errors.ts';
import { PROPERTY } from '../../fixtures/booking.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// What the widget's JSON says when the lodging API read fails: "try again" (503, Retry-After) only
// for a wait; our own bug is a logged 500, a refused token no promise of a retry.
const ORIGIN = 'https://gazette.example.com';
const tenant = buildTenant({
  features: { booking: true },
  lodging: {
    baseUrl: 'http://lodging.invalid/api/v1',
    tokenEnv: 'X',
    propertyIds: [PROPERTY],
    contact: { phone: '+44 20 7946 0000' },
  },
});
const failure = vi.hoisted(() => ({ error: new Error() }));
vi.mock('../../../src/lib/services/clients.ts', () => ({
  bookingServiceFor: () => ({ tenant, properties: () => Promise.reject(failure.error) }),
}));
const { GET } = await import('../../../src/pages/api/booking/properties.ts');

const lines: string[] = [];
redirectLogLines((line) => lines.push(line));

async function properties(error: Error): Promise<Response> {
  failure.error = error;
  lines.length = 0;
  const request = new Request(`${ORIGIN}/api/booking/properties`);
  const match = { tenant, via: 'host', basePath: '', pathname: '/', origin: ORIGIN };
  const locals = { tenant, tenantMatchOrNull: match, href: (p: string) => p, requestId: 'test' };
  return GET({ request, url: new URL(request.url), locals, params: {} } as never);
}

const context = { service: 'lodging', operation: 'listProperties' } as const;
type Body = {
  ok: false;
  error: { code: string; message: string; retryAfter?: number; contact?: unknown };
};

describe('the booking JSON when the lodging API cannot be read', () => {
  it('down: 503 with its wait, and "try again"', async () => {
    const answer = await properties(new UpstreamServerError('down', { ...context, status: 503 }));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toBe('30');
  });

  it('our own bug: a 500 promising no wait, logged with its stack', async () => {
    const answer = await properties(new TypeError("Cannot read properties of null (reading 'id')"));
    expect(answer.status).toBe(500);
    expect(answer.headers.get('Retry-After')).toBeNull();
    expect(((await answer.json()) as Body).error.retryAfter).toBeUndefined();
    expect(lines.join('\n')).toMatch(/"stack":"TypeError: Cannot read properties of null/);
  });

  it.each([
    ['401', new UnauthenticatedError('refused', { ...context, status: 401 })],
    ['403', new ForbiddenError('refused', { ...context, status: 403 })],
  ])(
    'the site’s token refused (%s): book directly, with the tenant’s contact',
    async (_, error) => {
      const answer = await properties(error);
      expect(answer.headers.get('Retry-After')).toBeNull();
      const body = (await answer.json()) as Body;
      expect(body.error.code).not.toMatch(/^(unavailable|busy)$/);
      expect(body.error.message).not.toMatch(/try again/i);
      expect(body.error.message).toMatch(/contact us to book: \+44 20 7946 0000/);
      expect(body.error.contact).toEqual({ phone: '+44 20 7946 0000' });
      expect(lines.join('\n')).toContain('booking.failed');
    },
  );

  it('a bug is no outage on a booking page either (a 500 there, not a 503)', () => {
    const mapped = toFailure(new TypeError('x'), { tenant: tenant.id, operation: 'property' });
    expect(() => failedLoad(mapped)).toThrow();
  });
});

describe('a lodging 422 on the widget’s fields', () => {
  it('names each field as the form does; a room refused is gone, anything else is the form’s', () => {
    const context = { service: 'lodging' as const, operation: 'bookings.create', status: 422 };
    const upstream = {
      check_in: ['Bad day.'],
      first_name: ['Too long.'],
      guests: ['Too many.'],
      full_name: ['Missing.'],
      room_type_id: ['Taken.'],
      idempotency_key: ['Odd.'],
      loyalty_card: ['Unknown.'],
    };
    const mapped = toFailure(new ValidationError('422', context, upstream), {
      tenant: tenant.id,
      operation: 'book',
    });
    expect(mapped.error.fields).toEqual({
      checkIn: ['Bad day.'],
      firstName: ['Too long.'],
      adults: ['Too many.'],
      lastName: ['Missing.'],
      roomTypeId: [expect.stringContaining('booking.error.roomGone')],
      form: ['Unknown.'],
    });
  });
});
