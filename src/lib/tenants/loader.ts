import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { errorMessage } from '../content/records.ts';
import { errnoCode, watchedFile } from '../settings/watched-file.ts';
import { parseTenantsText, TenantsConfigError } from './schema.ts';
import type { Tenant, TenantIssue, TenantsFile } from './schema.ts';

/**
 * The tenants file, read at run time: the server's registry (./registry.ts), the static build and
 * the doctor all read it here. A running registry follows the file (../settings/watched-file.ts);
 * a file that fails validation is refused with the reason logged, and the tenants running stay.
 */
export interface TenantsFileOptions {
  /** A change to the parsed JSON before validation (the deployment's upstream overrides). */
  adjust?: (raw: unknown) => unknown;
  /** Further checks of the valid tenants (the upstream profiles they name); throws the reason. */
  check?: (tenants: readonly Tenant[]) => void;
}

/** Reads and validates the tenants file; throws a `TenantsConfigError` saying what is wrong. */
export function readTenantsFile(
  path: string,
  options: TenantsFileOptions = {},
): { text: string; file: TenantsFile } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TenantsConfigError(`Cannot read ${path}: ${errnoCode(error) ?? errorMessage(error)}`);
  }
  const file = parseTenantsText(text, path, options.adjust);
  try {
    options.check?.(file.tenants);
  } catch (error) {
    throw new TenantsConfigError(`Invalid ${path}: ${errorMessage(error)}`);
  }
  return { text, file };
}

/** Why the registry read the file again. */
type ReloadReason = 'start' | 'file' | 'poll' | 'signal' | 'bus' | 'subscribed' | 'manual';

/** What one reload changed; unchanged tenants keep their object (caches keyed by it stay warm). */
export interface TenantsChange {
  version: number;
  reason: ReloadReason;
  tenants: readonly Tenant[];
  added: readonly Tenant[];
  changed: readonly { before: Tenant; after: Tenant }[];
  removed: readonly Tenant[];
}

/** What the registry serves: its version, how many tenants, and the file it refused, if any. */
export interface TenantsState {
  version: number;
  tenants: number;
  /** The file on disk, while the registry refuses it (`/_status` shows it). */
  refused: {
    /** The first refusal in a row (ISO): the file has been wrong since then. */
    since: string;
    /** The whole reason on one line, as logged. */
    message: string;
    /** The schema's issues one by one (none when the file is unreadable, not JSON, or names a missing profile). */
    issues: readonly TenantIssue[];
  } | null;
}

type ReloadResult =
  | { status: 'changed'; change: TenantsChange }
  | { status: 'unchanged' }
  | { status: 'refused'; message: string };

export interface TenantRegistryOptions {
  path: string;
  file?: TenantsFileOptions;
  /** Quiet time after the last event before the file is read (writes in several steps). */
  debounceMs?: number;
  /** How often the file's `stat` is compared, in case an event was missed. */
  pollMs?: number;
  log?: {
    info(event: string, fields: Record<string, unknown>): void;
    warn(event: string, fields: Record<string, unknown>): void;
  };
}

/** `added`/`changed`/`removed` by id, reusing the old object of every tenant that is the same. */
export function diffTenants(
  before: readonly Tenant[],
  after: readonly Tenant[],
): Omit<TenantsChange, 'version' | 'reason'> {
  const old = new Map(before.map((tenant) => [tenant.id, tenant]));
  const ids = new Set(after.map((tenant) => tenant.id));
  const added: Tenant[] = [];
  const changed: { before: Tenant; after: Tenant }[] = [];
  const tenants = after.map((tenant) => {
    const previous = old.get(tenant.id);
    if (!previous) added.push(tenant);
    else if (isDeepStrictEqual(previous, tenant)) return previous;
    else changed.push({ before: previous, after: tenant });
    return tenant;
  });
  const removed = before.filter((tenant) => !ids.has(tenant.id));
  return { tenants, added, changed, removed };
}

