import { LRUCache } from 'lru-cache';
import type { UpstreamService } from './errors.ts';

/** What an invalidation names (src/lib/freshness/invalidation.ts builds it). */
export interface InvalidationTarget {
  service: UpstreamService;
  tenant: string;
  /** Operation names (`posts.list`); every operation of the tenant when both this and `entries` are absent. */
  operations?: readonly string[] | undefined;
  /** Only the values of an operation read with one parameter's value (`posts.get`, `slug`, `a-b`). */
  entries?: readonly { operation: string; param: string; value: string }[] | undefined;
}

/**
 * When the read cache's values went out of date (./cache.ts): a value stored before its key's
 * cutoff is invalidated, kept to be served only when it cannot be loaded again. Keys are
 * `service|tenant|operation|identity|params` (`cacheKey`).
 */
export function createCutoffs() {
  /** `service|tenant|operation` (or `service|tenant|*`) → values stored before this are out of date. */
  const byOperation = new Map<string, number>();
  /** The same for one parameter's value, `service|tenant|operation|param=<json>` (one a publish). */
  const byValue = new LRUCache<string, number>({ max: 50_000 });
  /** `service|tenant|operation` → the parameters `byValue` has values for. */
  const params = new Map<string, Set<string>>();

  const paramsOf = (text: string): Record<string, unknown> => {
    try {
      return JSON.parse(text || '{}') as Record<string, unknown>;
    } catch {
      return {};
    }
  };

  return {
    /** Read on every cached read: nothing to look up until something was invalidated. */
    of(key: string): number {
      if (byOperation.size === 0 && params.size === 0) return 0;
      const afterTenant = key.indexOf('|', key.indexOf('|') + 1);
      const afterOperation = key.indexOf('|', afterTenant + 1);
      const scope = key.slice(0, afterTenant);
      const operation = afterOperation < 0 ? key : key.slice(0, afterOperation);
      let cutoff = Math.max(byOperation.get(operation) ?? 0, byOperation.get(`${scope}|*`) ?? 0);
      const names = params.get(operation);
      if (names) {
        // Parsed only for an operation with a value invalidated.
        const values = paramsOf(key.slice(key.indexOf('|', afterOperation + 1) + 1));
        for (const name of names) {
          const at = byValue.get(`${operation}|${name}=${JSON.stringify(values[name])}`);
          if (at !== undefined) cutoff = Math.max(cutoff, at);
        }
      }
      return cutoff;
    },
    add(target: InvalidationTarget, at: number): void {
      const scope = `${target.service}|${target.tenant}`;
      const everything = target.operations === undefined && target.entries === undefined;
      for (const operation of everything ? ['*'] : (target.operations ?? [])) {
        const name = `${scope}|${operation}`;
        byOperation.set(name, Math.max(byOperation.get(name) ?? 0, at));
      }
      for (const { operation, param, value } of target.entries ?? []) {
        const name = `${scope}|${operation}`;
        params.set(name, (params.get(name) ?? new Set<string>()).add(param));
        const key = `${name}|${param}=${JSON.stringify(value)}`;
        byValue.set(key, Math.max(byValue.get(key) ?? 0, at));
      }
    },
  };
}
