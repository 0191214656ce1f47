import { describe, expect, it } from 'vitest';
import { sequentialRoundTrips, type LoggedCall } from '../fixtures/upstream-log.ts';

const call = (start: number, end: number): LoggedCall => ({ method: 'GET', path: '/', start, end });

describe('sequentialRoundTrips', () => {
  it('counts calls made together as one round trip', () => {
    expect(sequentialRoundTrips([call(0, 100), call(1, 120), call(2, 90)])).toBe(1);
  });
  it('counts a call that waited for another as a second one', () => {
    expect(sequentialRoundTrips([call(0, 100), call(1, 100), call(101, 200)])).toBe(2);
  });
  it('follows the longest chain, whatever the order the log holds them in', () => {
    expect(sequentialRoundTrips([call(205, 300), call(0, 100), call(101, 200), call(5, 250)])).toBe(
      3,
    );
    expect(sequentialRoundTrips([])).toBe(0);
  });
});
