import { statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Which version of the file is on disk (a symlink swap or a rename changes the inode). */
function versionOf(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * Follows a file read at run time (`TENANTS_FILE`, `SECRETS_FILE`): `changed()` compares its `stat`
 * with the version read (at most every `everyMs`); `follow()` also watches its folder (editors and
 * Kubernetes replace the file by rename or symlink swap) and calls `onChange` once writes are quiet
 * for `debounceMs`, and compares the `stat` every `pollMs` (network file systems miss events).
 */
export function watchedFile(
  path: string,
  onChange: (reason: 'file' | 'poll') => void,
  {
    everyMs = 0,
    debounceMs = 0,
    now = Date.now,
  }: Partial<Record<'everyMs' | 'debounceMs', number>> & { now?: () => number } = {},
) {
  let version = versionOf(path);
  let lookedAt = now();
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let awaited: ReturnType<typeof setInterval> | undefined;
  let watcher: FSWatcher | undefined;
  const changed = () => {
    if (now() - lookedAt < everyMs) return false;
    lookedAt = now();
    return versionOf(path) !== version;
  };
  const notice = () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => onChange('file'), debounceMs);
    debounce.unref();
  };
  return {
    /** Takes the version on disk now as the one read (call before reading it). */
    markRead: () => {
      clearInterval(awaited);
      lookedAt = now();
      version = versionOf(path);
    },
    changed,
    notice,
    /** Calls `onNext` once the file differs from the version read (its `stat` every `pollMs`), unless it is read before. */
    awaitNext: (pollMs: number, onNext: () => void) => {
      clearInterval(awaited);
      awaited = setInterval(() => changed() && onNext(), pollMs);
      awaited.unref();
    },
    follow: (pollMs: number, onWatchError: (error: unknown) => void) => {
      if (poll) return;
      poll = setInterval(() => changed() && onChange('poll'), pollMs);
      poll.unref();
      try {
        watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
          if (name === null || name === basename(path) || name.startsWith('..')) notice();
        });
        watcher.on('error', () => watcher?.close());
      } catch (error) {
        onWatchError(error);
      }
    },
    close: () => {
      clearTimeout(debounce);
      clearInterval(awaited);
      clearInterval(poll);
      poll = undefined;
      watcher?.close();
      watcher = undefined;
    },
  };
}

/** Why a file could not be read (`ENOENT`, `EACCES`…), when the error says. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** Runs `reload` on each `SIGHUP` (the operator's "read your files again"); returns the stop. */
export function onHangup(reload: () => void): () => void {
  process.on('SIGHUP', reload);
  return () => process.off('SIGHUP', reload);
}
