import { describe, expect, it } from 'vitest';
import { frameAncestorsOf } from '../../../src/lib/booking/embed/settings.ts';
import { setFraming } from '../../../src/lib/request/framing.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const PAGE_POLICY = "default-src 'self'; script-src 'self'";
const tenant = buildTenant({
  lodging: {
    baseUrl: 'https://lodging.example.com/api/v1',
    propertyIds: ['f288dd17-9e1e-5421-8b43-5674c8a96975'],
    allowedEmbedOrigins: ['https://partner.example'],
  },
});

function framed(policy: string | null, embedAncestors: string | undefined, pathname: string) {
  const headers = new Headers(policy ? { 'Content-Security-Policy': policy } : {});
  setFraming(headers, embedAncestors, pathname);
  return {
    xfo: headers.get('X-Frame-Options'),
    ancestors: /frame-ancestors ([^;]*)/.exec(headers.get('Content-Security-Policy') ?? '')?.[1],
  };
}

describe('who may frame a response', () => {
  it('the embed’s ancestors: its own origin and the tenant’s partners', () => {
    expect(frameAncestorsOf(tenant)).toBe("'self' https://partner.example");
  });

  it('an error page answering a post inside the embed frame (413, 421, 400) is framable as the embed is', () => {
    // The request was to /embed/booking; the middleware rewrote it to /413.
    expect(framed(PAGE_POLICY, frameAncestorsOf(tenant), '/413')).toEqual({
      xfo: null,
      ancestors: "'self' https://partner.example",
    });
  });

  it('adds the directive to Astro’s policy as one more directive', () => {
    const headers = new Headers({ 'Content-Security-Policy': `${PAGE_POLICY};` });
    setFraming(headers, "'self'", '/413');
    expect(headers.get('Content-Security-Policy')).toBe(`${PAGE_POLICY}; frame-ancestors 'self'`);
  });

  it('the embed page keeps the frame-ancestors it set', () => {
    const policy = `${PAGE_POLICY}; frame-ancestors 'self' https://partner.example`;
    const headers = new Headers({ 'Content-Security-Policy': policy });
    setFraming(headers, frameAncestorsOf(tenant), '/embed/booking');
    expect(headers.get('Content-Security-Policy')).toBe(policy);
    expect(headers.get('X-Frame-Options')).toBeNull();
  });

  it('any other page, error pages included, is framed by nobody', () => {
    expect(framed(PAGE_POLICY, undefined, '/413')).toEqual({ xfo: 'DENY', ancestors: undefined });
    expect(framed(PAGE_POLICY, undefined, '/posts/a')).toEqual({
      xfo: 'DENY',
      ancestors: undefined,
    });
  });
});
