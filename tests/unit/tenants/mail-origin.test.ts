import { describe, expect, it } from 'vitest';
import { mailOrigin } from '../../../src/lib/tenants/mail-origin.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenant = buildTenant({
  id: 'harbour-times',
  hosts: ['harbourtimes.example.com', 'www.harbourtimes.example.com', '*.harbour.example'],
});
const local = buildTenant({
  id: 'alpine-post',
  hosts: ['alpine-post.localhost', 'alpine.example'],
});

describe('the origin of links in e-mail: the tenant’s configured hosts, never the request’s', () => {
  it.each([
    // The host a visitor used is kept only when it is one of the tenant's exact names.
    ['https://www.harbourtimes.example.com', 'https://www.harbourtimes.example.com'],
    ['https://harbourtimes.example.com', 'https://harbourtimes.example.com'],
    // A forged Host or X-Forwarded-Host (the tenant came from a path prefix or ?tenant=).
    ['http://evil.example', 'https://harbourtimes.example.com'],
    ['https://harbourtimes.example.com.evil.example', 'https://harbourtimes.example.com'],
    ['http://evil.example:8080', 'https://harbourtimes.example.com'],
    // A wildcard name is not the tenant's to mail (anyone's subdomain may match it).
    ['https://news.harbour.example', 'https://harbourtimes.example.com'],
    // Over http or another port: the link is still https on the standard port.
    ['http://harbourtimes.example.com:8443', 'https://harbourtimes.example.com'],
    ['not a url', 'https://harbourtimes.example.com'],
  ])('visited as %s → %s', (origin, expected) => {
    expect(mailOrigin({ tenant, origin })).toBe(expected);
  });

  it('development names (*.localhost) are http and keep the local port', () => {
    expect(mailOrigin({ tenant: local, origin: 'http://alpine-post.localhost:4400' })).toBe(
      'http://alpine-post.localhost:4400',
    );
    // By path prefix on localhost: the tenant's own name, the local port.
    expect(mailOrigin({ tenant: local, origin: 'http://localhost:4321' })).toBe(
      'http://alpine-post.localhost:4321',
    );
    // A forged host's port is not kept.
    expect(mailOrigin({ tenant: local, origin: 'http://evil.example:9999' })).toBe(
      'http://alpine-post.localhost',
    );
  });

  it('a tenant with only wildcard names has nothing to mail: null', () => {
    const wild = buildTenant({ id: 'wild', hosts: ['*.wild.example'] });
    expect(mailOrigin({ tenant: wild, origin: 'https://a.wild.example' })).toBeNull();
  });
});
