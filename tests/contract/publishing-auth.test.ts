import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { demo, expectBody, expectError, useMock } from './helpers.ts';
import { MeSchema, one } from './schemas.ts';

const t = useMock();

const LoginSchema = one(
  z.strictObject({
    token: z.string().regex(/^\d+\|[A-Za-z0-9]{40}$/),
    token_type: z.literal('Bearer'),
    user: z.strictObject({ id: z.number().int(), name: z.string(), email: z.email() }),
  }),
);

describe('publishing auth', () => {
  it.each([
    { role: 'admin', roles: ['admin'], paid: false },
    { role: 'editor', roles: ['editor'], paid: false },
    { role: 'subscriber', roles: ['subscriber'], paid: true },
    { role: 'reader', roles: ['subscriber'], paid: false },
  ] as const)('logs in $role and reports roles and subscription', async ({ role, roles, paid }) => {
    const login = expectBody(
      await t.pub('/auth/login', {
        method: 'POST',
        body: { email: `${role}@masthead.test`, password: demo.password },
      }),
      200,
      LoginSchema,
    );
    const me = expectBody(await t.pub('/auth/me', { token: login.data.token }), 200, one(MeSchema));
    expect(me.data).toMatchObject({
      email: `${role}@masthead.test`,
      roles,
      has_active_subscription: paid,
    });
  });

  it.each([
    [
      {},
      { email: ['The email field is required.'], password: ['The password field is required.'] },
    ],
    [
      { email: 'not-an-email', password: 'x' },
      { email: ['The email field must be a valid email address.'] },
    ],
    [
      { email: 'admin@masthead.test', password: 'wrong-password' },
      { email: ['These credentials do not match our records.'] },
    ],
  ])('rejects login %j with 422', async (body, errors) => {
    const res = await t.pub('/auth/login', { method: 'POST', body });
    expectError(res, 422, Object.values(errors)[0]?.[0] ?? '', errors);
  });

  it('registers a subscriber (201) who can then read /auth/me', async () => {
    const res = await t.pub('/auth/register', {
      method: 'POST',
      body: { name: 'New Reader', email: 'new.reader@example.com', password: 'long-enough' },
    });
    const body = expectBody(
      res,
      201,
      one(
        z.strictObject({
          token: z.string(),
          user: z.strictObject({ id: z.number(), name: z.string() }),
        }),
      ),
    );
    const me = expectBody(await t.pub('/auth/me', { token: body.data.token }), 200, one(MeSchema));
    expect(me.data).toMatchObject({
      name: 'New Reader',
      roles: ['subscriber'],
      has_active_subscription: false,
    });
  });

  it.each([
    [{}, { name: ['The name field is required.'], email: ['The email field is required.'] }],
    [
      { name: 'A', email: 'a@example.com', password: 'short' },
      { password: ['The password field must be at least 8 characters.'] },
    ],
    [
      { name: 'A', email: 'admin@masthead.test', password: 'long-enough' },
      { email: ['The email has already been taken.'] },
    ],
  ])('rejects registration %j with 422', async (body, errors) => {
    const res = await t.pub('/auth/register', { method: 'POST', body });
    expect(res.status).toBe(422);
    expectError(res, 422, Object.values(errors)[0]?.[0] ?? '', errors);
  });

  it('answers 401 Unauthenticated. without or with a bad token', async () => {
    expectError(await t.pub('/auth/me'), 401, 'Unauthenticated.');
    expectError(await t.pub('/auth/me', { token: '1|nope' }), 401, 'Unauthenticated.');
    // A bad token fails even on public endpoints (Sanctum guard).
    expectError(await t.pub('/posts', { token: '1|nope' }), 401, 'Unauthenticated.');
  });

  it('logout revokes the token', async () => {
    const token = await t.login('reader');
    const out = await t.pub('/auth/logout', { method: 'POST', token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: 'Logged out.' });
    expectError(await t.pub('/auth/me', { token }), 401, 'Unauthenticated.');
    expectError(await t.pub('/auth/logout', { method: 'POST' }), 401, 'Unauthenticated.');
  });
});

describe('tenant resolution and separation', () => {
  it.each([
    [
      'X-Tenant header',
      (base: string) =>
        [`${base}/posts/welcome-to-our-new-website`, { tenant: 'harbour-times' }] as const,
    ],
    [
      '?tenant= query',
      (base: string) =>
        [
          `${base}/posts/welcome-to-our-new-website?tenant=harbour-times`,
          { tenant: null },
        ] as const,
    ],
  ])('resolves the tenant from the %s', async (_, make) => {
    const [url, init] = make('');
    const res = await t.pub(url, init);
    expect((res.body as { data: { excerpt: string } }).data.excerpt).toContain('Harbour Times');
  });

  it('resolves the tenant from the first host label', async () => {
    const { port } = new URL(t.mock.publishingUrl);
    // Node's fetch sends Host from the URL; use a raw request to set another host.
    const http = await import('node:http');
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/v1/posts/welcome-to-our-new-website',
            headers: { Host: `alpine-post.localhost:${port}` },
          },
          (res) => {
            let data = '';
            res.on('data', (c: Buffer) => (data += c.toString()));
            res.on('end', () => resolve(data));
          },
        )
        .on('error', reject);
    });
    expect(body).toContain('Alpine Post');
  });

  it('answers 404 Tenant not found. for an unknown or missing tenant', async () => {
    expectError(await t.pub('/posts', { tenant: 'no-such-paper' }), 404, 'Tenant not found.');
    expectError(await t.pub('/posts', { tenant: null }), 404, 'Tenant not found.');
  });

  it('serves different content under the same slug per tenant', async () => {
    const titles = await Promise.all(
      ['daily-planet', 'harbour-times', 'alpine-post'].map(async (tenant) => {
        const res = await t.pub('/posts/welcome-to-our-new-website', { tenant });
        return (res.body as { data: { excerpt: string; content: string } }).data.excerpt;
      }),
    );
    expect(new Set(titles).size).toBe(3);
    const cats = await Promise.all(
      ['daily-planet', 'alpine-post'].map(
        async (tenant) => (await t.pub('/categories/sport', { tenant })).body,
      ),
    );
    expect(cats[0]).not.toEqual(cats[1]);
  });

  it('rejects a token from tenant A on tenant B with 401', async () => {
    const token = await t.login('admin', 'daily-planet');
    expect((await t.pub('/auth/me', { token, tenant: 'daily-planet' })).status).toBe(200);
    expectError(
      await t.pub('/auth/me', { token, tenant: 'harbour-times' }),
      401,
      'Unauthenticated.',
    );
  });

  it('answers 404 Route not found. for unknown routes', async () => {
    expectError(await t.pub('/nope'), 404, 'Route not found.');
  });
});
