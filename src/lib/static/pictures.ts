import { copyFileSync, existsSync, linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import PQueue from 'p-queue';
import { DiskStore } from '../images/disk-store.ts';
import { publicPicture } from '../images/pipeline.ts';
import { askServer, fileForPath } from './crawl.ts';
import { errorMessage } from '../content/records.ts';

/**
 * The derived pictures (`/_img/…`) a static copy's pages name: hard-linked from the image cache
 * (kept between builds) when there, else asked of the rendering server (which keeps it there).
 */
interface PictureMakerOptions {
  outDir: string;
  /** The rendering server's image cache (`IMAGE_CACHE_DIR`). */
  storeDir: string;
  /** The rendering server's `IMAGE_SIGNING_SECRET`: reads the addresses to find them in the cache. */
  secret: string;
  /** The wait before another try of a picture the server refused for now (tests shorten it). */
  retryMs?: number;
}

interface PictureCounts {
  reused: number;
  made: number;
  /** The route's blank stand-ins for pictures whose source failed (asked each build: none is kept). */
  blank: number;
  /** `path: reason` of pictures that could not be written. */
  failed: string[];
}

/** The cache file a public picture's address names, when the address is this build's and it is there. */
export function cachedPicture(storeDir: string, secret: string, path: string): string | undefined {
  const picture = publicPicture(secret, path);
  const file = picture && DiskStore.fileOf(storeDir, picture.key);
  return file && existsSync(file) ? file : undefined;
}

function place(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    // Another file system (or one without links): a copy, unless it is there already.
    if (!existsSync(to)) copyFileSync(from, to);
  }
}

/** Tries of a picture the server refuses for now (503 while busy). */
const ATTEMPTS = 6;

export type PictureMaker = ReturnType<typeof createPictureMaker>;

export function createPictureMaker(options: PictureMakerOptions) {
  const { outDir, storeDir, secret } = options;
  const retryMs = options.retryMs ?? 1000;
  const queued = new Set<string>();
  const written = new Set<string>();
  const counts: PictureCounts = { reused: 0, made: 0, blank: 0, failed: [] };
  let server: string | undefined;
  // What needs the server waits here, paused until there is one; 3 at once (its transforms, plus
  // one in flight).
  const queue = new PQueue({ concurrency: 3, autoStart: false });

  const failed = (path: string, error: unknown) =>
    counts.failed.push(`${path}: ${errorMessage(error)}`);

  /** Queued for the server (it waits while there is none). */
  const ask = (path: string, file: string) =>
    void queue.add(() => make(path, file).catch((error: unknown) => failed(path, error)));

  /** Writes the server's answer: a picture (`made`) or a blank stand-in (`blank`). */
  const make = async (path: string, file: string): Promise<void> => {
    for (let attempt = 1; ; attempt += 1) {
      const base = server;
      // Held between two tries (its server stopped): the next server is asked.
      if (!base) return ask(path, file);
      const response = await askServer(`${base}${path}`);
      const type = response.headers.get('content-type') ?? '';
      // Busy (503 with the route's blank picture, or 429), or another width standing in while
      // this one is made (not immutable): asked again while tries are left, never kept at once.
      const later =
        response.status === 503 ||
        response.status === 429 ||
        (response.ok && !/\bimmutable\b/.test(response.headers.get('cache-control') ?? ''));
      if (later && attempt < ATTEMPTS) {
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, retryMs * attempt));
        continue;
      }
      // A picture whose source failed is the route's blank stand-in (its status, a 1×1 GIF):
      // written too (the page shows its fallback), so the copy has no broken image.
      if ((response.ok && type.startsWith('image/')) || type === 'image/gif') {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        counts[response.ok ? 'made' : 'blank'] += 1;
        written.add(path);
        return;
      }
      await response.body?.cancel();
      failed(path, response.status);
      return;
    }
  };

  return {
    queued,
    counts,
    /** Queues a picture's path (once however often it is added). */
    add(path: string) {
      if (queued.has(path)) return;
      queued.add(path);
      const file = join(outDir, fileForPath(path));
      const cached = cachedPicture(storeDir, secret, path);
      if (!cached) return ask(path, file);
      // In the image cache: placed at once, with or without a server.
      try {
        place(cached, file);
        counts.reused += 1;
        written.add(path);
      } catch (error) {
        failed(path, error);
      }
    },
    useServer(url: string) {
      server = url;
      queue.start();
    },
    /** Asks the current server once more for each picture that failed (an early server died). */
    retryFailed() {
      for (const line of counts.failed.splice(0)) {
        const path = line.slice(0, line.indexOf(': '));
        ask(path, join(outDir, fileForPath(path)));
      }
    },
    /** Asks no server until the next `useServer`; resolves when none is being asked (it may stop). */
    hold() {
      server = undefined;
      queue.pause();
      return queue.onPendingZero();
    },
    /** Resolves when every queued picture is written or has failed (a held queue waits for a server). */
    drain() {
      return queue.onIdle();
    },
    /** Removes written pictures not in `keep` (named by a page seen early that the copy no longer has). */
    prune(keep: ReadonlySet<string>) {
      let removed = 0;
      for (const path of written) {
        if (keep.has(path)) continue;
        try {
          unlinkSync(join(outDir, fileForPath(path)));
          removed += 1;
        } catch {
          // Already gone.
        }
        written.delete(path);
      }
      return removed;
    },
  };
}
