import { describe, expect, it } from 'vitest';
import { clientIp, consumeLimit, visitorLimiter } from '../../src/lib/request/visitor-limits.ts';
import { visitorOf } from '../../src/lib/request/visitor.ts';

function context(headers: Record<string, string>, address?: string) {
  return {
    request: new Request('http://site.test/', { headers }),
    get clientAddress(): string {
      if (address === undefined) throw new Error('no socket address');
      return address;
    },
  };
}

describe('visitor limits', () => {
  it('counts per key and says when to come back', async () => {
    const limiter = visitorLimiter('test:counts', { points: 2, duration: 60 }, undefined);
    expect(await consumeLimit(limiter, 'a')).toEqual({ ok: true });
    expect(await consumeLimit(limiter, 'a')).toEqual({ ok: true });
    const refused = await consumeLimit(limiter, 'a');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    expect(await consumeLimit(limiter, 'b')).toEqual({ ok: true });
  });

  it('gives one limiter per name, whoever asks', () => {
    const first = visitorLimiter('test:shared', { points: 1, duration: 60 }, undefined);
    expect(visitorLimiter('test:shared', { points: 99, duration: 60 }, undefined)).toBe(first);
  });

  it.each([
    [
      'the socket address without a trusted proxy',
      { 'x-forwarded-for': '198.51.100.7' },
      '10.0.0.2',
      false,
      '10.0.0.2',
    ],
    [
      'the forwarded address behind a trusted proxy that sets it',
      { 'x-forwarded-for': '198.51.100.7' },
      '10.0.0.2',
      true,
      '198.51.100.7',
    ],
    [
      // A CDN appends the address it saw to what the visitor sent: the first entry is forged.
      'the address a trusted proxy appended, not the one the visitor sent before it',
      { 'x-forwarded-for': '203.0.113.66, 198.51.100.7' },
      '10.0.0.2',
      true,
      '198.51.100.7',
    ],
    [
      'the address the first of two trusted proxies appended',
      { 'x-forwarded-for': '203.0.113.66, 198.51.100.7, 10.0.0.1' },
      '10.0.0.2',
      2,
      '198.51.100.7',
    ],
    ['the socket address when a trusted proxy sent none', {}, '10.0.0.2', true, '10.0.0.2'],
    [
      'the socket address, not Forwarded or X-Real-IP, behind a trusted proxy',
      { forwarded: 'for=198.51.100.7', 'x-real-ip': '198.51.100.8' },
      '10.0.0.2',
      true,
      '10.0.0.2',
    ],
    ['"unknown" when there is no address at all', {}, undefined, false, 'unknown'],
  ])('takes %s', (_case, headers, address, trustProxy, expected) => {
    expect(clientIp(context(headers, address), trustProxy)).toBe(expected);
  });
});

describe('visitorOf', () => {
  it('believes a trusted proxy about the address, never about being local', () => {
    const proxied = context({ 'x-forwarded-for': '127.0.0.1' }, '127.0.0.1');
    expect(visitorOf(proxied, true)).toEqual({
      address: '127.0.0.1',
      local: false,
      origin: 'http://site.test',
    });
    const forged = context({ 'x-forwarded-for': '198.51.100.7' }, '203.0.113.9');
    expect(visitorOf(forged, false)).toEqual({
      address: '203.0.113.9',
      local: false,
      origin: 'http://site.test',
    });
    expect(visitorOf(context({}, '::1'), true)).toEqual({
      address: '::1',
      local: true,
      origin: 'http://site.test',
    });
  });
});
