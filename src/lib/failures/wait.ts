import { numberFormat } from '../i18n/intl-cache.ts';

/** How long a refused visitor waits: one rounding and one wording for every surface. */

/** Seconds for `Retry-After` and messages: whole seconds, rounded up, never below 1. */
export function retryAfterSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}

/** `retryAfterSeconds` from a limiter's milliseconds. */
export function retryAfterFromMs(ms: number): number {
  return retryAfterSeconds(ms / 1000);
}

/** "30 seconds", "2 Minuten": seconds up to a minute and a half, then whole minutes, in `locale`. */
export function formatWait(seconds: number, locale: string): string {
  const s = retryAfterSeconds(seconds);
  const [value, unit] = s < 90 ? [s, 'second'] : [Math.ceil(s / 60), 'minute'];
  return numberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
