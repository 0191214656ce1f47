import type { I18n, MessageKey } from '../i18n/index.ts';
import { createI18n } from '../i18n/index.ts';

const INTERVALS: Readonly<Record<string, MessageKey>> = {
  day: 'plans.perDay',
  daily: 'plans.perDay',
  week: 'plans.perWeek',
  weekly: 'plans.perWeek',
  month: 'plans.perMonth',
  monthly: 'plans.perMonth',
  quarter: 'plans.perQuarter',
  quarterly: 'plans.perQuarter',
  year: 'plans.perYear',
  yearly: 'plans.perYear',
  annual: 'plans.perYear',
  annually: 'plans.perYear',
  once: 'plans.once',
  lifetime: 'plans.once',
};

const english = createI18n('en', 'UTC').t;

/** A plan's billing interval for people: `month` → "per month" (in `t`'s language); unknown values pass through. */
export function intervalLabel(interval: string, t: I18n['t'] = english): string {
  const normalized = interval.trim().toLowerCase();
  const key = INTERVALS[normalized];
  return key ? t(key) : normalized;
}
