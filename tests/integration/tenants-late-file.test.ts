/**
 * A rolling deploy of the tenants file with `TENANTS_WATCH=false`: another server reads its new
 * copy (a watch, a `SIGHUP`) and announces it on Redis before this server's copy is replaced (by
 * rename, as config tools and editors write). The announcement finds the old file here; the copy
 * that arrives after it is still read, without a `SIGHUP`.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { forgetSettings } from '../../src/lib/settings/settings.ts';
import { closeRedis, getRedis } from '../../src/lib/upstream/redis.ts';
import { startRedisServer, type RedisServer } from './redis-server.ts';

type Registry = typeof import('../../src/lib/tenants/registry.ts');

const { tenants } = JSON.parse(
  readFileSync(new URL('../../tenants.json', import.meta.url), 'utf8'),
) as { tenants: { id: string }[] };
const dir = mkdtempSync(join(tmpdir(), 'masthead-late-'));
const file = join(dir, 'tenants.json');

/** Writes the file as `mv new.json tenants.json` does. */
function replaceFile(list: typeof tenants) {
  writeFileSync(`${file}.new`, JSON.stringify({ tenants: list }));
  renameSync(`${file}.new`, file);
}

let redis: RedisServer;
let registry: Registry;
beforeAll(async () => {
  redis = await startRedisServer();
  replaceFile(tenants.slice(1));
  vi.stubEnv('REDIS_URL', redis.url);
  vi.stubEnv('TENANTS_FILE', file);
  vi.stubEnv('TENANTS_WATCH', 'false');
  forgetSettings();
  registry = await import('../../src/lib/tenants/registry.ts');
  const { followTenantReloads } = await import('../../src/lib/freshness/tenants.ts');
  const { listenForInvalidations } = await import('../../src/lib/freshness/bus.ts');
  followTenantReloads();
  await listenForInvalidations();
});
afterAll(async () => {
  registry.tenantRegistry().close();
  await closeRedis();
  await redis.stop();
  vi.unstubAllEnvs();
  forgetSettings();
  rmSync(dir, { recursive: true, force: true });
});

const ids = () => registry.getTenants().map((tenant) => tenant.id);

it('reads its copy of the file replaced after another server announced it, without SIGHUP', async () => {
  const other = await getRedis(redis.url);
  // Subscribed (it reads the file once then): from now on it hears what other servers announce.
  const subscribers = async () =>
    ((await other.pubsub('NUMSUB', 'masthead:invalidate')) as [string, number])[1];
  await expect.poll(subscribers).toBe(1);
  await other.publish(
    'masthead:invalidate',
    JSON.stringify({ kind: 'tenants.reload', origin: 'another-server' }),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(ids()).not.toContain(tenants[0]!.id);

  replaceFile(tenants);
  await expect.poll(ids, { timeout: 15_000, interval: 200 }).toContain(tenants[0]!.id);
}, 30_000);
