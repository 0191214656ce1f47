/**
 * A stream past its start but still called scheduled is read again past the cache (its page must
 * not say "Upcoming" once the upstream says live). When that fresh read fails (the upstream rate
 * limits or is down, most likely just when viewers arrive for the start), the copy the site already
 * has is shown, as every other page does, instead of a 503.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ctl, startTestMock, type Mock } from './harness.ts';

type Loaders = typeof import('../../src/lib/streams/loaders.ts');
type Registry = typeof import('../../src/lib/tenants/registry.ts');

let mock: Mock;
let loaders: Loaders;
let registry: Registry;
const planet = () => registry.getTenants().find((tenant) => tenant.id === 'daily-planet')!;

beforeAll(async () => {
  mock = await startTestMock();
  vi.stubEnv('REDIS_URL', '');
  vi.stubEnv('TENANTS_WATCH', 'false');
  vi.stubEnv('PUBLISHING_BASE_URL', mock.publishingUrl);
  vi.stubEnv('LODGING_BASE_URL', mock.lodgingUrl);
  registry = await import('../../src/lib/tenants/registry.ts');
  loaders = await import('../../src/lib/streams/loaders.ts');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

async function setStream(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${mock.controlUrl}/streams`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'daily-planet', ...body }),
  });
  expect(response.ok).toBe(true);
}

describe('a stream due to have started while the upstream fails', () => {
  it.each([
    ['rate limits (429)', { force429: true }],
    ['is down', { down: true }],
  ])('shows the copy the site has when the upstream %s', async (_case, fault) => {
    await ctl.reset(mock);
    const list = await loaders.loadStreams(planet(), 1);
    const slug = list.items.find((stream) => stream.status === 'scheduled')?.slug;
    expect(slug).toBeDefined();
    await setStream({ slug, status: 'scheduled', at: new Date(Date.now() - 60_000).toISOString() });
    // Read once with the upstream up: the site has the stream (due: it was read afresh).
    const before = await loaders.loadStream(planet(), slug!);
    expect(before.slug).toBe(slug);
    await loaders.loadStreams(planet(), 1);

    await ctl.faults(mock, { service: 'publishing', ...fault });
    try {
      expect((await loaders.loadStream(planet(), slug!)).slug).toBe(slug);
      const again = await loaders.loadStreams(planet(), 1);
      expect(again.items.map((stream) => stream.slug)).toContain(slug);
    } finally {
      await ctl.clearFaults(mock);
    }
  });
});
