import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { errorMessage } from '../content/records.ts';
import { logWarn } from '../log/log.ts';

/**
 * Derived images (and originals) on disk within a byte limit, least recently used out; the index is
 * rebuilt from the folder at start. Files are written under a temporary name and renamed, so a
 * reader never sees half; a disk that takes no file stores nothing (pictures are still served).
 * Unlike upstream/disk-store.ts (unstorage, text with a TTL) it keeps bytes, forever, hashed names.
 */
/** Recently served small files also kept in memory. */
const MEMORY_BYTES = 32 * 1024 * 1024;
const MEMORY_FILE_MAX = 256 * 1024;
/** A temporary file older than this is no write in progress (another server's either). */
const PARTIAL_MAX_AGE_MS = 10 * 60 * 1000;

const nameOf = (key: string) => createHash('sha256').update(key).digest('hex');
const fileIn = (dir: string, name: string) => join(dir, name.slice(0, 2), name);

export class DiskStore {
  private readonly index: LRUCache<string, number>;
  /** A warm image's bytes without a file read (the file read was most of a warm image's cost). */
  private readonly hot = new LRUCache<string, Buffer>({
    maxSize: MEMORY_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
  });
  private ready: Promise<void> | undefined;
  private readonly dir: string;
  /** Whether the last write failed (logged once until a write succeeds again). */
  private failing = false;

  constructor(dir: string, maxBytes: number) {
    this.dir = dir;
    this.index = new LRUCache<string, number>({
      maxSize: maxBytes,
      sizeCalculation: (size) => Math.max(1, size),
      dispose: (_size, name, reason) => {
        if (reason !== 'evict' && reason !== 'delete') return;
        this.hot.delete(name);
        void unlink(this.file(name)).catch(() => {});
      },
    });
  }

  /** The file of `key` in a store at `dir` (there or not): its SHA-256, spread over 256 folders. */
  static fileOf(dir: string, key: string): string {
    return fileIn(dir, nameOf(key));
  }

  private file(name: string): string {
    return fileIn(this.dir, name);
  }

  private load(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true }).catch(() => {}); // then every write fails: put
      const found: { name: string; size: number; time: number }[] = [];
      for (const folder of await readdir(this.dir).catch(() => [])) {
        for (const name of await readdir(join(this.dir, folder)).catch(() => [])) {
          const info = await stat(join(this.dir, folder, name)).catch(() => undefined);
          if (name.includes('.')) {
            // A temporary file: a crash's (killed mid-write) once older than any write takes.
            if (info && info.mtimeMs < Date.now() - PARTIAL_MAX_AGE_MS) {
              await unlink(join(this.dir, folder, name)).catch(() => {});
            }
            continue;
          }
          if (info?.isFile()) found.push({ name, size: info.size, time: info.mtimeMs });
        }
      }
      for (const entry of found.sort((a, b) => a.time - b.time)) {
        this.index.set(entry.name, entry.size);
      }
    })();
    return this.ready;
  }

  async get(key: string): Promise<Buffer | undefined> {
    await this.load();
    const name = nameOf(key);
    if (this.index.get(name) === undefined) return undefined;
    const hot = this.hot.get(name);
    if (hot) return hot;
    try {
      return this.remember(name, await readFile(this.file(name)));
    } catch {
      this.index.delete(name);
      return undefined;
    }
  }

  /** Whether `key` is stored (without reading it). */
  async has(key: string): Promise<boolean> {
    await this.load();
    return this.index.has(nameOf(key));
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.load();
    const name = nameOf(key);
    const file = this.file(name);
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    try {
      await mkdir(join(this.dir, name.slice(0, 2)), { recursive: true });
      await writeFile(partial, bytes);
      await rename(partial, file);
    } catch (error) {
      void unlink(partial).catch(() => {}); // a full disk keeps no half-written file
      if (!this.failing) {
        logWarn('images.cache_write_failed', { dir: this.dir, reason: errorMessage(error) });
      }
      this.failing = true;
      return;
    }
    this.failing = false;
    this.index.set(name, bytes.byteLength);
    this.remember(name, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
  }

  private remember(name: string, bytes: Buffer): Buffer {
    if (bytes.byteLength <= MEMORY_FILE_MAX) this.hot.set(name, bytes);
    return bytes;
  }

  /** Bytes held (the index's view). */
  async size(): Promise<number> {
    await this.load();
    return this.index.calculatedSize;
  }
}
