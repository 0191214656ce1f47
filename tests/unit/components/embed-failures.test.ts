import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { describe, expect, it, vi } from 'vitest';
import {
  BookingFailure,
  busy,
  invalid,
  placeNotFound,
  unavailable,
} from '../../../src/lib/booking/domain/failures.ts';
import { PROPERTY } from '../../fixtures/booking.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// The framed widget answers a failed read as /stay does (`loadOrRespond`): 404 for a place gone,
// 503 with `Retry-After` while booking is down or busy, and anything else is no 503 (a 500).
const tenant = buildTenant({
  id: 'harbour-times',
  features: { booking: true },
  lodging: { baseUrl: 'https://lodging.example/api/v1', tokenEnv: 'T', propertyIds: [PROPERTY] },
});
let failure: BookingFailure = busy('busy', 1);

vi.mock('../../../src/lib/services/clients.ts', () => ({
  bookingServiceFor: () => ({ tenant, property: () => Promise.reject(failure) }),
}));
const { default: EmbedBooking } = await import('../../../src/pages/embed/booking.astro');

async function embed(failed: BookingFailure): Promise<Response> {
  failure = failed;
  const container = await AstroContainer.create();
  const url = `https://harbour.example/embed/booking?property=${PROPERTY}`;
  const match = { tenant, via: 'host', basePath: '', pathname: '/embed/booking', origin: url };
  return container.renderToResponse(EmbedBooking, {
    request: new Request(url),
    locals: {
      tenant,
      tenantMatchOrNull: match,
      href: (path: string) => path,
      visitor: { address: '127.0.0.1', local: true, origin: 'http://harbour-times.localhost' },
    } as unknown as App.Locals,
  });
}

describe('the embedded booking page when the lodging API fails', () => {
  it.each([
    ['down', unavailable('down', 30), '30'],
    ['busy', busy('busy', 7), '7'],
  ])('answers 503 with Retry-After while it is %s', async (_, failed, wait) => {
    const answer = await embed(failed);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('Retry-After')).toBe(wait);
    expect(await answer.text()).toContain('Book at');
  });

  it('answers 404 for a place the lodging API no longer has', async () => {
    const answer = await embed(placeNotFound());
    expect(answer.status).toBe(404);
    expect(answer.headers.get('Retry-After')).toBeNull();
  });

  it('promises no retry for an answer waiting cannot fix (a 500, as on /stay)', async () => {
    await expect(embed(invalid({ propertyId: ['x'] }))).rejects.toThrow();
  });
});
