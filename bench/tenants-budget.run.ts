import { it } from 'vitest';
import { runTenantsBudget } from './tenants-budget.ts';
import type { TenantsBudgetResult } from './tenants-budget.ts';

/** `npm run bench:tenants` (see ./tenants-budget.ts): both window modes, one after the other. */
it('fifty anonymous tenants, fixed and sliding window', async () => {
  const windows = Number(process.env['BENCH_WINDOWS'] ?? 5);
  const windowSeconds = Number(process.env['BENCH_WINDOW_SECONDS'] ?? 60);
  const results: TenantsBudgetResult[] = [];
  for (const window of ['fixed', 'sliding'] as const) {
    results.push(await runTenantsBudget({ window, windowSeconds, windows }));
  }
  console.table(results);
  console.log(JSON.stringify(results));
});
