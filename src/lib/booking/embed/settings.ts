import type { Tenant } from '../../tenants/schema.ts';
import { embedQuerySchema } from '../domain/schema.ts';

/** Each optional attribute and what it expects (`data-currency` is gone: see loader.ts). */
const ATTRIBUTE: Record<string, [name: string, expected: string]> = {
  checkIn: ['data-check-in', 'a date as YYYY-MM-DD'],
  checkOut: ['data-check-out', 'a date as YYYY-MM-DD'],
  nights: ['data-nights', 'a whole number from 1 to 365'],
  room: ['data-room', 'the id of one of the property’s room types'],
  adults: ['data-adults', 'a whole number from 0 to 50'],
  children: ['data-children', 'a whole number from 0 to 50'],
  locale: ['data-locale', 'a BCP 47 locale such as en-GB'],
};

/** Who may frame the booking embed (and any answer to a request made to it): 'self' and the tenant's partners. */
export function frameAncestorsOf(tenant: Tenant): string {
  return ["'self'", ...(tenant.lodging?.allowedEmbedOrigins ?? [])].join(' ');
}

/**
 * Reads the embed page's query (the loader's `data-*` attributes) for one tenant: the `query` (null
 * for a missing or foreign `data-property`), `errors` and `warnings` for the partner's console,
 * `frameAncestors`, and the host page's origin when it may receive `postMessage` (`parentOrigin`).
 */
export function embedSettings(tenant: Tenant, params: URLSearchParams) {
  const allowed = tenant.lodging?.allowedEmbedOrigins ?? [];
  const frameAncestors = frameAncestorsOf(tenant);
  const raw = Object.fromEntries(params);
  const origin = raw['origin'];
  const parentOrigin = origin && allowed.includes(origin) ? origin : undefined;
  const parsed = embedQuerySchema.safeParse(raw);
  const warnings: string[] = [];
  const frame = { warnings, frameAncestors, parentOrigin };
  if (!parsed.success || !tenant.lodging?.propertyIds.includes(parsed.data.property)) {
    const given = raw['property'] ? `"${raw['property']}" is not` : 'is missing; it must be';
    const ids = (tenant.lodging?.propertyIds ?? []).join(', ');
    const error = `data-property ${given} the id of one of ${tenant.name}’s properties (${ids}).`;
    return { ...frame, query: null, errors: [error] };
  }
  const query = parsed.data;
  const read: Record<string, unknown> = query;
  for (const [key, [attribute, expected]] of Object.entries(ATTRIBUTE)) {
    if (raw[key] !== undefined && read[key] === undefined) {
      warnings.push(`${attribute}="${raw[key]}" was ignored: expected ${expected}.`);
    }
  }
  return { ...frame, query, errors: [] };
}
