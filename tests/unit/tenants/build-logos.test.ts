import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { tenantInput } from '../../fixtures/tenant.ts';

/**
 * `astro build` (and dev) checks tenants.json as the server will: a logo that is neither a file of
 * the build (public/) nor an https address fails the build, naming the tenant and the field, not
 * the server's start after the deploy.
 */
const dir = mkdtempSync(join(tmpdir(), 'masthead-build-logos-'));
const path = join(dir, 'tenants.json');
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

async function buildWithLogo(src: string): Promise<unknown> {
  const theme = { colors: { primary: '#123456', accent: '#abcdef' } };
  const logo = { src, alt: 'Gazette', width: 120, height: 40 };
  writeFileSync(path, JSON.stringify({ tenants: [tenantInput({ theme: { ...theme, logo } })] }));
  vi.stubEnv('TENANTS_FILE', path);
  vi.resetModules();
  return import('../../../astro.config.mjs');
}

describe('the build’s check of tenants.json', () => {
  it.each([
    ['a path the build has no file for', '/logos/gazette.png'],
    ['an http address (mixed content on an https site)', 'http://cdn.example.com/gazette.svg'],
  ])('refuses a logo at %s, naming the tenant and the field', async (_, src) => {
    await expect(buildWithLogo(src)).rejects.toThrow(/tenant "gazette".*theme\.logo\.src/);
  });

  it.each([
    ['a file of the build', '/logos/daily-planet.png'],
    ['an https address', 'https://cdn.example.com/gazette.svg'],
  ])('takes a logo at %s', async (_, src) => {
    await expect(buildWithLogo(src)).resolves.toBeDefined();
  });
});
