import { describe, expect, it } from 'vitest';
import {
  IMMUTABLE,
  NOT_FOUND,
  NO_STORE,
  sharedCache,
  unshared,
} from '../../../src/lib/delivery/policy.ts';
import { namedHost } from '../../../src/lib/tenants/resolution.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

// An answer on a host no tenant names exactly is kept by no shared cache: an edge keys its copies
// by host, and anyone can send made-up hosts.

describe('unshared', () => {
  it('keeps a public answer from shared caches, as long as before in a browser', () => {
    expect(unshared(sharedCache(60, 600))).toBe(
      'private, max-age=0, stale-while-revalidate=600, stale-if-error=86400',
    );
    expect(unshared(NOT_FOUND)).toBe('private, max-age=0, stale-if-error=86400');
    expect(unshared(IMMUTABLE)).toBe('private, max-age=31536000, immutable');
    expect(unshared('max-age=3600')).toBe('private, max-age=3600');
  });

  it('leaves what no shared cache keeps alone', () => {
    expect(unshared(NO_STORE)).toBe(NO_STORE);
    expect(unshared('private, no-store')).toBe('private, no-store');
  });
});

describe('namedHost', () => {
  const tenants = [buildTenant({ hosts: ['gazette.example.com', '*.gazette.example.com'] })];

  it('is a host a tenant names exactly, in any spelling', () => {
    expect(namedHost('gazette.example.com', tenants)).toBe(true);
    expect(namedHost('Gazette.Example.com.:8080', tenants)).toBe(true);
  });

  it('is not a wildcard’s subdomain, a host no tenant names, nor none', () => {
    expect(namedHost('made-up.gazette.example.com', tenants)).toBe(false);
    expect(namedHost('made-up.example.org', tenants)).toBe(false);
    expect(namedHost('', tenants)).toBe(false);
  });
});
