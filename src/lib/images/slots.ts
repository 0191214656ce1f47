import { ImageError } from './errors.ts';

/**
 * At most `size` transforms at once, and at most `size + queue` images in the making (fetching
 * their source, waiting or transforming): beyond that the route answers 503 at once, before the
 * source is fetched, so memory stays bounded (each source held is up to a few megabytes).
 */
export class Slots {
  private running = 0;
  private admitted = 0;
  private readonly waiting: (() => void)[] = [];
  /** The most transforms that ran at once (for tests and benchmarks). */
  peak = 0;

  private readonly size: number;
  private readonly queue: number;

  constructor(size: number, queue: number) {
    this.size = size;
    this.queue = queue;
  }

  /** Runs `job` (fetch, then `slot(transform)`) if there is room; a 503 at once if not. */
  async admit<T>(job: (slot: <R>(work: () => Promise<R>) => Promise<R>) => Promise<T>): Promise<T> {
    if (this.admitted >= this.size + this.queue) {
      throw new ImageError(503, 'Too many images are being made right now; try again shortly.');
    }
    this.admitted++;
    try {
      return await job((work) => this.run(work));
    } finally {
      this.admitted--;
    }
  }

  private async run<R>(work: () => Promise<R>): Promise<R> {
    if (this.running >= this.size) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    this.peak = Math.max(this.peak, this.running);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
