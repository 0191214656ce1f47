import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The site's own registry, on a copy of tenants.json this test breaks and mends.
const dir = mkdtempSync(join(tmpdir(), 'masthead-tenants-status-'));
const file = join(dir, 'tenants.json');
copyFileSync('tenants.json', file);
const good = readFileSync(file, 'utf8');
const restore: Record<string, string | undefined> = {};

beforeAll(() => {
  const set = {
    TENANTS_FILE: file,
    TENANTS_WATCH: 'false',
    // The booking tenants' credentials, so the configuration itself is healthy.
    HARBOUR_LODGING_TOKEN: 'test-token',
    ALPINE_LODGING_TOKEN: 'test-token',
  };
  for (const [name, value] of Object.entries(set)) {
    restore[name] = process.env[name];
    process.env[name] = value;
  }
});

afterAll(() => {
  for (const [name, value] of Object.entries(restore)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

async function status(): Promise<Record<string, unknown>> {
  const { statusResponse } = await import('../../../src/lib/delivery/status-access.ts');
  const response = await statusResponse({
    local: true,
    headers: new Headers(),
    token: undefined,
    redisUrl: undefined,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function health(): Promise<{ status: number; body: Record<string, unknown> }> {
  const { ALL } = await import('../../../src/integrations/health-endpoint.ts');
  const response = await ALL({} as Parameters<typeof ALL>[0]);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('/_status while tenants.json on disk is refused', () => {
  it('names the rejected tenant and field and since when, says the last good one is served, and clears on a good file', async () => {
    const { tenantRegistry } = await import('../../../src/lib/tenants/registry.ts');
    expect((await status())['tenantsFile']).toEqual({
      status: 'ok',
      version: 1,
      tenants: 3,
    });
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', config: 'ok' } });

    const broken = JSON.parse(good) as { tenants: Record<string, unknown>[] };
    broken.tenants[1] = { ...broken.tenants[1], timeZone: 'Mars/Olympus_Mons' };
    writeFileSync(file, JSON.stringify(broken));
    const before = Date.now();
    expect(tenantRegistry().reload('manual').status).toBe('refused');

    const shown = (await status())['tenantsFile'] as Record<string, unknown>;
    expect(shown).toMatchObject({
      status: 'refused',
      serving: 'the last good configuration',
      version: 1,
      tenants: 3,
      issues: [{ tenant: 'harbour-times', index: 1, path: 'timeZone' }],
    });
    expect(String(shown['reason'])).toContain('tenant "harbour-times" (tenants[1]) → timeZone');
    expect(Date.parse(String(shown['refusedSince']))).toBeGreaterThanOrEqual(before - 1000);
    // Pages are still served from the last good tenants: healthy.
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok', config: 'ok' } });

    writeFileSync(file, good);
    expect(tenantRegistry().reload('manual').status).toBe('unchanged');
    expect((await status())['tenantsFile']).toEqual({ status: 'ok', version: 1, tenants: 3 });
  });
});
