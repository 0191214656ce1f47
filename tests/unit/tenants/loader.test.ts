import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTenantRegistry,
  diffTenants,
  readTenantsFile,
} from '../../../src/lib/tenants/loader.ts';
import type { TenantRegistry, TenantsChange } from '../../../src/lib/tenants/loader.ts';
import type { TenantInput } from '../../../src/lib/tenants/schema.ts';
import { buildTenant, tenantInput } from '../../fixtures/tenant.ts';

const gazette = tenantInput();
const courier = tenantInput({ id: 'courier', name: 'Courier', hosts: ['courier.example.com'] });

let dir: string;
let path: string;
let registry: TenantRegistry | undefined;
const lines: { level: string; event: string; fields: Record<string, unknown> }[] = [];
const log = {
  info: (event: string, fields: Record<string, unknown>) =>
    lines.push({ level: 'info', event, fields }),
  warn: (event: string, fields: Record<string, unknown>) =>
    lines.push({ level: 'warn', event, fields }),
};

const write = (tenants: unknown[], file = path) =>
  writeFileSync(file, JSON.stringify({ tenants }, null, 2));

const ids = () => registry?.tenants().map((tenant) => tenant.id);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'masthead-tenants-'));
  path = join(dir, 'tenants.json');
  lines.length = 0;
});

