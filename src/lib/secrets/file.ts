import { readFileSync, statSync } from 'node:fs';
import { errnoCode, watchedFile } from '../settings/watched-file.ts';
import { parseSecretsText, SecretsFileError, type SecretsByTenant } from './schema.ts';

/**
 * The secrets file at run time: read at start (a bad file refuses the start), then looked at again
 * lazily (at most once per `recheckMs`, on the next lookup: ../settings/watched-file.ts) and on
 * `reload()` (SIGHUP). A changed file that fails its checks is refused with the reason and the
 * secrets in use are kept, so a half-written file never empties a running server.
 */

/** Mode bits that refuse a file: group write, or anything for others (read, write). */
const REFUSED_BITS = 0o026;
/** Group read: allowed (Kubernetes' `fsGroup` with `defaultMode: 0440`), but said loudly. */
const WARNED_BITS = 0o040;

export interface SecretsFileOptions {
  path: string;
  /** How often a lookup may look at the file's modification (default 2 s). */
  recheckMs?: number | undefined;
  now?: () => number;
  /** A problem or a reload, for the log: never a value (the tests read these). */
  report?: (event: SecretsFileEvent) => void;
  /** The platform's mode bits mean nothing on Windows. */
  checkMode?: boolean | undefined;
}

export type SecretsFileEvent =
  | { kind: 'loaded'; tenants: number }
  | { kind: 'refused'; reason: string }
  | { kind: 'open-to-group'; mode: string };

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** The file's secrets after its mode check; a `SecretsFileError` when it cannot be used. */
function readChecked(options: SecretsFileOptions): SecretsByTenant {
  const { path, report } = options;
  // Not there, or not ours to read (`EACCES`: owned by another user).
  const io = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      const code = errnoCode(error) ?? 'unreadable';
      const reason = code === 'ENOENT' ? 'it does not exist' : `cannot read it (${code})`;
      throw new SecretsFileError(path, [reason]);
    }
  };
  const stats = io(() => statSync(path));
  if (!stats.isFile()) throw new SecretsFileError(path, ['it is not a file']);
  const check = options.checkMode ?? process.platform !== 'win32';
  if (check && stats.mode & REFUSED_BITS) {
    throw new SecretsFileError(path, [
      `its mode ${octal(stats.mode)} lets others read or change it (chmod 600, or 0400 in the ` +
        'Docker or Kubernetes secret mount: docs/deploy.md, section 8)',
    ]);
  }
  const secrets = parseSecretsText(
    io(() => readFileSync(path, 'utf8')),
    path,
  );
  if (check && stats.mode & WARNED_BITS)
    report?.({ kind: 'open-to-group', mode: octal(stats.mode) });
  report?.({ kind: 'loaded', tenants: secrets.size });
  return secrets;
}

/** Opens the file: throws a `SecretsFileError` when it cannot be used at start. */
export function openSecretsFile(options: SecretsFileOptions) {
  const { path, now = Date.now, recheckMs = 2000 } = options;
  const listeners = new Set<() => void>();
  const file = watchedFile(path, () => undefined, { everyMs: recheckMs, now });
  let secrets = readChecked(options);

  /** Reads the file now; false when it was refused (the previous secrets stay). */
  const reload = (): boolean => {
    // Read again only once the file changes once more, even when this version is refused.
    file.markRead();
    try {
      secrets = readChecked(options);
    } catch (error) {
      if (!(error instanceof SecretsFileError)) throw error;
      options.report?.({ kind: 'refused', reason: error.message });
      return false;
    }
    for (const listener of listeners) listener();
    return true;
  };

  return {
    /** The secrets in use, by tenant id (looked at again when `recheckMs` has passed). */
    current(): SecretsByTenant {
      if (file.changed()) reload();
      return secrets;
    },
    reload,
    /** Called after each reload that changed the secrets; returns a function that stops it. */
    onChange(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type SecretsFile = ReturnType<typeof openSecretsFile>;
