/**
 * How the read cache's entries are written to a shared or disk store (./cache.ts): JSON, with what
 * JSON would lose kept.
 */

/** What an upstream 404 left in the cache. */
export interface Missing {
  operation: string;
  message: string;
}

export interface Entry {
  value: unknown;
  /** Set when the entry remembers a 404 instead of a value. */
  missing?: Missing | undefined;
  storedAt: number;
  freshUntil: number;
  staleUntil: number;
  keepUntil: number;
}

/**
 * JSON with the values JSON loses tagged, so a value read from Redis equals the one stored:
 * `Date`, `undefined` (also as the whole value or in arrays), non-finite numbers and bigint. An
 * object that has a `$t` key of its own is escaped. Anything else that is not plain data (class
 * instances, Map, Set, functions) is not shared: the entry then stays in the local LRU only.
 * `__proto__` keys are dropped both ways (no prototype games through Redis).
 */
const TAG = '$t';

class NotShareable extends Error {}

function toWire(value: unknown): unknown {
  if (value === undefined) return { [TAG]: 'undefined' };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : { [TAG]: 'number', v: String(value) };
  }
  if (typeof value === 'bigint') return { [TAG]: 'bigint', v: value.toString() };
  if (value instanceof Date) return { [TAG]: 'date', v: value.getTime() };
  if (Array.isArray(value)) return value.map(toWire);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new NotShareable();
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== '__proto__') out[k] = toWire(v);
    return TAG in out ? { [TAG]: 'object', v: out } : out;
  }
  throw new NotShareable();
}

function fromWire(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(fromWire);
  const record = value as Record<string, unknown>;
  const tag = record[TAG];
  if (tag === undefined) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) if (k !== '__proto__') out[k] = fromWire(v);
    return out;
  }
  if (tag === 'undefined') return undefined;
  if (tag === 'number') return Number(record['v']);
  if (tag === 'bigint') return BigInt(String(record['v']));
  if (tag === 'date') return new Date(Number(record['v']));
  if (tag === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record['v'] as Record<string, unknown>)) {
      if (k !== '__proto__') out[k] = fromWire(v);
    }
    return out;
  }
  throw new TypeError(`unknown tag ${JSON.stringify(tag)}`);
}

/** `undefined` when the value cannot be shared (see `toWire`). */
export function encodeEntry(entry: Entry): string | undefined {
  if (entry.missing) return JSON.stringify({ ...entry, value: null });
  try {
    return JSON.stringify({ ...entry, value: toWire(entry.value) });
  } catch {
    return undefined;
  }
}

export function decodeEntry(raw: unknown): Entry | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const { storedAt, freshUntil, staleUntil, keepUntil } = parsed;
    if (
      typeof storedAt !== 'number' ||
      typeof freshUntil !== 'number' ||
      typeof staleUntil !== 'number' ||
      typeof keepUntil !== 'number' ||
      !('value' in parsed)
    ) {
      return undefined;
    }
    const missing = parsed['missing'] as Missing | undefined;
    if (missing !== undefined) {
      if (typeof missing.operation !== 'string' || typeof missing.message !== 'string')
        return undefined;
      return { value: undefined, missing, storedAt, freshUntil, staleUntil, keepUntil };
    }
    return { value: fromWire(parsed['value']), storedAt, freshUntil, staleUntil, keepUntil };
  } catch {
    return undefined; // Not ours, or from an older format: a miss.
  }
}
