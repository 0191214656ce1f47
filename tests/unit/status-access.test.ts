import { describe, expect, it } from 'vitest';
import { mayReadStatus, statusResponse } from '../../src/lib/delivery/status-access.ts';

const base = {
  clientAddress: '203.0.113.9',
  forwardedFor: null,
  authorization: null,
  statusToken: undefined,
};

describe('/_status access', () => {
  it.each([
    ['a direct local IPv4 request', { clientAddress: '127.0.0.1' }, true],
    ['a direct local IPv6 request', { clientAddress: '::1' }, true],
    ['a remote request', {}, false],
    [
      'a local socket carrying a proxy header',
      { clientAddress: '127.0.0.1', forwardedFor: '198.51.100.4' },
      false,
    ],
    [
      'the right bearer token from anywhere',
      { authorization: 'Bearer s3cret-token', statusToken: 's3cret-token' },
      true,
    ],
    ['a wrong bearer token', { authorization: 'Bearer nope', statusToken: 's3cret-token' }, false],
    ['a token when none is configured', { authorization: 'Bearer anything' }, false],
  ])('%s → %s', (_case, overrides, expected) => {
    expect(mayReadStatus({ ...base, ...overrides })).toBe(expected);
  });
});

describe('/_status answer', () => {
  it('gives operators the upstream counters, uncached', async () => {
    const response = statusResponse({ ...base, clientAddress: '127.0.0.1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toHaveProperty('totals');
  });

  it('refuses anyone else without saying more', async () => {
    const response = statusResponse(base);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Forbidden' });
  });
});
