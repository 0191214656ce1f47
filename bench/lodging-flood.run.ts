import { it } from 'vitest';
import { run } from './lodging-flood.ts';

/**
 * `npx vitest run --config vitest.bench.config.ts bench/lodging-flood.run.ts` (see ./lodging-flood.ts):
 * the site modules read Vite's `import.meta.glob`, so the bench runs under Vitest. `BENCH_ROUNDS`
 * rounds (default 10).
 */
it('lodging search under a 4-address flood', async () => {
  const result = await run({ rounds: Number(process.env['BENCH_ROUNDS'] ?? 10) });
  console.table([result]);
  console.log(JSON.stringify(result));
});
