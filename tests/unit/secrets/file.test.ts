import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSecretsFile, type SecretsFileEvent } from '../../../src/lib/secrets/file.ts';
import { SecretsFileError } from '../../../src/lib/secrets/schema.ts';

const VALUE = 'S3CRET-value-7f3a';
let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'masthead-secrets-'));
  path = join(dir, 'secrets.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the file as a secret mount would: whole, then renamed into place (a new inode). */
function write(content: unknown, mode = 0o600): void {
  const next = join(dir, `next-${Math.random()}`);
  writeFileSync(next, typeof content === 'string' ? content : JSON.stringify(content));
  chmodSync(next, mode);
  renameSync(next, path);
}

function open(options: { now?: () => number } = {}) {
  const events: SecretsFileEvent[] = [];
  const file = openSecretsFile({
    path,
    recheckMs: 1000,
    now: options.now ?? (() => 0),
    report: (event) => events.push(event),
    checkMode: true,
  });
  return { file, events };
}

describe.skipIf(process.platform === 'win32')('the secrets file mode, as ssh checks a key', () => {
  it.each([
    [0o644, 'others may read it'],
    [0o604, 'others may read it'],
    [0o660, 'its group may change it'],
  ])('refuses mode %o (%s), saying how to fix it', (mode) => {
    write({ gazette: { lodgingToken: VALUE } }, mode);
    expect(() => open()).toThrow(SecretsFileError);
    expect(() => open()).toThrow(`its mode 0${mode.toString(8)} lets others read or change it`);
  });

  it('accepts 0600 and 0400 quietly, and 0440 (a Kubernetes fsGroup mount) with a warning', () => {
    for (const mode of [0o600, 0o400]) {
      write({ gazette: { lodgingToken: VALUE } }, mode);
      expect(open().events).toEqual([{ kind: 'loaded', tenants: 1 }]);
    }
    write({ gazette: { lodgingToken: VALUE } }, 0o440);
    expect(open().events).toEqual([
      { kind: 'open-to-group', mode: '0440' },
      { kind: 'loaded', tenants: 1 },
    ]);
  });
});

describe('a missing file', () => {
  it('refuses the start, naming the file', () => {
    expect(() => open()).toThrow(`The secrets file ${path} cannot be used: it does not exist.`);
  });
});

describe('a changed file, read again without a restart', () => {
  it('is seen by the next lookup once the recheck interval has passed', () => {
    let clock = 0;
    write({ gazette: { lodgingToken: 'one' } });
    const { file } = open({ now: () => clock });
    write({ gazette: { lodgingToken: 'two' }, herald: { publishingReadToken: 'new' } });
    clock = 999;
    expect(file.current().get('gazette')?.lodgingToken).toBe('one');
    clock = 1000;
    expect(file.current().get('gazette')?.lodgingToken).toBe('two');
    expect(file.current().get('herald')?.publishingReadToken).toBe('new');
  });

  it('is read at once on reload() (SIGHUP), and tells its listeners', () => {
    write({ gazette: { lodgingToken: 'one' } });
    const { file } = open();
    let told = 0;
    const stop = file.onChange(() => (told += 1));
    write({ gazette: { lodgingToken: 'two' } });
    expect(file.reload()).toBe(true);
    expect(file.current().get('gazette')?.lodgingToken).toBe('two');
    expect(told).toBe(1);
    stop();
    file.reload();
    expect(told).toBe(1);
  });

  it('keeps the secrets in use when the new file is broken, opened up or gone, and says why', () => {
    let clock = 0;
    write({ gazette: { lodgingToken: 'one' } });
    const { file, events } = open({ now: () => clock });
    const cases: [() => void, string][] = [
      [() => write(`{"gazette": {"lodgingToken": ${VALUE}`), 'it is not valid JSON'],
      [() => write({ gazette: { lodgingToken: VALUE } }, 0o644), 'its mode 0644'],
      [() => rmSync(path), 'it does not exist'],
    ];
    for (const [change, reason] of cases) {
      change();
      clock += 1000;
      expect(file.current().get('gazette')?.lodgingToken).toBe('one');
      expect(events.at(-1)).toMatchObject({ kind: 'refused' });
      expect(JSON.stringify(events.at(-1))).toContain(reason);
      // Refused once per change, not on every lookup.
      const count = events.length;
      clock += 1000;
      file.current();
      expect(events).toHaveLength(count);
    }
    write({ gazette: { lodgingToken: 'fixed' } });
    clock += 1000;
    expect(file.current().get('gazette')?.lodgingToken).toBe('fixed');
    expect(JSON.stringify(events)).not.toContain('S3CRET');
  });
});
