import type { Tenant } from '../tenants/schema.ts';
import { embedQuerySchema } from './schema.ts';
import type { EmbedQuery } from './schema.ts';

export interface EmbedSettings {
  /** Null when `data-property` is missing or not one of this tenant's properties. */
  query: EmbedQuery | null;
  /** A line per `data-*` value that was ignored, for the partner's console. */
  warnings: string[];
  /** `'self'` plus the tenant's allowed partner origins, for `frame-ancestors`. */
  frameAncestors: string;
  /** The host page's origin when it may receive `postMessage`, else undefined. */
  parentOrigin: string | undefined;
}

const ATTRIBUTE: Record<string, string> = {
  property: 'data-property',
  checkIn: 'data-check-in',
  checkOut: 'data-check-out',
  adults: 'data-adults',
  children: 'data-children',
  locale: 'data-locale',
  currency: 'data-currency',
};

/** Reads the embed page's query (the loader's `data-*` attributes) for one tenant. */
export function embedSettings(tenant: Tenant, params: URLSearchParams): EmbedSettings {
  const allowed = tenant.lodging?.allowedEmbedOrigins ?? [];
  const frameAncestors = ["'self'", ...allowed].join(' ');
  const raw = Object.fromEntries(params);
  const parsed = embedQuerySchema.safeParse(raw);
  const warnings: string[] = [];
  if (!parsed.success || !tenant.lodging?.propertyIds.includes(parsed.data.property)) {
    return {
      query: null,
      warnings: ['data-property must be the id of one of this site’s properties'],
      frameAncestors,
      parentOrigin: undefined,
    };
  }
  const query = parsed.data;
  for (const [key, attribute] of Object.entries(ATTRIBUTE)) {
    if (raw[key] !== undefined && query[key as keyof EmbedQuery] === undefined) {
      warnings.push(`${attribute}="${raw[key]}" was ignored: not a valid value`);
    }
  }
  const parentOrigin = query.origin && allowed.includes(query.origin) ? query.origin : undefined;
  return { query, warnings, frameAncestors, parentOrigin };
}
