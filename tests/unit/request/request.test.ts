import { describe, expect, it } from 'vitest';
import {
  isNonFormActionBody,
  judgeBody,
  MAX_BODY_BYTES,
} from '../../../src/lib/request/body-limit.ts';
import { edgeRefusalJson } from '../../../src/lib/request/refusals.ts';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import { isCrossSiteFormPost } from '../../../src/lib/request/host-guard.ts';
import {
  forwardedHost,
  isValidHost,
  publicOrigin,
} from '../../../src/lib/request/public-origin.ts';

const url = new URL('http://10.0.0.5:4321/login');
const proxied = new Headers({
  'x-forwarded-host': 'news.example.com',
  'x-forwarded-proto': 'https',
});

describe('public origin', () => {
  it('is the forwarded host and scheme only behind a trusted proxy', () => {
    expect(publicOrigin(url, proxied, true)).toBe('https://news.example.com');
    expect(publicOrigin(url, proxied, false)).toBe('http://10.0.0.5:4321');
  });

  // A load balancer that ends TLS and passes Host on as it came (AWS ALB, Heroku, Cloud Run)
  // sends X-Forwarded-Proto alone: the browser's origin is https on that host.
  it('takes the forwarded scheme with the request’s own host when no host is forwarded', () => {
    const lb = new URL('http://news.example.com/login');
    const headers = new Headers({ 'x-forwarded-proto': 'https' });
    expect(publicOrigin(lb, headers, true)).toBe('https://news.example.com');
    expect(publicOrigin(lb, headers, false)).toBe('http://news.example.com');
    // So the https page's own login form is not refused as a cross-site post.
    const login = new Request('http://news.example.com/login?_action=login', {
      method: 'POST',
      headers: { ...Object.fromEntries(headers), origin: 'https://news.example.com' },
      body: new URLSearchParams({ email: 'a@b.example' }),
    });
    expect(isCrossSiteFormPost(login, publicOrigin(lb, headers, true))).toBe(false);
  });

  it.each(['evil@news.example.com', 'news.example.com/path', 'a b', ''])(
    'ignores a forwarded host that is not a plain host: %j',
    (host) => {
      const headers = new Headers({ 'x-forwarded-host': host });
      expect(forwardedHost(headers, true)).toBeUndefined();
      expect(publicOrigin(url, headers, true)).toBe('http://10.0.0.5:4321');
    },
  );

  it('accepts host names with ports and IPv6 literals', () => {
    expect(isValidHost('news.example.com:8443')).toBe(true);
    expect(isValidHost('[::1]:4321')).toBe(true);
    expect(isValidHost('evil@news.example.com')).toBe(false);
  });
});

function post(headers: Record<string, string>, body: string | null = 'a=b'): Request {
  return new Request('http://10.0.0.5:4321/login?_action=login', { method: 'POST', headers, body });
}

describe('origin check', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('lets a form from the public origin through behind a proxy that rewrote Host', () => {
    const request = post({ ...form, origin: 'https://news.example.com' });
    expect(isCrossSiteFormPost(request, 'https://news.example.com')).toBe(false);
  });

  it.each([
    ['a form from another site', { ...form, origin: 'https://evil.example' }],
    ['a form without Origin', form],
    [
      'text/plain from another site',
      { 'content-type': 'text/plain', origin: 'https://evil.example' },
    ],
  ])('refuses %s', (_case, headers) => {
    expect(isCrossSiteFormPost(post(headers), 'https://news.example.com')).toBe(true);
  });

  it('leaves JSON and safe methods alone, like Astro', () => {
    const json = post({ 'content-type': 'application/json', origin: 'https://evil.example' }, '{}');
    expect(isCrossSiteFormPost(json, 'https://news.example.com')).toBe(false);
    expect(isCrossSiteFormPost(new Request(url), 'https://news.example.com')).toBe(false);
  });
});

describe('body limit', () => {
  it.each([
    ['a small form', { 'content-length': '3' }, 'ok'],
    [
      'a declared size above the limit',
      { 'content-length': String(MAX_BODY_BYTES + 1) },
      'too-large',
    ],
    ['a nonsense length', { 'content-length': 'lots' }, 'too-large'],
    ['a streamed body without a length', {}, 'length-required'],
  ] as const)('judges %s', (_case, headers, verdict) => {
    expect(judgeBody(post(headers))).toBe(verdict);
  });

  it.each(['GET', 'HEAD', 'DELETE', 'OPTIONS'])(
    'refuses a body announced on %s (Node would read it all to keep the connection)',
    (method) => {
      const announced = (headers: Record<string, string>) =>
        judgeBody(new Request('http://10.0.0.5:4321/', { method, headers }));
      expect(announced({ 'content-length': String(50 * 1024 * 1024) })).toBe('no-body-allowed');
      expect(announced({ 'content-length': '1' })).toBe('no-body-allowed');
      expect(announced({ 'transfer-encoding': 'chunked' })).toBe('no-body-allowed');
      expect(announced({ 'content-length': '0' })).toBe('ok');
      expect(announced({})).toBe('ok');
    },
  );

  it('refuses a body that is not a form to an action: every action takes a form', () => {
    const sent = (path: string, type?: string, method = 'POST') =>
      isNonFormActionBody(
        new Request(`http://10.0.0.5:4321${path}`, {
          method,
          headers: type ? { 'content-type': type } : {},
          // Bytes: a string body would bring its own type (text/plain).
          ...(method === 'POST' ? { body: new Uint8Array([120]) } : {}),
        }),
      );
    expect(sent('/_actions/login', 'application/json')).toBe(true);
    expect(sent('/daily-planet/login?_action=login', 'text/plain;charset=UTF-8')).toBe(true);
    expect(sent('/_actions/login', 'Multipart/Form-Data; boundary=x')).toBe(false);
    expect(sent('/login?_action=login', 'application/x-www-form-urlencoded')).toBe(false);
    // No type: Astro reads no input (the action's own messages); JSON elsewhere: the booking API.
    expect(sent('/_actions/login')).toBe(false);
    expect(sent('/api/booking/bookings', 'application/json')).toBe(false);
    expect(sent('/_actions/login?x', 'application/json', 'GET')).toBe(false);
  });

  it('answers a JSON caller of a too large body in the booking API’s error shape, in its language', async () => {
    const json = edgeRefusalJson('too-large', createI18n('de-DE', 'Europe/Berlin'));
    expect(json.status).toBe(413);
    expect(json.headers.get('connection')).toBe('close');
    expect(json.headers.get('cache-control')).toBe('no-store');
    expect(await json.json()).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message:
          'Ihre Eingaben waren zu lang zum Senden, daher wurde nichts gesendet. Bitte kürzen Sie sie und versuchen Sie es noch einmal.',
      },
    });
  });
});
