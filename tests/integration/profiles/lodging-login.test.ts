import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { clearLodgingTokens } from '../../../src/lib/lodging/auth.ts';
import { lodgingClient } from '../../../src/lib/lodging/client.ts';
import { createUpstream } from '../../../src/lib/upstream/runtime.ts';

// A lodging API that signs in at `/sessions` with `{ login, secret }`: the tenant's profile says so,
// and a site set up with e-mail and password (no API token) reads through it.
const PROPERTY = '6f1c1a52-3a55-4e0e-9d7b-3c2a51f00101';
let server: ReturnType<typeof serve>;
let baseUrl: string;

beforeAll(async () => {
  const api = new Hono();
  api.post('/api/v1/sessions', async (c) => {
    const body = await c.req.json<{ login?: string; secret?: string }>();
    if (body.login !== 'owner@inn.test' || body.secret !== 'pw')
      return c.json({ message: 'Invalid credentials.' }, 422);
    return c.json({ token: 'session-token', user: { id: 1, name: 'Owner' } });
  });
  api.get('/api/v1/properties/:id', (c) =>
    c.req.header('authorization') === 'Bearer session-token'
      ? c.json({ data: { id: PROPERTY, name: 'Harbour Inn', currency: 'EUR', room_types: [] } })
      : c.json({ message: 'Unauthenticated.' }, 401),
  );
  api.notFound((c) => c.json({ message: 'Route not found.' }, 404));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => clearLodgingTokens());

it("signs in to lodging at the profile's login path with its field names", async () => {
  const client = lodgingClient({
    accountKey: 'inn',
    baseUrl,
    upstream: createUpstream(),
    email: 'owner@inn.test',
    password: 'pw',
    profile: {
      name: 'inline',
      operations: {
        'auth.login': { path: '/sessions', rename: { email: 'login', password: 'secret' } },
      },
    },
  });
  expect((await client.getProperty(PROPERTY)).name).toBe('Harbour Inn');
});
