import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { OUT_DIR } from './stack.ts';

/**
 * Vitest global setup: one production build for the whole suite, beside (not over) `dist/`; none
 * when `npm test` has built for every suite (E2E_BUILT, package.json).
 */
export default function build(): void {
  if (process.env['E2E_BUILT']) return;
  const root = fileURLToPath(new URL('../../', import.meta.url));
  execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: root,
    env: { ...process.env, MASTHEAD_OUT_DIR: OUT_DIR, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
