// A per-token read the upstream refuses (token revoked or expired: 401; no longer entitled: 403)
// must not keep serving that token's copy: not in the stale window, not in an outage, not from the
// store another instance reads. An outage keeps serving it, and a public copy stays for everyone.
import { describe, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
import { cacheKey, createReadCache } from '../../../src/lib/upstream/cache.ts';
import {
  ForbiddenError,
  NetworkError,
  UnauthenticatedError,
} from '../../../src/lib/upstream/errors.ts';
import { createMetrics } from '../../../src/lib/upstream/metrics.ts';

// The edition's lifetime, shortened: 10 s fresh, 20 s stale, 100 s more in an outage.
const policy = { fresh: 10, stale: 20, errorGrace: 100 };
const ctx = { service: 'publishing' as const, tenant: 'daily-planet' };
const errCtx = { service: 'publishing' as const, operation: 'epaper.get' };
const keyFor = (token?: string) =>
  cacheKey({
    ...ctx,
    api: 'https://api.example.com/api/v1',
    operation: 'epaper.get',
    params: { slug: 'monday' },
    token,
  });
const personal = keyFor('subscriber-token');

let clock = 1_000_000;
const advance = (seconds: number) => {
  clock += seconds * 1000;
};
function setup(store = createStorage()) {
  return createReadCache({
    metrics: createMetrics({ log: () => undefined }),
    now: () => clock,
    store,
  });
}

const paid = () => Promise.resolve('paid pages');
const down = () => Promise.reject(new NetworkError('down', errCtx));
const refusals = [
  ['401 (revoked)', () => new UnauthenticatedError('revoked', { ...errCtx, status: 401 })],
  ['403 (no longer entitled)', () => new ForbiddenError('no plan', { ...errCtx, status: 403 })],
] as const;

describe('read cache: a token the upstream refuses', () => {
  it.each(refusals)('a refused refresh (%s): the next read is the refusal', async (_, refusal) => {
    const cache = setup();
    await cache.read(personal, policy, paid, ctx);
    advance(15);
    const refused = () => Promise.reject(refusal());
    // The stale copy answers at once; its background refresh is refused.
    expect(await cache.read(personal, policy, refused, ctx)).toBe('paid pages');
    await cache.settle();
    await expect(cache.read(personal, policy, refused, ctx)).rejects.toThrow(refusal().constructor);
    // Nor is it served in an outage afterwards.
    await expect(cache.read(personal, policy, down, ctx)).rejects.toBeInstanceOf(NetworkError);
  });

  it.each(refusals)(
    'refused past the stale window (%s): no outage serves it',
    async (_, refusal) => {
      const cache = setup();
      await cache.read(personal, policy, paid, ctx);
      advance(40);
      const refused = () => Promise.reject(refusal());
      await expect(cache.read(personal, policy, refused, ctx)).rejects.toThrow(
        refusal().constructor,
      );
      await expect(cache.read(personal, policy, down, ctx)).rejects.toBeInstanceOf(NetworkError);
    },
  );

  it('dropped from the shared store too: another instance does not serve it', async () => {
    const store = createStorage();
    const [one, other] = [setup(store), setup(store)];
    await one.read(personal, policy, paid, ctx);
    advance(15);
    const revoked = () => Promise.reject(new UnauthenticatedError('revoked', errCtx));
    await one.read(personal, policy, revoked, ctx);
    await one.settle();
    await expect(other.read(personal, policy, down, ctx)).rejects.toBeInstanceOf(NetworkError);
  });

  it('dropped by another instance: one that holds its own copy stops serving it too', async () => {
    const store = createStorage();
    const [one, other] = [setup(store), setup(store)];
    await one.read(personal, policy, paid, ctx);
    await other.read(personal, policy, paid, ctx);
    advance(15);
    const revoked = () => Promise.reject(new UnauthenticatedError('revoked', errCtx));
    await one.read(personal, policy, revoked, ctx);
    await one.settle();
    await expect(other.read(personal, policy, revoked, ctx)).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
  });

  it('an outage still serves the stale per-token copy', async () => {
    const cache = setup();
    await cache.read(personal, policy, paid, ctx);
    advance(15);
    expect(await cache.read(personal, policy, down, ctx)).toBe('paid pages');
    await cache.settle();
    expect(await cache.read(personal, policy, down, ctx)).toBe('paid pages');
    advance(30);
    expect(await cache.read(personal, policy, down, ctx)).toBe('paid pages');
  });

  it("a public copy is everyone's: a refusal does not drop it", async () => {
    const cache = setup();
    const shared = keyFor();
    await cache.read(shared, policy, paid, ctx);
    advance(15);
    const refused = () => Promise.reject(new UnauthenticatedError('no', errCtx));
    await cache.read(shared, policy, refused, ctx);
    await cache.settle();
    expect(await cache.read(shared, policy, refused, ctx)).toBe('paid pages');
  });
});
