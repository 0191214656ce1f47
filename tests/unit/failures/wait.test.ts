import { describe, expect, it } from 'vitest';
import { formatWait, retryAfterFromMs, retryAfterSeconds } from '../../../src/lib/failures/wait.ts';

describe('retryAfterSeconds', () => {
  it.each([
    [0, 1],
    [-5, 1],
    [0.2, 1],
    [1, 1],
    [1.01, 2],
    [29.5, 30],
    [60, 60],
  ])('%d s → %d', (seconds, rounded) => {
    expect(retryAfterSeconds(seconds)).toBe(rounded);
  });

  it.each([
    [0, 1],
    [1, 1],
    [999, 1],
    [1001, 2],
    [59_000, 59],
  ])('%d ms → %d s', (ms, seconds) => {
    expect(retryAfterFromMs(ms)).toBe(seconds);
  });
});

describe('formatWait', () => {
  it.each([
    [0, '1 second'],
    [0.2, '1 second'],
    [1, '1 second'],
    [7, '7 seconds'],
    [29.1, '30 seconds'],
    [89, '89 seconds'],
    [90, '2 minutes'],
    [596, '10 minutes'],
    [840, '14 minutes'],
    [900, '15 minutes'],
    [3600, '60 minutes'],
  ])('%d s → %s', (seconds, text) => {
    expect(formatWait(seconds, 'en-GB')).toBe(text);
  });
});
