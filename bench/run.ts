/**
 * `npm run bench`: every benchmark, one after the other, with a summary of targets met.
 *   npm run bench -- --no-lighthouse    skip the Lighthouse runs (about a minute each)
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { run as runEpaper } from './epaper.ts';
import { printReading, run as runReading } from './reading.ts';
import { run as runUpstream } from './upstream.ts';

const root = new URL('../', import.meta.url);
const results: Record<string, unknown> = {};
const verdicts: { bench: string; ok: boolean }[] = [];

const reading = await runReading({ lighthouse: !process.argv.includes('--no-lighthouse') });
printReading(reading);
results['reading'] = reading;
verdicts.push({ bench: 'reading: 0 JS bytes, warm post ≥ 0.9× plain page', ok: reading.ok });

const upstream = await runUpstream({ views: 1200, simulatedMinutes: 20 });
console.log(
  '\nUpstream calls for a realistic page-view mix (1,200 views over 20 simulated minutes)',
);
console.table([
  {
    callsPer1000Views: upstream.upstreamCallsPer1000Views,
    cacheHitRatio: upstream.cacheHitRatio,
    upstream429: upstream.upstream429,
    budgetRejected: upstream.budgetRejected,
    failedViews: upstream.failedViews,
  },
]);
results['upstream'] = upstream;
verdicts.push({ bench: 'upstream: zero upstream 429s, calls within the limits', ok: upstream.ok });

if (existsSync(new URL('bench/booking.ts', root))) {
  // A variable specifier: the booking bench is optional for the type checker.
  const bookingModule = './booking.ts';
  const booking = (await import(bookingModule)) as {
    run: () => Promise<{ ok?: boolean } & Record<string, unknown>>;
  };
  const result = await booking.run();
  console.log('\nBooking widget');
  console.log(JSON.stringify(result, null, 2));
  results['booking'] = result;
  verdicts.push({ bench: 'booking: widget ≤ 20 KB gz, loader ≤ 2 KB', ok: result.ok !== false });
}

const epaper = runEpaper();
console.log('\nE-paper reader island');
console.log(JSON.stringify(epaper, null, 2));
results['epaper'] = epaper;
verdicts.push({ bench: 'epaper: reader island ≤ 12 KB gz', ok: epaper.ok });

console.log('\nTargets');
console.table(verdicts);
mkdirSync(new URL('bench/results/', root), { recursive: true });
writeFileSync(new URL('bench/results/all.json', root), `${JSON.stringify(results, null, 2)}\n`);
