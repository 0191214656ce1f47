/**
 * A server that restarts while the tenants file changes: the file is written after it read it at
 * start but before its Redis subscription is up (a busy machine), so the catch-up read made at
 * subscription is the one that finds the change. The other servers must still hear of it: the ones
 * that do not watch their file learn of a change only from the announcement.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { forgetSettings } from '../../src/lib/settings/settings.ts';
import { closeRedis } from '../../src/lib/upstream/redis.ts';
import { startRedisServer, type RedisServer } from './redis-server.ts';

type Registry = typeof import('../../src/lib/tenants/registry.ts');

const { tenants } = JSON.parse(
  readFileSync(new URL('../../tenants.json', import.meta.url), 'utf8'),
) as { tenants: { id: string }[] };
const dir = mkdtempSync(join(tmpdir(), 'masthead-subscribed-'));
const file = join(dir, 'tenants.json');
const write = (list: typeof tenants) => writeFileSync(file, JSON.stringify({ tenants: list }));

let redis: RedisServer;
let registry: Registry;
beforeAll(async () => {
  redis = await startRedisServer();
  write(tenants.slice(1));
  vi.stubEnv('REDIS_URL', redis.url);
  vi.stubEnv('TENANTS_FILE', file);
  vi.stubEnv('TENANTS_WATCH', 'false');
  forgetSettings();
  registry = await import('../../src/lib/tenants/registry.ts');
  registry.tenantRegistry();
});
afterAll(async () => {
  registry.tenantRegistry().close();
  await closeRedis();
  await redis.stop();
  vi.unstubAllEnvs();
  forgetSettings();
  rmSync(dir, { recursive: true, force: true });
});

it('announces a change its first read at subscription found', async () => {
  const heard: string[] = [];
  const other = new Redis(redis.url);
  other.on('message', (_channel: string, text: string) => heard.push(text));
  await other.subscribe('masthead:invalidate');
  // Written after the server read its file at start, before it subscribed.
  write(tenants);
  const { followTenantReloads } = await import('../../src/lib/freshness/tenants.ts');
  const { listenForInvalidations } = await import('../../src/lib/freshness/bus.ts');
  followTenantReloads();
  await listenForInvalidations();
  await expect.poll(() => registry.getTenants().length).toBe(tenants.length);
  await expect.poll(() => heard.join('\n'), { timeout: 5000 }).toContain('tenants.reload');
  other.disconnect();
}, 30_000);
