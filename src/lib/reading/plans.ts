import type { I18n, MessageKey } from '../i18n/index.ts';

/** Each interval's words, as upstreams spell them. */
const INTERVALS: [MessageKey, ...string[]][] = [
  ['plans.perDay', 'day', 'daily'],
  ['plans.perWeek', 'week', 'weekly'],
  ['plans.perMonth', 'month', 'monthly'],
  ['plans.perQuarter', 'quarter', 'quarterly'],
  ['plans.perYear', 'year', 'yearly', 'annual', 'annually'],
  ['plans.once', 'once', 'lifetime'],
];

/** A plan's billing interval for people: `month` → "per month" (in `t`'s language); unknown values pass through. */
export function intervalLabel(interval: string, t: I18n['t']): string {
  const normalized = interval.trim().toLowerCase();
  const key = INTERVALS.find(([, ...words]) => words.includes(normalized))?.[0];
  return key ? t(key) : normalized;
}
