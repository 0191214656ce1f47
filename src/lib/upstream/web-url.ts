import { z } from 'zod';

/**
 * The one scheme check for every address an upstream sends that ends up in an `href` or `src`: an
 * absolute http(s) URL, returned as the URL parser reads it (as a browser would: tabs, newlines and
 * leading control characters do not hide a `javascript:`); `null` for anything else (`javascript:`,
 * `data:`, relative or unparseable addresses).
 */
export function webUrl(candidate: string | null | undefined): string | null {
  const url = candidate ? URL.parse(candidate) : null;
  if (!url) return null;
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/** A schema field holding such an address: as absent as sent, `null` when not http(s). */
export const webUrlField = z
  .string()
  .nullish()
  .transform((value) => (value === undefined ? undefined : webUrl(value)));
