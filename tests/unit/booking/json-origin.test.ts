import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import { assertSameOrigin } from '../../../src/lib/booking/api/json.ts';

const ORIGIN = 'https://harbour-times.example';

/** A JSON API call as the site's own page (or someone else) sends it. */
const call = (headers: Record<string, string>) =>
  ({
    request: new Request(`${ORIGIN}/api/booking/bookings`, { method: 'POST', headers }),
    locals: { tenantMatchOrNull: { origin: ORIGIN } },
  }) as unknown as APIContext;

describe('a JSON booking call', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'from the site’s own page with Content-Type %s is let through',
    (type) => {
      expect(() => assertSameOrigin(call({ Origin: ORIGIN, 'Content-Type': type }))).not.toThrow();
    },
  );

  it.each([
    ['another origin', { Origin: 'https://evil.example', 'Content-Type': 'application/json' }],
    ['no origin', { 'Content-Type': 'application/json' }],
    ['a form’s type', { Origin: ORIGIN, 'Content-Type': 'text/plain' }],
  ])('from %s is refused', (_label, headers) => {
    expect(() => assertSameOrigin(call(headers))).toThrow();
  });
});
