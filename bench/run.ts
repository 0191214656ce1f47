/**
 * `npm run bench`: every benchmark, one after the other, with a summary of targets met.
 *   npm run bench -- --no-lighthouse    skip Lighthouse (every page type, about 20 s each)
 *   npm run bench -- --no-static        skip the static build (about 8 minutes at the upstream's limit)
 *   npm run bench -- --crawler-full     the crawler-plus-humans load for 2 minutes (default 20 s)
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { NGINX, REDIS_SERVER } from '../tests/deploy/stack.ts';
import { printDelivery, run as runDelivery } from './delivery.ts';
import { run as runEpaper } from './epaper.ts';
import { printReading, run as runReading } from './reading.ts';
import { run as runUpstream } from './upstream.ts';
import { run as runCrawler } from './crawler.ts';
import { run as runQueryFlood } from './query-flood.ts';
import { run as runLodgingFlood } from './lodging-flood.ts';

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

const deliveryBench =
  'delivery: edge ≥ 0.8× nginx file, compression ≥ 0.8× off, two servers ≈ one server’s upstream calls';
if (existsSync(NGINX) && existsSync(REDIS_SERVER)) {
  const delivery = await runDelivery();
  printDelivery(delivery);
  results['delivery'] = delivery;
  verdicts.push({ bench: deliveryBench, ok: delivery.ok });
} else {
  console.log(`\nProduction delivery: skipped, needs ${NGINX} and ${REDIS_SERVER}`);
  verdicts.push({ bench: `${deliveryBench} (skipped: no nginx/redis-server)`, ok: false });
}
const originBench =
  'origin: npm start ≥ 0.6× nginx file, post render ≥ 0.3× and home ≥ 0.5× a bare page, cold post ≤ 2 round trips and other pages 1, headers ≤ 800 B, RSS ≤ 300 MB under render load, ≤ 0.3 MB per tenant';
if (existsSync(NGINX)) {
  const { run: runOrigin } = await import('./origin.ts');
  const origin = await runOrigin();
  results['origin'] = origin;
  verdicts.push({ bench: originBench, ok: origin.ok });
} else {
  verdicts.push({ bench: `${originBench} (skipped: no nginx)`, ok: false });
}
const crawlerSeconds = process.argv.includes('--crawler-full') ? 120 : 20;
const crawler = await runCrawler({ seconds: crawlerSeconds });
console.log(
  `\nA crawler at 5 distinct pages/s plus humans on popular pages (${crawlerSeconds} s, mock at its documented limits, no read tokens)`,
);
console.table([
  {
    humanFailedPercent: crawler.humanFailedPercent,
    crawlerServedPercent: crawler.crawlerServedPercent,
    upstream429: crawler.upstream429,
    peakRssMb: crawler.peakRssMb,
  },
]);
results['crawler'] = crawler;
verdicts.push({ bench: 'crawler: humans < 1 % failed, zero upstream 429s', ok: crawler.ok });

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

const flood = await runQueryFlood();
console.log('\nRoute cache under a distinct-query flood (heap grown after GC, MB)');
console.table([flood]);
results['queryFlood'] = flood;
verdicts.push({ bench: 'query flood: route cache grows < 20 MB over 40,000 URLs', ok: flood.ok });

const lodgingFlood = await runLodgingFlood();
console.log(
  '\nReal guests searching and booking while 4 addresses flood the lodging search (mock at 60/min)',
);
console.table([lodgingFlood]);
results['lodgingFlood'] = lodgingFlood;
verdicts.push({
  bench: 'lodging flood: guests failing < 5 %, zero upstream 429s',
  ok: lodgingFlood.ok,
});

const epaper = runEpaper();
console.log('\nE-paper reader island');
console.log(JSON.stringify(epaper, null, 2));
results['epaper'] = epaper;
verdicts.push({ bench: 'epaper: reader island ≤ 12 KB gz', ok: epaper.ok });

if (!process.argv.includes('--no-static')) {
  // Minutes long: it runs at the upstream's documented rate limit on purpose.
  const { run: runStatic } = await import('./static.ts');
  const result = await runStatic();
  console.log('\nStatic build of a 1,000-post tenant at the documented limits');
  console.table([result]);
  results['static'] = result;
  verdicts.push({
    bench: 'static: wall time ≤ 1.15× the rate-limit floor, rebuild makes 0 calls',
    ok: result.ok,
  });
}

console.log('\nTargets');
console.table(verdicts);
mkdirSync(new URL('bench/results/', root), { recursive: true });
writeFileSync(new URL('bench/results/all.json', root), `${JSON.stringify(results, null, 2)}\n`);
