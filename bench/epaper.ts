/**
 * E-paper bench: the reader island's JavaScript size (gzipped, from the last build in `dist/client`)
 * against its 12 KB budget.
 *
 *   npm run build && node bench/epaper.ts
 *   (BENCH_CLIENT_DIR=<dir> reads another build's client assets)
 */
import { fileURLToPath } from 'node:url';
import { bundleSize } from './bundle.ts';

export const READER_BUDGET_GZIP = 12 * 1024;
const root = fileURLToPath(new URL('../', import.meta.url));

export interface EpaperBenchResult {
  readerFiles: string[];
  readerBytes: number | null;
  readerGzipBytes: number | null;
  budgetGzipBytes: number;
  ok: boolean;
}

export function run(
  clientDir = process.env['BENCH_CLIENT_DIR'] ?? `${root}dist/client`,
): EpaperBenchResult {
  // The island's selector for the reader root: only its chunk has it.
  const reader = bundleSize(clientDir, '[data-reader]');
  return {
    readerFiles: reader?.files ?? [],
    readerBytes: reader?.bytes ?? null,
    readerGzipBytes: reader?.gzipBytes ?? null,
    budgetGzipBytes: READER_BUDGET_GZIP,
    ok: reader !== null && reader.gzipBytes <= READER_BUDGET_GZIP,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = run();
  console.log(JSON.stringify(result, null, 2));
  if (result.readerGzipBytes === null)
    console.log('No reader island found in dist/client: run `npm run build` first.');
  process.exitCode = result.ok ? 0 : 1;
}
