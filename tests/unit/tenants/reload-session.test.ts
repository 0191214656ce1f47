import type { AstroSession } from 'astro';
import { describe, expect, it } from 'vitest';
import { getSignedIn, setSignedIn, type SignedIn } from '../../../src/lib/auth/session.ts';
import { buildTenant } from '../../fixtures/tenant.ts';

/** A session as Astro's keeps values (the subset the sign-in reads and writes). */
function fakeSession(): AstroSession {
  const values = new Map<string, unknown>();
  return {
    get: (key: string) => Promise.resolve(structuredClone(values.get(key))),
    set: (key: string, value: unknown) => values.set(key, structuredClone(value)),
  } as unknown as AstroSession;
}

const signedIn: SignedIn = {
  token: 'token-of-the-first-api',
  user: { id: 7, name: 'Riley Reader', roles: ['subscriber'], hasActiveSubscription: true },
};

describe('a sign-in across a reload of the tenants file', () => {
  const courier = buildTenant({ id: 'courier', hosts: ['courier.example.com'] });

  it('is no one’s once the tenant reads another publishing API: its token never goes there', async () => {
    const session = fakeSession();
    setSignedIn(session, courier, signedIn);
    const moved = buildTenant({
      ...courier,
      publishing: { baseUrl: 'https://other.example.com/api/v1' },
    });
    expect(await getSignedIn(session, moved)).toBeNull();
  });

  it('stays signed in when the tenant changed anything else', async () => {
    const session = fakeSession();
    setSignedIn(session, courier, signedIn);
    const renamed = buildTenant({ ...courier, name: 'The Courier', locale: 'de-DE' });
    expect(await getSignedIn(session, renamed)).toEqual(signedIn);
  });

  it('stays signed in when the API’s address is written another way (host case, trailing slash)', async () => {
    const session = fakeSession();
    setSignedIn(session, courier, signedIn);
    const rewritten = buildTenant({
      ...courier,
      publishing: { baseUrl: 'https://API.Example.com/api/v1/' },
    });
    expect(await getSignedIn(session, rewritten)).toEqual(signedIn);
  });

  it('signs out once a sign-in stored before its API was noted: its token may be another API’s', async () => {
    const session = fakeSession();
    session.set(`auth:${courier.id}`, signedIn);
    expect(await getSignedIn(session, courier)).toBeNull();
  });
});
