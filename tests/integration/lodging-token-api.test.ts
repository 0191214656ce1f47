import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lodgingAuth } from '../../src/lib/lodging/auth.ts';
import { freshUpstream } from './harness.ts';
import { json, startServer } from '../unit/upstream/helpers.ts';
import type { TestServer } from '../unit/upstream/helpers.ts';

// Two lodging APIs on one host (a provider's per-customer paths): each signs in with its own
// tokens. A tenant whose lodging.baseUrl moves from one to the other signs in again there.
let host: TestServer;
beforeAll(async () => {
  host = await startServer((r, res) => {
    const api = r.url.split('/')[1];
    json(res, 200, {
      user: { id: 1, name: 'Ops', email: 'ops@example.test' },
      token: `${api}-token`,
    });
  });
});
afterAll(() => host.close());

describe('a lodging sign-in token', () => {
  it('is never sent to another API on the same host', async () => {
    const { up } = freshUpstream();
    const origin = new URL(host.baseUrl).origin;
    const signIn = (api: string) =>
      lodgingAuth({
        accountKey: 'tenant:harbour-times',
        baseUrl: `${origin}/${api}/api/v1`,
        credentials: { email: 'ops@example.test', password: 'secret' },
        upstream: up,
      }).token();
    expect(await signIn('hotel-a')).toBe('hotel-a-token');
    // The tenants file now names the other API: its own sign-in, not the first API's token.
    expect(await signIn('hotel-b')).toBe('hotel-b-token');
  });
});
