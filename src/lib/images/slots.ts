import { ImageError } from './errors.ts';

/**
 * At most `size` transforms at once; up to `queue` more wait their turn, beyond that the route
 * answers 503 at once instead of piling up memory (each waiting source is a few megabytes).
 */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  private readonly size: number;
  private readonly queue: number;

  constructor(size: number, queue: number) {
    this.size = size;
    this.queue = queue;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
      if (this.waiting.length >= this.queue) {
        throw new ImageError(503, 'Too many images are being made right now; try again shortly.');
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  get busy(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
