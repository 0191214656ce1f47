/** A plan's billing interval for people: `month` → "per month"; unknown values pass through. */
export function intervalLabel(interval: string): string {
  const normalized = interval.trim().toLowerCase();
  const known: Record<string, string> = {
    day: 'per day',
    daily: 'per day',
    week: 'per week',
    weekly: 'per week',
    month: 'per month',
    monthly: 'per month',
    quarter: 'per quarter',
    quarterly: 'per quarter',
    year: 'per year',
    yearly: 'per year',
    annual: 'per year',
    annually: 'per year',
    once: 'once',
    lifetime: 'once',
  };
  return known[normalized] ?? `per ${normalized}`;
}
