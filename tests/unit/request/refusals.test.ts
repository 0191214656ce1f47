import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../src/lib/i18n/index.ts';
import {
  edgeRefusalJson,
  refusalPageRequest,
  urlRefusal,
} from '../../../src/lib/request/refusals.ts';

// The edge's refusals (address too long or doubly escaped, a body refused from its headers, a
// cross-site form) are decided before the tenant: here what each is, and a JSON caller's answer.
describe('edge refusals', () => {
  it('names an address too long, doubly escaped, or fine', () => {
    expect(urlRefusal(`http://x.test/${'a'.repeat(3000)}`)).toBe('too-long');
    expect(urlRefusal('http://x.test/%252E%252E/')).toBe('unreadable-path');
    expect(urlRefusal('http://x.test/caf%C3%A9')).toBeUndefined();
    expect(urlRefusal('http://x.test/posts/a')).toBeUndefined();
  });

  it.each([
    ['too-long', 414, 'too_long', 'Diese Adresse ist zu lang'],
    ['unreadable-path', 400, 'bad_request', 'Diese Adresse konnte nicht gelesen werden'],
    ['cross-site', 403, 'forbidden', 'von einer anderen Website'],
    ['length-required', 411, 'bad_request', 'daher wurde nichts gesendet'],
    ['no-body-allowed', 400, 'bad_request', 'daher wurde nichts gesendet'],
  ] as const)(
    'answers a JSON caller of %s with %i in the booking API’s error shape, in its language',
    async (refusal, status, code, text) => {
      const response = edgeRefusalJson(refusal, createI18n('de-DE', 'Europe/Berlin'));
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as {
        ok: boolean;
        error: { code: string; message: string };
      };
      expect(body.ok).toBe(false);
      expect(body.error.code).toBe(code);
      expect(body.error.message).toContain(text);
    },
  );

  it('closes the connection after refusing an unread body', () => {
    const en = createI18n('en', 'UTC');
    expect(edgeRefusalJson('length-required', en).headers.get('connection')).toBe('close');
    expect(edgeRefusalJson('too-long', en).headers.get('connection')).toBeNull();
  });

  it('renders the refusal page for a GET without the body: a streamed body cancelled unread can be left behind', async () => {
    const streamed = new Request('http://x.test/login?_action=login', {
      method: 'POST',
      body: new ReadableStream({ start: (c) => c.enqueue(new Uint8Array([97])) }),
      duplex: 'half',
      headers: {
        cookie: 'astro-session=abc',
        'accept-language': 'de',
        'content-type': 'text/plain',
      },
    } as RequestInit);
    await streamed.body?.cancel();
    // Astro copies the request of a rewrite to a URL: a cancelled body made that throw (a 500).
    expect(() => streamed.clone()).toThrow();
    const page = refusalPageRequest(streamed, new URL(streamed.url));
    expect(page.url).toBe('http://x.test/400');
    expect(page.method).toBe('GET');
    expect(page.body).toBeNull();
    expect(page.headers.get('cookie')).toBe('astro-session=abc');
    expect(page.headers.get('accept-language')).toBe('de');
    expect(page.headers.get('content-type')).toBeNull();
  });
});
