import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floodRound } from '../../fixtures/lodging-flood.ts';
import { ctl, startTestMock } from '../harness.ts';
import type { Mock } from '../harness.ts';

// The lodging budget against a flood of searches (issue 19): the mock at its documented 60 a
// minute, the site's default budget and shares.
let mock: Mock;
beforeAll(async () => {
  mock = await startTestMock({ lodgingPerMinute: 60 });
});
afterAll(() => mock.close());

describe('a lodging budget a few addresses cannot exhaust', () => {
  it('four addresses searching new dates leave real guests able to search and book', async () => {
    await ctl.reset(mock);
    await ctl.limits(mock, { lodgingPerMinute: 60 });
    const outcome = await floodRound({
      lodgingUrl: mock.lodgingUrl,
      floodAddresses: 4,
      searchesPerAddress: 30,
      guests: 5,
      round: 0,
    });
    expect(outcome.guestsFailed).toBe(0);
    // The flood was held to its own share, and the upstream never had to say 429.
    expect(outcome.floodRefused).toBeGreaterThan(outcome.floodSearches / 2);
    expect(outcome.upstream429).toBe(0);
  });

  it('guests who come once four addresses have flooded the search: fewer than 5 % refused', async () => {
    await ctl.reset(mock);
    await ctl.limits(mock, { lodgingPerMinute: 60 });
    // The drain of issue 33: the flood spends what it can first, then guests search dates of their
    // own (nothing a cache could share). Before the search share was fair per address, 35 % of them
    // were refused here.
    const outcome = await floodRound({
      lodgingUrl: mock.lodgingUrl,
      floodAddresses: 4,
      searchesPerAddress: 30,
      guests: 20,
      round: 1,
      guestsAfterFlood: true,
      searchOnly: true,
    });
    expect(outcome.guestFailures).toEqual([]);
    expect(outcome.guestsFailed / outcome.guests).toBeLessThan(0.05);
    expect(outcome.floodRefused).toBeGreaterThan(outcome.floodSearches * 0.8);
    expect(outcome.upstream429).toBe(0);
  });
});
