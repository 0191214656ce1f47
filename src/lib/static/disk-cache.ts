import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Upstream answers of one tenant's static build, one JSON file each, written as they arrive so an
 * interrupted build resumes from what it stored. `updatedAt` (the item's `updated_at`) lets a
 * rebuild keep a post that has not changed, however old the copy.
 */
interface DiskEntry<T> {
  key: string;
  storedAt: number;
  updatedAt?: string | null | undefined;
  value: T;
}

const fileName = (key: string): string =>
  `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`;

/** Writes then renames: a reader never sees half of the file, an interruption never leaves one. */
export function writeWhole(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

export type DiskCache = ReturnType<typeof createDiskCache>;

export function createDiskCache(dir: string, now: () => number = Date.now) {
  mkdirSync(dir, { recursive: true });
  return {
    get<T>(key: string): DiskEntry<T> | undefined {
      try {
        const entry = JSON.parse(readFileSync(join(dir, fileName(key)), 'utf8')) as DiskEntry<T>;
        return entry.key === key ? entry : undefined;
      } catch {
        return undefined; // Missing or half-written: fetch again.
      }
    },
    set<T>(key: string, value: T, updatedAt?: string | null) {
      const entry: DiskEntry<T> = { key, storedAt: now(), updatedAt, value };
      writeWhole(join(dir, fileName(key)), JSON.stringify(entry));
    },
  };
}
