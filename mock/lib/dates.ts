const DAY = 86_400_000;

/** Midnight UTC of the real current day: seed dates move with the calendar but not within a day. */
export function baseNow(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export const addDays = (d: Date, days: number): Date => new Date(d.getTime() + days * DAY);
export const addMinutes = (d: Date, minutes: number): Date =>
  new Date(d.getTime() + minutes * 60_000);

/** ISO 8601 with an explicit offset, as Laravel's Carbon prints it. */
export const isoTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** Laravel's default model serialisation of a timestamp (the alt dialect): microseconds and `Z`. */
export const laravelTime = (iso: string): string => iso.replace(/(\.\d+)?(\+00:00|Z)$/, '.000000Z');

/** A `date`-cast column as Laravel serialises it (the alt dialect): midnight UTC as a timestamp. */
export const laravelDate = (day: string): string => `${day}T00:00:00.000000Z`;

export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);

/** Today's date on the calendar of `timeZone` (a property's own; UTC when it has none), for "not in the past" checks. */
export const todayDate = (timeZone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: timeZone || 'UTC' }).format(new Date());

/** Nights between two YYYY-MM-DD dates. */
export const nightsBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);

export function isValidDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(d.getTime()) && isoDate(d) === value;
}
