import { LRUCache } from 'lru-cache';
import { parseImagePath, type ImageCrop } from './address.ts';
import { DiskStore } from './disk-store.ts';
import { ImageError } from './errors.ts';
import { fetchSource, type SourceLimits } from './fetch-source.ts';
import { IMAGE_WIDTHS, type ImageFormat } from './ladder.ts';
import { PRIORITY, TransformQueue, type Priority } from './queue.ts';
import {
  decodeImage,
  sameCrop,
  transformImage,
  type Decoded,
  type TransformLimits,
} from './transform.ts';

export type PipelineOptions = SourceLimits &
  TransformLimits & {
    cacheDir: string;
    cacheMaxBytes: number;
    transforms: number;
    /** How long a request waits before another width already made stands in (10 s). */
    patienceMs?: number | undefined;
    /** Cold pictures waiting at most beyond those being made (128 per transform). */
    waiting?: number | undefined;
  };

type Derive = {
  source: string;
  width: number;
  format: ImageFormat;
  crop?: ImageCrop | undefined;
  /** Redirect targets the source may follow. */
  allowed: (url: string) => boolean;
  /** Its place in the queue (./queue.ts): the picture in view first, warming last. */
  priority?: Priority | undefined;
};

/** A derived image, or (`exact: false`) another width of it standing in while it is made. */
export type Answer = { bytes: Buffer; exact: boolean };

/** The disk store's key of one derived image. */
export const derivedKey = ({ source, width, format, crop }: Omit<Derive, 'allowed' | 'priority'>) =>
  `derived\n${format}\n${width}\n${crop ?? ''}\n${source}`;

/** The disk store's key and format of the public picture a signed address names, if it is one. */
export function publicPicture(secret: string, path: string) {
  const parsed = parseImagePath(secret, path);
  if (!parsed.ok || parsed.request.target.kind !== 'source') return undefined;
  const { target, width, format, crop } = parsed.request;
  return { key: derivedKey({ source: target.source, width, format, crop }), format };
}

const originalKey = (source: string) => `original\n${source}`;

/** Generous: a waiting picture holds a closure, not its source (that waits on disk). */
const WAITING_PER_SLOT = 128;
/** Sources fetched at once per transform slot: the next ones are on disk when a slot frees. */
const FETCHES_PER_SLOT = 2;
const PATIENCE_MS = 10_000;
/** Decoded sources kept for their next pictures (a static build asks every width in a row). */
const DECODED_BYTES = 64 * 1024 * 1024;
const DECODED_MS = 30_000;

const busy = () =>
  new ImageError(503, 'Too many images are being made right now; try again shortly.');

/**
 * Originals fetched once and each size made once, both kept in one disk store; concurrent requests
 * share one promise. Cold pictures queue by priority (./queue.ts), their sources fetched ahead to
 * disk (a long queue holds no source in memory); a long wait is answered by a width already made.
 */
export class ImagePipeline {
  readonly store: DiskStore;
  readonly queue: TransformQueue;
  private readonly fetches: TransformQueue;
  /** Originals being fetched, pictures being derived and transforms running, by key. */
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  /** Cold pictures being made (their source fetched, waiting, or transformed), and the most. */
  private making = 0;
  private readonly limit: number;
  /** Pictures of each source being made. */
  private readonly wanted = new Map<string, number>();
  /** Sources decoded for several pictures. */
  private readonly decoded = new LRUCache<string, Decoded, Buffer>({
    maxSize: DECODED_BYTES,
    sizeCalculation: (value) => value.raster?.data.length ?? 1,
    ttl: DECODED_MS,
    ttlAutopurge: true,
    fetchMethod: (_source, _stale, { context }) => decodeImage(context, this.options),
  });
  /** Counters for tests and benchmarks: upstream fetches and transforms made. */
  readonly counts = { fetches: 0, transforms: 0 };

  private readonly options: PipelineOptions;

  constructor(options: PipelineOptions) {
    this.options = options;
    this.store = new DiskStore(options.cacheDir, options.cacheMaxBytes);
    this.queue = new TransformQueue(options.transforms);
    this.fetches = new TransformQueue(options.transforms * FETCHES_PER_SLOT);
    this.limit = options.transforms + (options.waiting ?? options.transforms * WAITING_PER_SLOT);
  }

