import { describe, expect, it } from 'vitest';
import {
  metricsResponse,
  operatorAccess,
  statusResponse,
} from '../../src/lib/delivery/status-access.ts';
import { visitorOf } from '../../src/lib/request/visitor.ts';
import { GUESSES_PER_WINDOW } from '../../src/lib/request/secret-attempts.ts';

const TOKEN = 'status-token-of-the-unit-tests-0123456789';

function input(headers: Record<string, string> = {}, clientAddress = '203.0.113.9') {
  const request = new Request('http://localhost/_status', { headers });
  const { local } = visitorOf({ request, clientAddress }, false);
  return { local, headers: request.headers, token: TOKEN, redisUrl: undefined };
}

describe('/_status and /_metrics access', () => {
  it.each([
    ['a direct local IPv4 request', {}, '127.0.0.1', 'allowed'],
    ['a direct local IPv6 request', {}, '::1', 'allowed'],
    ['a remote request', {}, '203.0.113.9', 'forbidden'],
    [
      'a local socket with X-Forwarded-For',
      { 'X-Forwarded-For': '198.51.100.4' },
      '127.0.0.1',
      'forbidden',
    ],
    ['a local socket with Forwarded', { Forwarded: 'for=198.51.100.4' }, '127.0.0.1', 'forbidden'],
    ['a local socket with X-Real-IP', { 'X-Real-IP': '198.51.100.4' }, '127.0.0.1', 'forbidden'],
    ['a local socket with X-Real-IP 127.0.0.1', { 'X-Real-IP': '127.0.0.1' }, '::1', 'forbidden'],
    [
      'the right token from anywhere',
      { Authorization: `Bearer ${TOKEN}` },
      '203.0.113.9',
      'allowed',
    ],
    ['a wrong token', { Authorization: 'Bearer nope' }, '203.0.113.9', 'forbidden'],
    [
      'a token one character short',
      { Authorization: `Bearer ${TOKEN.slice(1)}` },
      '203.0.113.9',
      'forbidden',
    ],
  ])('%s → %s', async (_case, headers, address, expected) => {
    expect(await operatorAccess('status', input(headers, address))).toBe(expected);
  });

  it('refuses any token when none is configured', async () => {
    const request = { ...input({ Authorization: `Bearer ${TOKEN}` }), token: undefined };
    expect(await operatorAccess('status', request)).toBe('forbidden');
  });

  it('limits wrong metrics tokens from all addresses together, then refuses even the right one', async () => {
    for (let i = 0; i < GUESSES_PER_WINDOW; i += 1) {
      const guess = input({ Authorization: `Bearer guess-${i}` }, `198.51.100.${i + 1}`);
      expect((await metricsResponse({ ...guess })).status).toBe(403);
    }
    const late = await metricsResponse(input({ Authorization: 'Bearer one-more' }, '192.0.2.1'));
    expect(late.status).toBe(429);
    expect(Number(late.headers.get('retry-after'))).toBeGreaterThan(60);
    const right = await metricsResponse(input({ Authorization: `Bearer ${TOKEN}` }, '192.0.2.2'));
    expect(right.status).toBe(429);
    // Local scrapes need no token and still work; /_status counts its own guesses.
    expect((await metricsResponse(input({}, '127.0.0.1'))).status).toBe(200);
    expect(await operatorAccess('status', input({ Authorization: `Bearer ${TOKEN}` }))).toBe(
      'allowed',
    );
  });

  it('never counts the right token against the limit', async () => {
    for (let i = 0; i < GUESSES_PER_WINDOW * 2; i += 1) {
      const right = input({ Authorization: `Bearer ${TOKEN}` });
      expect(await operatorAccess('status', right)).toBe('allowed');
    }
  });
});

describe('/_status answer', () => {
  it('gives operators the upstream counters, uncached', async () => {
    const response = await statusResponse(input({}, '127.0.0.1'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toHaveProperty('totals');
  });

  it('refuses anyone else without saying more', async () => {
    const response = await statusResponse(input());
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Forbidden' });
  });
});
