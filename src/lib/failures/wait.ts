/** How long a refused visitor waits: one rounding and one wording for every surface. */

/** Seconds for `Retry-After` and messages: whole seconds, rounded up, never below 1. */
export function retryAfterSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}

/** `retryAfterSeconds` from a limiter's milliseconds. */
export function retryAfterFromMs(ms: number): number {
  return retryAfterSeconds(ms / 1000);
}

/** "30 seconds", "1 minute", "15 minutes": seconds up to a minute and a half, then whole minutes. */
export function waitText(seconds: number): string {
  const s = retryAfterSeconds(seconds);
  if (s < 90) return `${s} ${s === 1 ? 'second' : 'seconds'}`;
  const m = Math.ceil(s / 60);
  return `${m} ${m === 1 ? 'minute' : 'minutes'}`;
}
