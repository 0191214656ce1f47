import { LRUCache } from 'lru-cache';

/**
 * Every in-process memo of the site: what `make(key)` gave, remembered per key, with its bound.
 *
 * - `memo(make)`: an object key (a tenant, a picture, an upstream list) keeps its value as long as
 *   the object lives (a WeakMap): replacing the object (tenants read again) forgets it.
 * - `memo(make, bound)`: a string key, at most `max` entries or `maxBytes` (each `bytes(value, key)`),
 *   the least recently used going first, each for `ttlMs` when given (lru-cache).
 *
 * Arguments after the key only help `make` and must not change its result for that key. Every value
 * is remembered, `undefined` too; `forget(key)` drops one (a tenant removed, a login refused),
 * `peek(key)` reads one without making it, `clear()` drops all (tests).
 * One exception: i18n/intl-cache.ts, which the booking widget imports (lru-cache would double it).
 */
export type MemoBound<V> =
  { max: number; ttlMs?: number } | { maxBytes: number; bytes: (value: V, key: string) => number };

export interface Memo<K, A extends unknown[], V> {
  (key: K, ...rest: A): V;
  forget(key: K): void;
  peek(key: K): V | undefined;
  clear(): void;
}

interface Box<V> {
  value: V;
}

export function memo<K extends object, A extends unknown[], V>(
  make: (key: K, ...rest: A) => V,
): Memo<K, A, V>;
export function memo<K extends string, A extends unknown[], V>(
  make: (key: K, ...rest: A) => V,
  bound: MemoBound<V>,
): Memo<K, A, V>;
export function memo<K extends object | string, A extends unknown[], V>(
  make: (key: K, ...rest: A) => V,
  bound?: MemoBound<V>,
): Memo<K, A, V> {
  let weak = new WeakMap<object, Box<V>>();
  const strong =
    bound &&
    new LRUCache<string, Box<V>>(
      'max' in bound
        ? { max: bound.max, ...(bound.ttlMs !== undefined && { ttl: bound.ttlMs }) }
        : { maxSize: bound.maxBytes, sizeCalculation: (box, key) => bound.bytes(box.value, key) },
    );
  const get = (key: K) => (typeof key === 'string' ? strong?.get(key) : weak.get(key));
  const remembered = (key: K, ...rest: A): V => {
    const found = get(key);
    if (found) return found.value;
    const box = { value: make(key, ...rest) };
    if (typeof key === 'string') strong?.set(key, box);
    else weak.set(key, box);
    return box.value;
  };
  const forget = (key: K) => (typeof key === 'string' ? strong?.delete(key) : weak.delete(key));
  const peek = (key: K) => get(key)?.value;
  const clear = () => {
    weak = new WeakMap();
    strong?.clear();
  };
  return Object.assign(remembered, { forget, peek, clear });
}
