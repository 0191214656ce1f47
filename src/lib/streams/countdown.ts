/** Time left until a stream starts, for the server-rendered text and the live countdown alike. */
export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export function remaining(startMs: number, nowMs: number): Remaining | null {
  const total = Math.floor((startMs - nowMs) / 1000);
  if (total <= 0) return null;
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/** `2 d 3 h 4 min` in the locale (`Intl.DurationFormat`); seconds only in the last hour. */
export function formatRemaining(left: Remaining, locale: string): string {
  const { days, hours, minutes, seconds } = left;
  const duration: Partial<Remaining> =
    days > 0 ? { days, hours } : hours > 0 ? { hours, minutes } : { minutes, seconds };
  if (typeof Intl.DurationFormat === 'function')
    return new Intl.DurationFormat(locale, { style: 'narrow' }).format(duration);
  const units: [keyof Remaining, string][] = [
    ['days', 'd'],
    ['hours', 'h'],
    ['minutes', 'min'],
    ['seconds', 's'],
  ];
  return units
    .filter(([unit]) => duration[unit] !== undefined)
    .map(([unit, label]) => `${duration[unit]} ${label}`)
    .join(' ');
}
