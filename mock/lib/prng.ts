import { createHash } from 'node:crypto';

/** Seeded random source: every seed helper takes one so the same seed gives the same data. */
export type Rng = {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  shuffle<T>(items: readonly T[]): T[];
  sample<T>(items: readonly T[], count: number): T[];
  uuid(): string;
  chars(length: number): string;
};

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** mulberry32: tiny, fast, good enough for fixtures. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(0, i);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  };
  const hex = (n: number): string =>
    Array.from({ length: n }, () => int(0, 15).toString(16)).join('');
  return {
    next,
    int,
    pick,
    chance: (p) => next() < p,
    shuffle,
    sample: (items, count) => shuffle(items).slice(0, count),
    // Version-4 layout so strict uuid validators accept it.
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(0, 3)]}${hex(3)}-${hex(12)}`,
    chars: (length) => Array.from({ length }, () => pick(ALNUM.split(''))).join(''),
  };
}

/** Uuid derived from a name, independent of the seed: demo ids must never move. */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(`masthead-mock:${name}`).digest('hex');
  const variant = '89ab'[parseInt(h.charAt(16), 16) % 4] ?? '8';
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** 40 alphanumeric characters derived from a name (Sanctum's plain-text token length). */
export function stableSecret(name: string): string {
  const bytes = createHash('sha512').update(`masthead-mock:${name}`).digest();
  return Array.from(bytes.subarray(0, 40), (b) => ALNUM.charAt(b % ALNUM.length)).join('');
}