afterEach(() => {
  registry?.close();
  registry = undefined;
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe('readTenantsFile', () => {
  it('reads and validates the file with the schema (defaults applied)', () => {
    write([gazette]);
    const { file } = readTenantsFile(path);
    expect(file.tenants.map((tenant) => [tenant.id, tenant.features.booking])).toEqual([
      ['gazette', false],
    ]);
  });

  it('names the file, the tenant and the field of a mistake', () => {
    write([gazette, { ...courier, theme: { colors: { primary: 'red', accent: '#abcdef' } } }]);
    expect(() => readTenantsFile(path)).toThrow(
      /tenant "courier" \(tenants\[1\]\) → theme\.colors\.primary/,
    );
  });

  it('says when the file cannot be read', () => {
    expect(() => readTenantsFile(join(dir, 'none.json'))).toThrow(
      /Cannot read .*none\.json: ENOENT/,
    );
  });

  it("refuses tenants the extra check refuses (profiles the build doesn't have)", () => {
    write([gazette]);
    expect(() =>
      readTenantsFile(path, {
        check: () => {
          throw new Error('tenant "gazette" → publishing.profile: no profile "nope"');
        },
      }),
    ).toThrow(/Invalid .*tenants\.json: tenant "gazette" → publishing\.profile/);
  });
});

describe('diffTenants', () => {
  it('keeps the object of an unchanged tenant and reports the others', () => {
    const before = [buildTenant(gazette), buildTenant(courier)];
    const after = [
      buildTenant(gazette),
      buildTenant({ ...courier, name: 'The Courier' }),
      buildTenant({ ...courier, id: 'herald', hosts: ['herald.example.com'] }),
    ];
    const diff = diffTenants(before, after);
    expect(diff.tenants[0]).toBe(before[0]);
    expect(diff.tenants[1]).toBe(after[1]);
    expect(diff.added.map((tenant) => tenant.id)).toEqual(['herald']);
    expect(diff.changed.map(({ before: old, after: now }) => [old.name, now.name])).toEqual([
      ['Courier', 'The Courier'],
    ]);
    expect(diffTenants(after, [after[0]!]).removed.map((tenant) => tenant.id)).toEqual([
      'courier',
      'herald',
    ]);
  });
});

describe('createTenantRegistry', () => {
  it('throws at start when the file is invalid (a server refuses to start)', () => {
    write([{ ...gazette, hosts: [] }]);
    expect(() => createTenantRegistry({ path })).toThrow(/tenant "gazette"/);
  });

  it('adds, changes and removes tenants on reload, telling subscribers what changed', () => {
    write([gazette]);
    registry = createTenantRegistry({ path, log });
    const changes: TenantsChange[] = [];
    registry.onChange((change) => changes.push(change));
    const first = registry.tenants()[0];

    write([gazette, courier]);
    expect(registry.reload('signal').status).toBe('changed');
    expect(ids()).toEqual(['gazette', 'courier']);
    expect(registry.tenants()[0]).toBe(first);

    write([gazette, { ...courier, name: 'The Courier' }]);
    registry.reload('signal');
    expect(registry.tenants()[1]?.name).toBe('The Courier');

    write([{ ...courier, name: 'The Courier' }]);
    registry.reload('signal');
    expect(ids()).toEqual(['courier']);

    expect(registry.version()).toBe(4);
    expect(
      changes.map((change) => ({
        added: change.added.map((tenant) => tenant.id),
        changed: change.changed.map(({ after }) => after.id),
        removed: change.removed.map((tenant) => tenant.id),
      })),
    ).toEqual([
      { added: ['courier'], changed: [], removed: [] },
      { added: [], changed: ['courier'], removed: [] },
      { added: [], changed: [], removed: ['gazette'] },
    ]);
  });

  it('keeps the running tenants when the new file is invalid, and logs why on one line', () => {
    write([gazette]);
    registry = createTenantRegistry({ path, log });
    write([gazette, { ...courier, hosts: ['gazette.example.com'] }]);
    const result = registry.reload('file');
    expect(result.status).toBe('refused');
    expect(ids()).toEqual(['gazette']);
    expect(registry.version()).toBe(1);
    const refused = lines.find((line) => line.event === 'tenants.reload.refused');
    expect(refused?.level).toBe('warn');
    const message = String(refused?.fields['message']);
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      /tenant "courier" \(tenants\[1\]\) → hosts\.0: Host "gazette\.example\.com" is already used by tenant "gazette"/,
    );

    write(['not a tenant']);
    expect(registry.reload('file').status).toBe('refused');
    writeFileSync(path, '{ "tenants": [');
    expect(registry.reload('file').status).toBe('refused');
    expect(ids()).toEqual(['gazette']);
  });

  it('says which file on disk it refused, why (tenant, field, zod message) and since when, until a good one is read', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T07:00:00Z'));
    write([gazette]);
    registry = createTenantRegistry({ path, log });
    expect(registry.state()).toEqual({ version: 1, tenants: 1, refused: null });

    write([gazette, { ...courier, hosts: ['gazette.example.com'] }]);
    registry.reload('file');
    vi.setSystemTime(new Date('2026-11-27T07:05:00Z'));
    // Still broken, another way: the reason follows the file, the time stays the first refusal's.
    write([gazette, { ...courier, locale: 'xx-nope-nope-nope' }, 'not a tenant']);
    registry.reload('poll');
    const state = registry.state();
    expect(state.version).toBe(1);
    expect(state.tenants).toBe(1);
    expect(state.refused?.since).toBe('2026-11-27T07:00:00.000Z');
    expect(state.refused?.message).toContain('tenant "courier" (tenants[1]) → locale');
    expect(state.refused?.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tenant: 'courier', index: 1, path: 'locale' }),
        expect.objectContaining({ index: 2, path: '(root)' }),
      ]),
    );
    expect(state.refused?.issues.every((issue) => issue.message.length > 0)).toBe(true);

    // Broken JSON: no field to name, the reason says where.
    writeFileSync(path, '{ "tenants": [');
    registry.reload('file');
    expect(registry.state().refused).toMatchObject({
      since: '2026-11-27T07:00:00.000Z',
      issues: [],
    });
    expect(registry.state().refused?.message).toMatch(/not valid JSON/);

    // A good file with the same tenants changes nothing, and still clears the refusal, saying so.
    lines.length = 0;
    write([gazette]);
    expect(registry.reload('file').status).toBe('unchanged');
    expect(registry.state()).toEqual({ version: 1, tenants: 1, refused: null });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        event: 'tenants.reload.mended',
        fields: expect.objectContaining({
          message: `${path} is valid again, no change to the tenants served`,
        }) as unknown,
      }),
    ]);
    // Read again unchanged: nothing to say.
    expect(registry.reload('file').status).toBe('unchanged');
    expect(lines).toHaveLength(1);
  });

  it('does nothing when the file was written with the same tenants', () => {
    write([gazette]);
    registry = createTenantRegistry({ path, log });
    const listener = vi.fn();
    registry.onChange(listener);
    writeFileSync(path, JSON.stringify({ tenants: [gazette] }));
    expect(registry.reload('file').status).toBe('unchanged');
    expect(listener).not.toHaveBeenCalled();
  });

  // Before: a SIGHUP that found nothing to change logged nothing, the operator unsure it was read.
  it('says a reload it was signalled to do was read and changed nothing; a poll says nothing', () => {
    write([gazette]);
    registry = createTenantRegistry({ path, log });
    for (const reason of ['poll', 'file', 'bus'] as const) registry.reload(reason);
    expect(lines).toEqual([]);
    expect(registry.reload('signal').status).toBe('unchanged');
    expect(lines).toEqual([
      {
        level: 'info',
        event: 'tenants.reload.unchanged',
        fields: {
          file: path,
          reason: 'signal',
          version: 1,
          message: `${path} read, no change to the 1 tenant served`,
        },
      },
    ]);
  });

  it('reads the file once after a burst of events (debounce)', () => {
    vi.useFakeTimers();
    write([gazette]);
    registry = createTenantRegistry({ path, log, debounceMs: 200 });
    const listener = vi.fn();
    registry.onChange(listener);
    // An editor writing in steps: half a file, then the whole one, each step an event.
    writeFileSync(path, '{ "tenants": [');
    registry.notice();
    vi.advanceTimersByTime(150);
    write([gazette, courier]);
    registry.notice();
    vi.advanceTimersByTime(150);
    registry.notice();
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(ids()).toEqual(['gazette', 'courier']);
    expect(lines.some((line) => line.event === 'tenants.reload.refused')).toBe(false);
  });

  it('follows a file replaced by rename, as editors and atomic writes do', async () => {
    write([gazette]);
    registry = createTenantRegistry({ path, log, debounceMs: 50, pollMs: 60_000 });
    registry.watch();
    const temporary = join(dir, '.tenants.json.tmp');
    write([gazette, courier], temporary);
    renameSync(temporary, path);
    await vi.waitFor(() => expect(ids()).toEqual(['gazette', 'courier']), { timeout: 5000 });
  });

  it('follows a Kubernetes ConfigMap swap (a `..data` symlink replaced)', async () => {
    const mount = join(dir, 'mount');
    mkdirSync(join(mount, '..v1'), { recursive: true });
    mkdirSync(join(mount, '..v2'), { recursive: true });
    write([gazette], join(mount, '..v1', 'tenants.json'));
    write([courier], join(mount, '..v2', 'tenants.json'));
    symlinkSync('..v1', join(mount, '..data'));
    symlinkSync(join('..data', 'tenants.json'), join(mount, 'tenants.json'));
    registry = createTenantRegistry({
      path: join(mount, 'tenants.json'),
      log,
      debounceMs: 50,
      pollMs: 60_000,
    });
    registry.watch();
    expect(ids()).toEqual(['gazette']);
    symlinkSync('..v2', join(mount, '..data_tmp'));
    renameSync(join(mount, '..data_tmp'), join(mount, '..data'));
    await vi.waitFor(() => expect(ids()).toEqual(['courier']), { timeout: 5000 });
  });

  it('notices a change its folder watch missed, by comparing the file every few seconds', () => {
    vi.useFakeTimers();
    write([gazette]);
    registry = createTenantRegistry({ path, log, pollMs: 1000 });
    registry.watch();
    const listener = vi.fn();
    registry.onChange(listener);
    vi.advanceTimersByTime(3000);
    expect(listener).not.toHaveBeenCalled();
    write([gazette, courier] as TenantInput[]);
    vi.advanceTimersByTime(1000);
    expect(ids()).toEqual(['gazette', 'courier']);
  });
});

describe('a file behind another server’s (awaitNewer)', () => {
  it('is read once it is replaced, without watching it before or after', () => {
    vi.useFakeTimers();
    write([gazette]);
    registry = createTenantRegistry({ path, log, pollMs: 1000 });
    registry.awaitNewer();
    vi.advanceTimersByTime(3000);
    expect(ids()).toEqual(['gazette']);
    const temporary = join(dir, '.tenants.json.tmp');
    write([gazette, courier], temporary);
    renameSync(temporary, path);
    vi.advanceTimersByTime(1000);
    expect(ids()).toEqual(['gazette', 'courier']);
    // The one awaited change read: later writes wait for SIGHUP or the next announcement.
    write([courier]);
    vi.advanceTimersByTime(5000);
    expect(ids()).toEqual(['gazette', 'courier']);
  });
});
