/**
 * Intl formatters built once per locale and options, not per call: building one costs far more than
 * formatting with it, and a page formats a date per comment and card.
 */

// Keys come from tenants.json and a few fixed option sets: the cap only guards against a surprise
// (a plain Map emptied when full, not lru-cache: islands import this too).
const MAX_FORMATS = 1000;

/** `make()` kept under `key` in `map`, which is emptied when it holds `max`. */
export function remembered<T>(map: Map<string, T>, max: number, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    if (map.size >= max) map.clear();
    map.set(key, value);
  }
  return value;
}

const dateTimes = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();
const plurals = new Map<string, Intl.PluralRules>();

/** `new Intl.DateTimeFormat(locale, options)`, shared; throws as it would for a bad locale or zone. */
export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  return remembered(dateTimes, MAX_FORMATS, key, () => new Intl.DateTimeFormat(locale, options));
}

/** `new Intl.NumberFormat(locale, options)`, shared; throws as it would for a bad currency. */
export function numberFormat(
  locale: string,
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  return remembered(numbers, MAX_FORMATS, key, () => new Intl.NumberFormat(locale, options));
}

/**
 * `new Intl.PluralRules(locale)`, shared. Each holds ICU data outside the JS heap (with a number
 * format, about 25 KB): one per locale, not one per tenant or per widget render.
 */
export function pluralRules(locale: string): Intl.PluralRules {
  return remembered(plurals, MAX_FORMATS, locale, () => new Intl.PluralRules(locale));
}
