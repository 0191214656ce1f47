import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tenantInput } from '../../fixtures/tenant.ts';

/**
 * A site added at run time can only show a logo the build has (a file of public/) or one from an
 * https address: the server's own registry refuses a file naming any other, keeps its sites and
 * says which tenant and field, at start as at a reload.
 */
const dir = mkdtempSync(join(tmpdir(), 'masthead-logos-'));
const path = join(dir, 'tenants.json');
const gazette = tenantInput();
const logo = (src: string) =>
  tenantInput({
    id: 't51',
    name: 'T51',
    hosts: ['t51.example.com'],
    theme: {
      colors: { primary: '#123456', accent: '#abcdef' },
      logo: { src, alt: 'T51', width: 120, height: 40 },
    },
  });
const write = (tenants: unknown[]) => writeFileSync(path, JSON.stringify({ tenants }));

const warn = vi.hoisted(() => vi.fn());
vi.mock('../../../src/lib/log/log.ts', async (original) => ({
  ...(await original<object>()),
  logWarn: warn,
}));

let registry: typeof import('../../../src/lib/tenants/registry.ts');
beforeAll(async () => {
  write([gazette]);
  vi.stubEnv('TENANTS_FILE', path);
  vi.stubEnv('TENANTS_WATCH', 'false');
  registry = await import('../../../src/lib/tenants/registry.ts');
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe('a logo of a site added at run time', () => {
  it.each([
    ['a file of the build', '/logos/daily-planet.png'],
    ['an https address', 'https://cdn.example.com/t51.svg'],
  ])('takes %s', (_, src) => {
    write([gazette, logo(src)]);
    expect(registry.tenantRegistry().reload('file').status).not.toBe('refused');
    expect(registry.getTenants().map((tenant) => tenant.theme.logo?.src)).toEqual([undefined, src]);
  });

  it.each([
    ['a path the build has no file for', '/logos/t51.png'],
    ['an http address (mixed content on an https site)', 'http://cdn.example.com/t51.svg'],
  ])('refuses %s, keeps the sites and names the tenant and the field', (_, src) => {
    write([gazette]);
    registry.tenantRegistry().reload('file');
    warn.mockClear();
    write([gazette, logo(src)]);
    expect(registry.tenantRegistry().reload('file').status).toBe('refused');
    expect(registry.getTenants().map((tenant) => tenant.id)).toEqual(['gazette']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('tenants.reload.refused');
    expect(String((warn.mock.calls[0]?.[1] as { message: string }).message)).toMatch(
      /tenant "t51" \(tenants\[1\]\) → theme\.logo\.src: .*t51/,
    );
  });
});