  /** `make()` once for `key` while it runs, however many ask. */
  private once(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = make().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  /** The original bytes of `source`, from disk or fetched. */
  private original(source: string, allowed: (url: string) => boolean): Promise<Buffer> {
    const key = originalKey(source);
    return this.once(key, async () => {
      const stored = await this.store.get(key);
      if (stored) return stored;
      this.counts.fetches++;
      const bytes = await fetchSource(source, this.options, allowed);
      await this.store.put(key, bytes);
      return bytes;
    });
  }

  /** `source` at `width` in `format`, from disk or made in its turn; a 503 when the queue is full. */
  derive(request: Derive): Promise<Buffer> {
    const { source, width, format, crop, allowed } = request;
    const priority = request.priority ?? PRIORITY.picture;
    const key = derivedKey({ source, width, format, crop });
    // Asked again while it waits (warmed, then a reader came): it moves up.
    this.queue.raise(key, priority);
    this.fetches.raise(key, priority);
    return this.once(key, async () => {
      const stored = await this.store.get(key);
      if (stored) return stored;
      if (this.making >= this.limit) throw busy();
      this.making++;
      this.wanted.set(source, (this.wanted.get(source) ?? 0) + 1);
      try {
        // Fetched in its turn and left on disk (not held while it waits for a transform).
        await this.fetches.run(
          async () => {
            if (!(await this.store.has(originalKey(source)))) await this.original(source, allowed);
          },
          priority,
          key,
        );
        const bytes = await this.queue.run(
          async () => {
            const original = await this.original(source, allowed);
            const decoded = await this.decodedFor(source, original);
            // A crop that makes the same picture as another (or as none) is made once.
            const same = decoded ? sameCrop(decoded, width, crop) : crop;
            const sameKey = derivedKey({ source, width, format, crop: same });
            const made = sameKey === key ? undefined : await this.store.get(sameKey);
            // Keyed apart from `derive`'s own: the transform of a picture already being derived.
            return (
              made ??
              this.once(`transform\n${sameKey}`, () => {
                this.counts.transforms++;
                return transformImage(original, width, format, this.options, same, decoded);
              })
            );
          },
          priority,
          key,
        );
        await this.store.put(key, bytes);
        return bytes;
      } finally {
        this.making--;
        const left = (this.wanted.get(source) ?? 1) - 1;
        if (left > 0) this.wanted.set(source, left);
        else this.wanted.delete(source);
      }
    });
  }

  /** Decoded once when another picture of it is made too; alone, JPEG shrink-on-load is cheaper. */
  private async decodedFor(source: string, original: Buffer): Promise<Decoded | undefined> {
    if (!this.decoded.has(source) && (this.wanted.get(source) ?? 0) < 2) return undefined;
    return this.decoded.fetch(source, { context: original });
  }

  /**
   * What a visitor's request gets: the derived image, or after the patience (or with the queue full)
   * the nearest width already made, marked not exact, while the exact one is still made.
   */
  async answer(request: Derive): Promise<Answer> {
    const made = this.derive(request);
    made.catch(() => undefined); // awaited below, or left to finish for the next request
    let timer: ReturnType<typeof setTimeout> | undefined;
    const patience = new Promise<'waited'>((resolve) => {
      timer = setTimeout(() => resolve('waited'), this.options.patienceMs ?? PATIENCE_MS);
    });
    // A full queue (503) is answered as a long wait is: a width made, else `made`'s refusal.
    const whenFull = (error: unknown): 'waited' => {
      if (error instanceof ImageError && error.status === 503) return 'waited';
      throw error;
    };
    const first = await Promise.race([made, patience])
      .catch(whenFull)
      .finally(() => clearTimeout(timer));
    if (first !== 'waited') return { bytes: first, exact: true };
    const near = await this.madeNear(request);
    return near ? { bytes: near, exact: false } : { bytes: await made, exact: true };
  }

  /** Another width of the same picture, format and crop already on disk: smaller first, nearest. */
  private async madeNear({ source, width, format, crop }: Derive): Promise<Buffer | undefined> {
    const smaller = IMAGE_WIDTHS.filter((w) => w < width).reverse();
    const larger = IMAGE_WIDTHS.filter((w) => w > width);
    for (const other of [...smaller, ...larger]) {
      const bytes = await this.store.get(derivedKey({ source, width: other, format, crop }));
      if (bytes) return bytes;
    }
    return undefined;
  }
}
