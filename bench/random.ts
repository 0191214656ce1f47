/** Seeded randomness for the benchmarks, so runs compare. */

/** mulberry32: a small seeded PRNG returning numbers in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, each chosen in proportion to its weight. */
export function weighted<T>(random: () => number, items: [T, number][]): T {
  let pick = random() * items.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [item, weight] of items) {
    pick -= weight;
    if (pick <= 0) return item;
  }
  return items[items.length - 1]![0];
}
