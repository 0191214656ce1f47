import { describe, expect, it } from 'vitest';
import { tenantOrigin, tenantUrl } from '../../../src/lib/tenants/origin.ts';
import { TenantsFileSchema } from '../../../src/lib/tenants/schema.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

const tenant = buildTenant({
  id: 'harbour-times',
  hosts: ['harbourtimes.example.com', 'www.harbourtimes.example.com', '*.harbour.example'],
});
const local = buildTenant({
  id: 'alpine-post',
  hosts: ['alpine-post.localhost', 'alpine.example'],
});

describe('the origin of every absolute link: the tenant’s configured hosts, never the request’s', () => {
  it.each([
    // The host a visitor used is kept only when it is one of the tenant's exact names.
    ['https://www.harbourtimes.example.com', 'https://www.harbourtimes.example.com'],
    ['https://harbourtimes.example.com', 'https://harbourtimes.example.com'],
    // A forged Host or X-Forwarded-Host (the tenant came from a path prefix or ?tenant=).
    ['http://evil.example', 'https://harbourtimes.example.com'],
    ['https://harbourtimes.example.com.evil.example', 'https://harbourtimes.example.com'],
    ['http://evil.example:8080', 'https://harbourtimes.example.com'],
    // A wildcard name is never written into a link (anyone's subdomain may match it).
    ['https://news.harbour.example', 'https://harbourtimes.example.com'],
    ['https://evil.harbour.example', 'https://harbourtimes.example.com'],
    // Over http or another port: the link is still https on the standard port.
    ['http://harbourtimes.example.com:8443', 'https://harbourtimes.example.com'],
    // A loopback request's port is not kept on a public name.
    ['http://127.0.0.1:4321', 'https://harbourtimes.example.com'],
    ['not a url', 'https://harbourtimes.example.com'],
  ])('visited as %s → %s', (origin, expected) => {
    expect(tenantOrigin({ tenant, origin })).toBe(expected);
  });

  it('development names (*.localhost) are http and keep the port of a request to this machine', () => {
    expect(tenantOrigin({ tenant: local, origin: 'http://alpine-post.localhost:4400' })).toBe(
      'http://alpine-post.localhost:4400',
    );
    // By path prefix or ?tenant= on localhost or a loopback address: the tenant's own name, the port.
    expect(tenantOrigin({ tenant: local, origin: 'http://localhost:4321' })).toBe(
      'http://alpine-post.localhost:4321',
    );
    expect(tenantOrigin({ tenant: local, origin: 'http://127.0.0.1:4321' })).toBe(
      'http://alpine-post.localhost:4321',
    );
    // A forged host's port is not kept.
    expect(tenantOrigin({ tenant: local, origin: 'http://evil.example:9999' })).toBe(
      'http://alpine-post.localhost',
    );
  });

  it('builds a path on that origin; no tenant, no address', () => {
    expect(tenantUrl({ tenant, origin: 'http://evil.example' }, '/stay/manage/abc')).toBe(
      'https://harbourtimes.example.com/stay/manage/abc',
    );
    expect(tenantUrl(null, '/')).toBeNull();
  });

  it('follows a reload of tenants.json: the new hosts decide, on an origin already visited', () => {
    const visited = { tenant, origin: 'https://www.harbourtimes.example.com' };
    expect(tenantOrigin(visited)).toBe('https://www.harbourtimes.example.com');
    const moved = buildTenant({ ...tenant, hosts: ['harbour-times.example', '*.harbour.example'] });
    expect(tenantOrigin({ ...visited, tenant: moved })).toBe('https://harbour-times.example');
    expect(tenantOrigin(visited)).toBe('https://www.harbourtimes.example.com');
  });

  it('tenants.json needs an exact host for a tenant: wildcards alone name no origin', () => {
    const file = (hosts: string[]) => ({
      tenants: [
        {
          id: 'wild',
          name: 'Wild',
          hosts,
          locale: 'en-GB',
          timeZone: 'Europe/London',
          theme: { colors: { primary: '#000000', accent: '#111111' } },
          publishing: { baseUrl: 'https://api.example/api/v1' },
        },
      ],
    });
    const wildOnly = TenantsFileSchema.safeParse(file(['*.wild.example']));
    expect(wildOnly.success).toBe(false);
    expect(JSON.stringify(wildOnly.error?.issues)).toContain('exact host');
    expect(TenantsFileSchema.safeParse(file(['*.wild.example', 'wild.example'])).success).toBe(
      true,
    );
  });
});
