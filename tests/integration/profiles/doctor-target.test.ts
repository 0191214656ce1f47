import { runDoctorCli } from './doctor-cli.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THIRD_TENANT, startThirdApi, thirdTenantsJson } from '../../fixtures/third-api.ts';
import type { ThirdApi } from '../../fixtures/third-api.ts';

// The doctor reads the API the site would: the tenants file with PUBLISHING_BASE_URL and
// LODGING_BASE_URL applied, the secrets as `npm start` finds them; it prints each address.
let api: ThirdApi;
let dir: string;
const DEAD = 'http://127.0.0.1:9/api/v1';

const doctor = (env: Record<string, string>, ...args: string[]) =>
  runDoctorCli({ tenant: THIRD_TENANT, dir, env }, ...args);

beforeAll(async () => {
  api = await startThirdApi();
  dir = mkdtempSync(join(tmpdir(), 'masthead-doctor-target-'));
  // The file points at nothing: only the overrides reach the API.
  const text = thirdTenantsJson(
    { ...api, publishingUrl: DEAD, lodgingUrl: DEAD },
    'third.example.com',
    'THIRD_TARGET_TOKEN',
  );
  writeFileSync(join(dir, 'tenants.json'), text);
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the doctor checks the API the site would use', () => {
  it('follows PUBLISHING_BASE_URL and LODGING_BASE_URL, prints both addresses, and names the missing token', async () => {
    const { out } = await doctor({
      PUBLISHING_BASE_URL: api.publishingUrl,
      LODGING_BASE_URL: api.lodgingUrl,
      THIRD_TARGET_TOKEN: '',
    });
    expect(out).toContain(`publishing API: ${api.publishingUrl} (from PUBLISHING_BASE_URL)`);
    expect(out).toContain(`lodging API: ${api.lodgingUrl} (from LODGING_BASE_URL)`);
    expect(out).not.toContain(DEAD);
    expect(api.calls).toContain('GET /publishing/api/v1/posts');
    // The lodging API refuses a doctor without a token: the summary says what to set.
    expect(out).toContain('✗ lodging properties.list: GET /properties → 401\n');
    expect(out).toMatch(
      /- lodging properties\.list, \S+.* answers 401: no lodging token: set lodgingToken for "third-times" in SECRETS_FILE, or the variable THIRD_TARGET_TOKEN/,
    );
  });

  it('without the overrides it reads the tenants file, and says so', async () => {
    const { out, code } = await doctor({ PUBLISHING_BASE_URL: '', LODGING_BASE_URL: '' });
    expect(code).toBe(1);
    expect(out).toContain(`publishing API: ${DEAD} (from tenants.json publishing.baseUrl)`);
    expect(out).toMatch(/not reachable/);
  });

  it('refuses an answer longer than UPSTREAM_BODY_MAX_BYTES, as the site does, instead of reading it all', async () => {
    const { out, code } = await doctor({
      PUBLISHING_BASE_URL: api.publishingUrl,
      LODGING_BASE_URL: api.lodgingUrl,
      UPSTREAM_BODY_MAX_BYTES: '200',
    });
    expect(code).toBe(1);
    expect(out).toMatch(/✗ publishing posts\.list: GET \/\S+ → 200\n/);
    expect(out).toMatch(
      /- publishing posts\.list.* answers 200: the site refuses this answer: body over 200 bytes \(UPSTREAM_BODY_MAX_BYTES\)/,
    );
  });

  it('refuses a --map it cannot read, saying the form', async () => {
    const { out, code } = await doctor({}, '--map', 'articles.list.title=headline');
    expect(code).toBe(2);
    expect(out).toContain('--map articles.list.title=headline: expected <operation>.<need>=<path>');
  });
});
