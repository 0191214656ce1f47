/**
 * Intl formatters built once per locale and options (a tenant's locale and zone), not per call:
 * building one costs far more than formatting with it, and a page formats a date per comment and
 * card.
 */
type Shared = Intl.DateTimeFormat | Intl.NumberFormat | Intl.PluralRules;

const formats = new Map<string, Shared>();
// Keys come from tenants.json and a few fixed option sets: the cap only guards against a surprise
// (a plain Map, not lru-cache: islands import this too).
const MAX_FORMATS = 1000;

function cached<T extends Shared>(
  kind: string,
  locale: string,
  options: object,
  build: () => T,
): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key) as T | undefined;
  if (!format) {
    format = build();
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(key, format);
  }
  return format;
}

/** `new Intl.DateTimeFormat(locale, options)`, shared; throws as it would for a bad locale or zone. */
export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  return cached('dt', locale, options, () => new Intl.DateTimeFormat(locale, options));
}

/** `new Intl.NumberFormat(locale, options)`, shared; throws as it would for a bad currency. */
export function numberFormat(
  locale: string,
  options: Intl.NumberFormatOptions = {},
): Intl.NumberFormat {
  return cached('nf', locale, options, () => new Intl.NumberFormat(locale, options));
}

/**
 * `new Intl.PluralRules(locale)`, shared. Each holds ICU data outside the JS heap (with a number
 * format, about 25 KB): one per locale, not one per tenant or per widget render.
 */
export function pluralRules(locale: string): Intl.PluralRules {
  return cached('pr', locale, {}, () => new Intl.PluralRules(locale));
}
