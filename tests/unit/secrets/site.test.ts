import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { redirectLogLines } from '../../../src/lib/log/log.ts';
import { forgetSiteSecrets, tenantSecrets } from '../../../src/lib/secrets/site.ts';
import { logSecretsLine, watchSecrets } from '../../../src/lib/services/secrets-line.ts';
import { forgetSettings } from '../../../src/lib/settings/settings.ts';
import { getTenants } from '../../../src/lib/tenants/registry.ts';

// The repository's tenants.json: daily-planet, harbour-times (lodging: HARBOUR_LODGING_TOKEN), alpine-post.
const VALUES = [
  'S3CRET-read-1',
  'S3CRET-lodging-2',
  'S3CRET-purge-3-of-at-least-32-characters',
  'S3CRET-env-4',
];
let dir: string;
let path: string;
let lines: string[];
let restoreLog: () => void;

function write(content: unknown): void {
  const next = join(dir, `next-${Math.random()}`);
  writeFileSync(next, JSON.stringify(content));
  chmodSync(next, 0o600);
  renameSync(next, path);
}

const harbour = () => getTenants().find((tenant) => tenant.id === 'harbour-times')!;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'masthead-site-secrets-'));
  path = join(dir, 'secrets.json');
  lines = [];
  restoreLog = redirectLogLines((line) => lines.push(line));
  vi.stubEnv('SECRETS_FILE', path);
  vi.stubEnv('PURGE_SECRETS', '');
  vi.stubEnv('HARBOUR_LODGING_TOKEN', VALUES[3]);
  forgetSettings();
  forgetSiteSecrets();
});

afterEach(() => {
  restoreLog();
  vi.unstubAllEnvs();
  forgetSettings();
  forgetSiteSecrets();
  rmSync(dir, { recursive: true, force: true });
});

describe("the site's secrets", () => {
  it('come from SECRETS_FILE before the variables, and reach the next lookup after SIGHUP', () => {
    write({ 'harbour-times': { publishingReadToken: VALUES[0] } });
    expect(tenantSecrets(harbour()).values).toEqual({
      publishingReadToken: VALUES[0],
      lodgingToken: VALUES[3],
    });
    const stop = watchSecrets();
    try {
      write({ 'harbour-times': { lodgingToken: VALUES[1], purgeSecret: VALUES[2] } });
      process.emit('SIGHUP');
      expect(tenantSecrets(harbour()).values).toEqual({
        lodgingToken: VALUES[1],
        purgeSecret: VALUES[2],
      });
    } finally {
      stop();
    }
    // The reload said the line again: harbour-times now lacks only its read token.
    const said = lines.filter((line) => line.includes('"tenants.secrets"'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('no publishingReadToken: harbour-times');
  });

  it('never put a value in a log line, whatever happens to the file', () => {
    write({ 'harbour-times': { publishingReadToken: VALUES[0], purgeSecret: VALUES[2] } });
    tenantSecrets(harbour());
    logSecretsLine();
    const stop = watchSecrets();
    try {
      // Broken (the parser's own message would quote the file), then opened up, then fine again.
      writeFileSync(path, `{"harbour-times": {"lodgingToken": ${VALUES[1]}}`);
      process.emit('SIGHUP');
      chmodSync(path, 0o644);
      process.emit('SIGHUP');
      write({ 'harbour-times': { lodgingToken: VALUES[1] } });
      process.emit('SIGHUP');
    } finally {
      stop();
    }
    expect(lines.some((line) => line.includes('"secrets.refused"'))).toBe(true);
    expect(lines.filter((line) => line.includes('"tenants.secrets"'))).toHaveLength(2);
    // Not even part of one (a JSON parser's message quotes a few characters of the file).
    expect(lines.join('\n')).not.toContain('S3CRET');
  });
});