/** The reason on one line: `Invalid tenants.json: tenant "x" (tenants[3]) → hosts[0]: …; …`. */
function oneLine(message: string): string {
  const [first = '', ...issues] = message.split('\n').map((line) => line.trim());
  const rest = issues.map((line) => line.replace(/^- /, '')).filter(Boolean);
  return rest.length > 0 ? `${first} ${rest.join('; ')}` : first;
}

/** The tenants of `path`, read now (throws when the file is invalid: a server does not start so). */
export function createTenantRegistry(options: TenantRegistryOptions) {
  const { path, debounceMs = 200, pollMs = 5000, log } = options;
  const file = watchedFile(path, (reason) => void reload(reason), { debounceMs });
  let tenants: readonly Tenant[] = readTenantsFile(path, options.file).file.tenants;
  let version = 1;
  let refused: TenantsState['refused'] = null;
  const listeners = new Set<(change: TenantsChange) => void>();

  const reload = (reason: ReloadReason): ReloadResult => {
    file.markRead();
    let next: readonly Tenant[];
    try {
      next = readTenantsFile(path, options.file).file.tenants;
    } catch (error) {
      const message = oneLine(errorMessage(error));
      log?.warn('tenants.reload.refused', {
        file: path,
        reason,
        message: `${message} (still serving the ${tenants.length} tenant${tenants.length === 1 ? '' : 's'} read before)`,
      });
      const issues = error instanceof TenantsConfigError ? error.issues : [];
      refused = { since: refused?.since ?? new Date().toISOString(), message, issues };
      return { status: 'refused', message };
    }
    const wasRefused = refused !== null;
    refused = null;
    const diff = diffTenants(tenants, next);
    const same = (tenant: Tenant, index: number) => tenant === tenants[index];
    if (diff.tenants.length === tenants.length && diff.tenants.every(same)) {
      // The operator who mended the file hears so, as they heard of the refusal.
      if (wasRefused) {
        const message = `${path} is valid again, no change to the tenants served`;
        log?.info('tenants.reload.mended', { file: path, reason, version, message });
      } else if (reason === 'signal') {
        // The operator who sent SIGHUP hears the file was read (a poll or a file event says nothing).
        const message = `${path} read, no change to the ${tenants.length} tenant${tenants.length === 1 ? '' : 's'} served`;
        log?.info('tenants.reload.unchanged', { file: path, reason, version, message });
      }
      return { status: 'unchanged' };
    }
    tenants = diff.tenants;
    version += 1;
    const change: TenantsChange = { version, reason, ...diff };
    log?.info('tenants.reloaded', {
      file: path,
      reason,
      version,
      tenants: tenants.length,
      added: diff.added.map((tenant) => tenant.id),
      changed: diff.changed.map(({ after }) => after.id),
      removed: diff.removed.map((tenant) => tenant.id),
    });
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (error) {
        log?.warn('tenants.listener.failed', { message: errorMessage(error) });
      }
    }
    return { status: 'changed', change };
  };

  return {
    /** The tenants now: look them up on every request, never keep the list. */
    tenants: () => tenants,
    /** 1 at start, one more with each reload that changed something. */
    version: () => version,
    /** The version served and, while the file on disk is refused, why and since when. */
    state: (): TenantsState => ({ version, tenants: tenants.length, refused }),
    /** Called after each reload that changed something; returns the unsubscribe. */
    onChange(listener: (change: TenantsChange) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Reads the file now; a file that fails validation is refused (logged) and the tenants stay. */
    reload,
    /** The file on disk is older than another server's (announced): reads it once it is replaced. */
    awaitNewer: () => file.awaitNext(pollMs, () => reload('bus')),
    /** Something happened to the file: reloads once things have been quiet for `debounceMs`. */
    notice: file.notice,
    /** Starts following the file (its folder's events and the periodic `stat`); idempotent. */
    watch: () =>
      file.follow(pollMs, (error) =>
        log?.warn('tenants.watch.failed', { file: path, message: errorMessage(error) }),
      ),
    close: file.close,
  };
}

export type TenantRegistry = ReturnType<typeof createTenantRegistry>;
