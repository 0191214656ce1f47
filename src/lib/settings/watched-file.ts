import { statSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Following a file the server reads at run time (`TENANTS_FILE`, `SECRETS_FILE`): which version is
 * on disk, by `stat` (a Kubernetes update swaps a symlink, an editor renames over the file: the
 * inode changes), read again lazily when a lookup finds it changed, actively by its folder's events
 * and a periodic `stat` (a watch can miss changes on network file systems), and on `SIGHUP`.
 */

/** Which version of the file is on disk: `missing` when it cannot be looked at. */
function versionOf(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

export interface WatchedFileOptions {
  /** `changed()` looks at the file at most this often (0: every time). */
  everyMs?: number | undefined;
  /** Quiet time after the last event before `onChange('file')` (writes in several steps). */
  debounceMs?: number | undefined;
  now?: (() => number) | undefined;
}

export interface FollowOptions {
  /** How often the `stat` is compared, in case an event was missed: `onChange('poll')`. */
  pollMs: number;
  /** The folder cannot be watched (the `stat` still runs). */
  onWatchError?: (error: unknown) => void;
}

export interface WatchedFile {
  /** Takes the version on disk now as the one read (call before reading it). */
  markRead: () => void;
  /** Whether the file on disk is not the version read (false while `everyMs` has not passed). */
  changed: () => boolean;
  /** Calls `onChange('file')` once things are quiet for `debounceMs`: something happened to it. */
  notice: () => void;
  /** Follows the file actively (folder events, periodic `stat`); idempotent. */
  follow: (options: FollowOptions) => void;
  /** Stops following the file. */
  close: () => void;
}

/** Watches `path`; `onChange` is told why the file may have changed (read it again). */
export function watchedFile(
  path: string,
  onChange: (reason: 'file' | 'poll') => void,
  options: WatchedFileOptions = {},
): WatchedFile {
  const { everyMs = 0, debounceMs = 0, now = Date.now } = options;
  let version = versionOf(path);
  let lookedAt = now();
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let watcher: FSWatcher | undefined;
  const name = basename(path);

  const file: WatchedFile = {
    markRead() {
      lookedAt = now();
      version = versionOf(path);
    },
    changed() {
      if (now() - lookedAt < everyMs) return false;
      lookedAt = now();
      return versionOf(path) !== version;
    },
    notice() {
      clearTimeout(debounce);
      debounce = setTimeout(() => onChange('file'), debounceMs);
      debounce.unref();
    },
    follow(follow) {
      if (poll) return;
      poll = setInterval(() => {
        if (file.changed()) onChange('poll');
      }, follow.pollMs);
      poll.unref();
      try {
        // Kubernetes swaps a `..data` symlink in the folder; editors rename a temporary file over it.
        watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
          if (changed === null || changed === name || changed.startsWith('..')) file.notice();
        });
        watcher.on('error', () => watcher?.close());
      } catch (error) {
        follow.onWatchError?.(error);
      }
    },
    close() {
      clearTimeout(debounce);
      clearInterval(poll);
      poll = undefined;
      watcher?.close();
      watcher = undefined;
    },
  };
  return file;
}

/** Runs `reload` on each `SIGHUP` (the operator's "read your files again"); returns the stop. */
export function onHangup(reload: () => void): () => void {
  const listener = () => reload();
  process.on('SIGHUP', listener);
  return () => process.off('SIGHUP', listener);
}
