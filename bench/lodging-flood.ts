/**
 * Lodging flood bench (issues 19 and 33): guests failing to search and book while four addresses
 * each search new dates at the per-address endpoint limit (30 a minute). Each round is one budget
 * window: a fresh site upstream (default budget and shares) against the in-process contract mock
 * at its documented 60 a minute, reset between rounds. Two measures per round:
 * - `guestsFailedPercent`: 5 guests search and book at the same moment as the flood (issue 19);
 * - `drainRefusedPercent`: 20 guests, each searching dates of their own, come once the flood has
 *   spent what it could (the drain of issue 33: the flood runs all minute); their searches refused.
 *
 *   npx vitest run --config vitest.bench.config.ts bench/lodging-flood.run.ts   (BENCH_ROUNDS=10)
 */
import { startMock } from '../mock/index.ts';
import { floodRound } from '../tests/fixtures/lodging-flood.ts';

export interface LodgingFloodResult {
  rounds: number;
  guests: number;
  guestsFailedPercent: number;
  floodRefusedPercent: number;
  /** Guests coming after the flood whose search was refused. */
  drainRefusedPercent: number;
  upstream429: number;
  /** Target: fewer than 5 % of guests fail or are refused, and the upstream never answers 429. */
  ok: boolean;
}

async function control(url: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${path}: ${res.status}`);
}

export async function run(options: { rounds?: number } = {}): Promise<LodgingFloodResult> {
  const rounds = options.rounds ?? 10;
  const mock = await startMock({ publishingPort: 0, lodgingPort: 0, controlPort: 0 });
  const totals = {
    guests: 0,
    failed: 0,
    flood: 0,
    refused: 0,
    upstream429: 0,
    drainGuests: 0,
    drainRefused: 0,
  };
  const reset = async () => {
    await control(mock.controlUrl, '/reset', {});
    await control(mock.controlUrl, '/limits', { lodgingPerMinute: 60 });
  };
  try {
    for (let round = 0; round < rounds; round += 1) {
      await reset();
      const outcome = await floodRound({
        lodgingUrl: mock.lodgingUrl,
        floodAddresses: 4,
        searchesPerAddress: 30,
        guests: 5,
        round,
      });
      totals.guests += outcome.guests;
      totals.failed += outcome.guestsFailed;
      totals.flood += outcome.floodSearches;
      totals.refused += outcome.floodRefused;
      totals.upstream429 += outcome.upstream429;

      await reset();
      const drain = await floodRound({
        lodgingUrl: mock.lodgingUrl,
        floodAddresses: 4,
        searchesPerAddress: 30,
        guests: 20,
        round: rounds + round,
        guestsAfterFlood: true,
        searchOnly: true,
      });
      totals.drainGuests += drain.guests;
      totals.drainRefused += drain.guestsFailed;
      totals.upstream429 += drain.upstream429;
    }
  } finally {
    await mock.close();
  }
  const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;
  const guestsFailedPercent = percent(totals.failed, totals.guests);
  const drainRefusedPercent = percent(totals.drainRefused, totals.drainGuests);
  return {
    rounds,
    guests: totals.guests,
    guestsFailedPercent,
    floodRefusedPercent: percent(totals.refused, totals.flood),
    drainRefusedPercent,
    upstream429: totals.upstream429,
    ok: guestsFailedPercent < 5 && drainRefusedPercent < 5 && totals.upstream429 === 0,
  };
}
