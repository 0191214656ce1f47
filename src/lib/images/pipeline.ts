import { DiskStore } from './disk-store.ts';
import { fetchSource, type SourceLimits } from './fetch-source.ts';
import type { ImageFormat } from './ladder.ts';
import { Slots } from './slots.ts';
import { transformImage, type Crop, type TransformLimits } from './transform.ts';

export type PipelineOptions = SourceLimits &
  TransformLimits & { cacheDir: string; cacheMaxBytes: number; transforms: number };

export type Derive = {
  source: string;
  width: number;
  format: ImageFormat;
  crop?: Crop | undefined;
  /** Redirect targets the source may follow. */
  allowed: (url: string) => boolean;
};

/** The disk store's key of one derived image. */
export const derivedKey = ({ source, width, format, crop }: Omit<Derive, 'allowed'>) =>
  `derived\n${format}\n${width}\n${crop ?? ''}\n${source}`;

/**
 * Originals fetched once per server and each size made once: both kept in one disk store, and
 * concurrent requests for the same original or the same derived image share one promise. A warm
 * derived image is a file read, no sharp work.
 */
export class ImagePipeline {
  readonly store: DiskStore;
  readonly slots: Slots;
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  /** Counters for tests and benchmarks: upstream fetches and transforms made. */
  readonly counts = { fetches: 0, transforms: 0 };

  private readonly options: PipelineOptions;

  constructor(options: PipelineOptions) {
    this.options = options;
    this.store = new DiskStore(options.cacheDir, options.cacheMaxBytes);
    this.slots = new Slots(options.transforms, options.transforms * 16);
  }

  private once(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const promise = make().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  /** The original bytes of `source`, from disk or fetched (once, however many ask at the same time). */
  original(source: string, allowed: (url: string) => boolean): Promise<Buffer> {
    const key = `original\n${source}`;
    return this.once(key, async () => {
      const stored = await this.store.get(key);
      if (stored) return stored;
      this.counts.fetches++;
      const bytes = await fetchSource(source, this.options, allowed);
      await this.store.put(key, bytes);
      return bytes;
    });
  }

  /** `source` at `width` in `format`, from disk or made once. */
  derive({ source, width, format, crop, allowed }: Derive): Promise<Buffer> {
    const key = derivedKey({ source, width, format, crop });
    return this.once(key, async () => {
      const stored = await this.store.get(key);
      if (stored) return stored;
      const bytes = await this.slots.admit(async (slot) => {
        const original = await this.original(source, allowed);
        return slot(() => {
          this.counts.transforms++;
          return transformImage(original, width, format, this.options, crop);
        });
      });
      await this.store.put(key, bytes);
      return bytes;
    });
  }
}
