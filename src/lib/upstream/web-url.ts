import { z } from 'zod';

/** Parses like a browser (tabs, newlines and leading controls removed) to find the real scheme. */
const RELATIVE_BASE = 'http://relative.invalid/';

/**
 * The one scheme check for every address an upstream sends that ends up in an `href` or `src`: an
 * absolute http(s) URL (returned normalized) or a path without a scheme (returned as sent); `null`
 * for anything else (`javascript:`, `data:`, `java\tscript:`, unparseable).
 */
export function webUrl(candidate: string | null | undefined): string | null {
  if (candidate === null || candidate === undefined || candidate.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(candidate, RELATIVE_BASE);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const relative = url.href.startsWith(RELATIVE_BASE) && !/^\s*[a-z][a-z0-9+.-]*:/i.test(candidate);
  return relative ? candidate.trim() : url.href;
}

/** A schema field holding such an address: `null` when absent or not http(s). */
export const webUrlField = z
  .string()
  .nullish()
  .transform((value) => webUrl(value));
